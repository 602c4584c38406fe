"""An ack that leases the holder's next item in its own transaction (what a worker does
between two builds) behaves as an ack followed by a pull, on every backend; and a worker told
to stop just after such an ack gives the item back."""

from __future__ import annotations

import asyncio

import pytest

from studio.fabric.queue import Pulled, Scope, StaleLeaseError, WorkQueue
from studio.fabric.worker import Worker, WorkerSettings
from studio.fabric.worker_build import Finished, NextPull
from studio.store import Database
from tests.fabric.items import CAPABILITY, item_text
from tests.fabric.test_conformance import (
    DESIGNERS,
    change_row,
    defect_lines,
    item_state,
    lease,
    rules_named,
)


def test_the_ack_leases_the_next_item_in_scope_and_nothing_else(
    queue: WorkQueue, database: Database
) -> None:
    queue.enqueue(item_text("order-one"))
    queue.enqueue(item_text("order-wireframe", artifact="wireframe"))
    queue.enqueue(item_text("order-two"))
    token = lease(queue, "order-one")
    untouched = item_state(database, "order-wireframe")
    designers = Scope(CAPABILITY, frozenset({"design"}))

    closed, pulled = queue.ack_and_pull("order-one", "advance", token, "w1", designers)

    assert closed.status == "done" and queue.read("order-one").status == "done"
    assert pulled is not None and pulled.item.id == "order-two"
    stored = queue.read("order-two")
    assert stored.status == "leased" and stored.lease is not None
    assert stored.lease.worker == "w1" and stored.lease.token == pulled.token
    assert "leased to w1" in stored.work_log[-1]
    assert item_state(database, "order-wireframe") == untouched
    assert queue.ack_and_pull("order-two", "advance", pulled.token, "w1", designers)[1] is None


def test_a_refused_ack_leases_nothing(queue: WorkQueue, database: Database) -> None:
    queue.enqueue(item_text("order-one"))
    queue.enqueue(item_text("order-two"))
    token = lease(queue, "order-one")
    before = item_state(database, "order-one"), item_state(database, "order-two")

    with pytest.raises(StaleLeaseError):
        queue.ack_and_pull("order-one", "advance", token + 1, "w1", DESIGNERS)

    assert (item_state(database, "order-one"), item_state(database, "order-two")) == before


def test_a_next_item_changed_in_transit_is_parked_and_the_pull_goes_on(
    queue: WorkQueue, database: Database
) -> None:
    queue.enqueue(item_text("order-one"))
    queue.enqueue(item_text("order-bad"))
    queue.enqueue(item_text("order-good"))
    token = lease(queue, "order-one")
    change_row(database, "order-bad", order_text="")

    _, pulled = queue.ack_and_pull("order-one", "advance", token, "w1", DESIGNERS)

    assert pulled is not None and pulled.item.id == "order-good"
    parked = queue.read("order-bad")
    assert parked.status == "needs-context" and parked.lease is None
    assert len(defect_lines(parked)) == 1 and rules_named(defect_lines(parked)[0])


def test_a_pull_that_breaks_after_the_ack_leaves_the_ack_and_gives_the_item_back(
    queue: WorkQueue, monkeypatch: pytest.MonkeyPatch
) -> None:
    queue.enqueue(item_text("order-one"))
    queue.enqueue(item_text("order-two"))
    token = lease(queue, "order-one")

    def unreadable(_source: object) -> bool:
        raise PermissionError("[Errno 13] Permission denied: 'brief.md'")

    monkeypatch.setattr(queue.world, "resolves", unreadable)
    closed, pulled = queue.ack_and_pull("order-one", "advance", token, "w1", DESIGNERS)

    assert closed.status == "done" and queue.read("order-one").status == "done"
    assert pulled is None
    given_back = queue.read("order-two")
    assert given_back.status == "queued" and given_back.lease is None
    assert "released: the pull after order-one's ack failed" in given_back.work_log[-1]


class StopsAfterItsAck:
    """Acks at once, leasing the next item as a worker's build does, and meanwhile the
    worker is told to stop."""

    def __init__(self, queue: WorkQueue, stop: asyncio.Event) -> None:
        self.queue, self.stop = queue, stop

    async def run(self, pulled: Pulled, then: NextPull | None = None) -> Finished:
        assert then is not None
        closed, leased = self.queue.ack_and_pull(pulled.item.id, "advance", pulled.token, *then)
        self.stop.set()
        return Finished(closed.id, "advance", closed.status, next=leased)


def test_a_worker_stopping_after_an_ack_gives_back_the_item_it_leased(
    queue: WorkQueue,
) -> None:
    queue.enqueue(item_text("order-one"))
    queue.enqueue(item_text("order-two"))
    stop = asyncio.Event()
    worker = Worker(queue, StopsAfterItsAck(queue, stop), WorkerSettings("w1", DESIGNERS))

    summary = asyncio.run(worker.run(stop))

    assert [(done.item, done.exit) for done in summary.finished] == [
        ("order-one", "advance"),
        ("order-two", "released"),
    ]
    given_back = queue.read("order-two")
    assert given_back.status == "queued" and given_back.lease is None
    assert "released: w1 stopping" in given_back.work_log[-1]
    assert queue.leases() == []


def test_a_worker_drains_its_scope_with_one_pull_of_its_own(
    queue: WorkQueue, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every item after the first is leased by the ack before it; the slot pulls on its own
    only to start and to find the scope empty."""
    names = [f"order-{number}" for number in range(4)]
    for name in names:
        queue.enqueue(item_text(name))
    pulls = []
    real_pull = queue.pull
    monkeypatch.setattr(queue, "pull", lambda *args: pulls.append(args) or real_pull(*args))

    class AcksAdvance:
        async def run(self, pulled: Pulled, then: NextPull | None = None) -> Finished:
            assert then is not None
            closed, leased = queue.ack_and_pull(pulled.item.id, "advance", pulled.token, *then)
            return Finished(closed.id, "advance", closed.status, next=leased)

    settings = WorkerSettings("w1", DESIGNERS, once=True)
    summary = asyncio.run(Worker(queue, AcksAdvance(), settings).run(asyncio.Event()))

    assert [done.item for done in summary.finished] == names
    assert {queue.read(name).status for name in names} == {"done"}
    assert len(pulls) == 2
