"""Enqueue judges an item on the manifest version its queue last read and checks, where it
inserts, that the version is still the latest: a manifest another program publishes in the
meantime is never missed, whichever way it changes the answer."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from studio.fabric.queue import GateARefusedError, WorkQueue
from studio.model.work_items import ContextSource
from studio.store import Database, work_queue
from tests.fabric.conftest import Clock, queue_over, world_of
from tests.fabric.items import CAPABILITY, item_text, manifest
from tests.fabric.test_conformance import state


def other_program(database: Database, folder: Path, clock: Clock) -> WorkQueue:
    """A second queue over the same database, as another program on it would have."""
    return queue_over(database, world_of(database, folder), clock)


def test_a_type_withdrawn_by_another_program_is_refused(
    queue: WorkQueue, database: Database, folder: Path, clock: Clock
) -> None:
    queue.enqueue(item_text("order-one"))  # judged on version 1, which offers a live design
    other_program(database, folder, clock).publish_manifest(manifest(design="planned"))
    before = state(database)

    with pytest.raises(GateARefusedError) as refused:
        queue.enqueue(item_text("order-two"))

    assert [failure.rule for failure in refused.value.failures] == [2]
    assert state(database) == before


def test_a_type_made_live_by_another_program_is_taken(
    queue: WorkQueue, database: Database, folder: Path, clock: Clock
) -> None:
    queue.enqueue(item_text("order-one"))  # version 1: wireframe is planned
    other_program(database, folder, clock).publish_manifest(manifest(wireframe="live"))

    taken = queue.enqueue(item_text("order-two", artifact="wireframe"))

    assert taken.status == "queued"
    assert [item.id for item in queue.list()] == ["order-one", "order-two"]


class PublishingWhileJudged:
    """A world whose first eager source is resolved while another program publishes a
    manifest that withdraws the design type: between Gate A's reading and the insert."""

    def __init__(self, world, publish) -> None:
        self.world, self.publish, self.published = world, publish, False

    def resolves(self, source: ContextSource) -> bool:
        if not self.published:
            self.published = True
            self.publish()
        return self.world.resolves(source)

    def __getattr__(self, name: str):
        return getattr(self.world, name)


def test_a_manifest_published_between_gate_a_and_the_insert_is_judged_on(
    queue: WorkQueue, database: Database, folder: Path, clock: Clock
) -> None:
    queue.enqueue(item_text("order-one"))
    other = other_program(database, folder, clock)
    queue.world = PublishingWhileJudged(
        queue.world, lambda: other.publish_manifest(manifest(design="planned"))
    )
    before = state(database)

    with pytest.raises(GateARefusedError) as refused:
        queue.enqueue(item_text("order-two"))

    assert [failure.rule for failure in refused.value.failures] == [2]
    assert "planned" in refused.value.failures[0].message
    assert state(database) == before
    latest = queue.manifest(CAPABILITY)
    assert latest is not None and latest.version == 2


def test_a_manifest_published_while_the_item_is_inserted_waits_for_its_commit(
    queue: WorkQueue,
    database: Database,
    folder: Path,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another program publishes a manifest withdrawing the design type while the insert is
    in its transaction: its publishing waits for the insert's COMMIT, so the item was judged
    on the version that was the latest when it was queued."""
    queue.enqueue(item_text("order-one"))
    other = other_program(database, folder, clock)
    publishing = threading.Thread(
        target=lambda: other.publish_manifest(manifest(design="planned")), daemon=True
    )
    inserting_entries = work_queue.insert_entries

    def insert_entries_while_publishing(*arguments: Any) -> None:
        if not publishing.is_alive() and publishing.ident is None:
            publishing.start()
            publishing.join(0.5)
        inserting_entries(*arguments)

    monkeypatch.setattr(work_queue, "insert_entries", insert_entries_while_publishing)
    try:
        queue.enqueue(item_text("order-two"))
        queued = True
    except GateARefusedError:
        queued = False
    published_first = not publishing.is_alive()
    publishing.join(30)

    assert not publishing.is_alive()
    assert queued and not published_first
    assert [item.id for item in queue.list()] == ["order-one", "order-two"]
    latest = queue.manifest(CAPABILITY)
    assert latest is not None and latest.version == 2


def test_a_taken_id_is_refused_with_every_rule_it_breaks(
    queue: WorkQueue, database: Database, folder: Path, clock: Clock
) -> None:
    queue.enqueue(item_text("order-one"))
    other_program(database, folder, clock).publish_manifest(manifest(design="planned"))

    with pytest.raises(GateARefusedError) as refused:
        queue.enqueue(item_text("order-one"))

    assert [failure.rule for failure in refused.value.failures] == [1, 2]
    assert "already on the queue" in refused.value.failures[0].message
