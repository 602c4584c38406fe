"""The queue's transactions on every backend when something inside them fails: nothing they
sent stays, and the connection they ran on serves the next one. (On PostgreSQL a pull, an
ack and an enqueue send BEGIN, their statements and COMMIT in one pipeline, and read what
the last statements returned after the COMMIT.)"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from studio.fabric.queue import WorkQueue
from studio.model.work_item_documents import read_document, work_item_of
from studio.model.work_items import WORK_LOG, WorkItem
from studio.store import Database
from studio.store.work_queue import Change, DuplicateItemError, WorkQueueRepository
from studio.store.work_queue_leases import LeaseRequest
from tests.fabric.items import CAPABILITY, item_text
from tests.fabric.test_conformance import DESIGNERS, item_state, lease

NOW = datetime(2026, 9, 12, 10, 0, tzinfo=UTC)


def next_lease(worker: str) -> LeaseRequest:
    return LeaseRequest(
        worker,
        CAPABILITY,
        frozenset(),
        NOW,
        NOW + timedelta(seconds=30),
        lambda previous, token: f"leased to {worker} (token {token})",
    )


def test_a_duplicate_item_stores_nothing_and_the_next_enqueue_goes_through(
    queue: WorkQueue, database: Database
) -> None:
    queue.enqueue(item_text("order-one"))
    before = item_state(database, "order-one")
    repository = WorkQueueRepository(database)
    twin = work_item_of(read_document(item_text("order-one", artifact="wireframe")), NOW)

    with pytest.raises(DuplicateItemError, match="order-one"):
        repository.insert(twin, [(WORK_LOG, "queued again")], NOW, 1)

    assert item_state(database, "order-one") == before
    assert queue.enqueue(item_text("order-two")).status == "queued"
    assert [item.id for item in queue.list()] == ["order-one", "order-two"]


def test_an_ack_whose_decision_fails_changes_nothing_and_leases_nothing(
    queue: WorkQueue, database: Database
) -> None:
    queue.enqueue(item_text("order-one"))
    queue.enqueue(item_text("order-two"))
    token = lease(queue, "order-one")
    before = item_state(database, "order-one"), item_state(database, "order-two")

    def decide(item: WorkItem, head: str | None) -> Change:
        raise RuntimeError(f"cannot decide on {item.id}")

    with pytest.raises(RuntimeError, match="cannot decide on order-one"):
        WorkQueueRepository(database).settle("order-one", decide, NOW, next_lease("w1"))

    assert (item_state(database, "order-one"), item_state(database, "order-two")) == before
    closed, pulled = queue.ack_and_pull("order-one", "advance", token, "w1", DESIGNERS)
    assert closed.status == "done"
    assert pulled is not None and pulled.item.id == "order-two"


def test_a_lease_returns_the_item_with_every_entry_its_transaction_committed(
    queue: WorkQueue,
) -> None:
    queue.enqueue(item_text("order-one"))
    queue.append("order-one", WORK_LOG, "a note before the lease")

    pulled = queue.pull("w1", DESIGNERS)

    assert pulled is not None
    assert pulled.item.work_log == queue.read("order-one").work_log
    assert "a note before the lease" in pulled.item.work_log[-2]
    assert f"leased to w1 (token {pulled.token})" in pulled.item.work_log[-1]
