"""A worker outlives a bad moment of its database: a heartbeat or a pull that fails once is
tried again, and no item is left held or built twice because of it."""

import asyncio
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy.exc import OperationalError

from studio.fabric.queue import Pulled, Scope, WorkQueue
from studio.fabric.sources import Resolved, SourceResolver
from studio.fabric.worker import Worker, WorkerSettings
from studio.fabric.worker_build import BuildOutcome, Finished, ItemBuild, NextPull
from studio.fabric.worker_definition import load_capability
from studio.model.work_items import ContextSource
from studio.store import Database
from studio.store.schema import utc_now
from studio.store.work_queue import WorkQueueRepository
from tests.fabric.conftest import world_of
from tests.fabric.items import CAPABILITY, MANIFEST, item_text
from tests.fabric.workers.capabilities import design_capability

DESIGNERS = Scope(CAPABILITY)
LOCKED = OperationalError("UPDATE work_items …", {}, Exception("database is locked"))


class SlowBuild:
    """A build that takes ``seconds``, then acks; what another puller got meanwhile."""

    def __init__(self, queue: WorkQueue, seconds: float) -> None:
        self.queue, self.seconds = queue, seconds
        self.meanwhile: list[Pulled | None] = []

    async def run(self, pulled: Pulled, then: NextPull | None = None) -> Finished:
        await asyncio.sleep(self.seconds)
        self.meanwhile.append(self.queue.pull("w2", DESIGNERS))
        closed = self.queue.ack(pulled.item.id, "advance", pulled.token)
        return Finished(closed.id, "advance", closed.status)


def _queue(database: Database, folder: Path, ttl: float) -> WorkQueue:
    ttl_delta = timedelta(seconds=ttl)
    queue = WorkQueue(
        WorkQueueRepository(database), world_of(database, folder), lease_ttl=ttl_delta
    )
    queue.publish_manifest(MANIFEST)
    return queue


def _fails_once(queue: WorkQueue, method: str, on_call: int) -> list[int]:
    """Make ``queue.<method>`` raise ``LOCKED`` on its ``on_call``-th call; the call count."""
    real, calls = getattr(queue, method), [0]

    def flaky(*args: object) -> object:
        calls[0] += 1
        if calls[0] == on_call:
            raise LOCKED
        return real(*args)

    setattr(queue, method, flaky)
    return calls


def test_a_heartbeat_that_fails_once_is_tried_again_and_the_lease_is_kept(
    database: Database, folder: Path
) -> None:
    queue = _queue(database, folder, ttl=0.6)
    queue.enqueue(item_text("order-beat"))
    beats = _fails_once(queue, "heartbeat", on_call=1)
    build = SlowBuild(queue, seconds=2.0)  # over three times the lease's time to live

    summary = asyncio.run(
        Worker(queue, build, WorkerSettings("w1", DESIGNERS, once=True)).run(asyncio.Event())
    )

    assert beats[0] >= 3
    assert build.meanwhile == [None]  # nobody could take the item while w1 built it
    assert [finished.exit for finished in summary.finished] == ["advance"]
    assert queue.read("order-beat").status == "done"


def test_a_pull_that_fails_once_does_not_stop_the_worker_or_strand_a_lease(
    database: Database, folder: Path
) -> None:
    queue = _queue(database, folder, ttl=30)
    queue.enqueue(item_text("item-a"))
    queue.enqueue(item_text("item-b"))
    _fails_once(queue, "pull", on_call=2)
    settings = WorkerSettings("w1", DESIGNERS, concurrency=2, once=True, poll_interval=0.05)

    summary = asyncio.run(Worker(queue, SlowBuild(queue, 0.3), settings).run(asyncio.Event()))

    assert sorted(finished.item for finished in summary.finished) == ["item-a", "item-b"]
    assert {queue.read(name).status for name in ("item-a", "item-b")} == {"done"}
    assert queue.leases() == []


class SlowSources:
    """The workspace's sources, each taking ``seconds`` to answer (a slow URL)."""

    def __init__(self, folder: Path, seconds: float) -> None:
        self.sources, self.seconds = SourceResolver(lambda _ref: None, folder), seconds

    def resolve(self, source: ContextSource, now: datetime) -> Resolved | None:
        time.sleep(self.seconds)
        return self.sources.resolve(source, now)


async def _built(run_input: dict[str, Any]) -> BuildOutcome:
    return BuildOutcome("run-1", completed=True, output={"exit": "advance"})


def test_a_slow_source_does_not_hold_up_the_heartbeats(
    database: Database, folder: Path, tmp_path: Path
) -> None:
    queue = _queue(database, folder, ttl=0.6)
    queue.enqueue(item_text("order-slow"))
    capability = load_capability(design_capability(tmp_path / "design"))
    beats = _fails_once(queue, "heartbeat", on_call=0)  # counts only
    building = ItemBuild(queue, capability, _built, SlowSources(folder, 1.5), utc_now)

    worker = Worker(queue, building, WorkerSettings("w1", DESIGNERS, once=True))
    summary = asyncio.run(worker.run(asyncio.Event()))

    assert beats[0] >= 2  # renewed while the source was being read
    assert [finished.exit for finished in summary.finished] == ["advance"]
    assert len(queue.read("order-slow").snapshot) == 1
