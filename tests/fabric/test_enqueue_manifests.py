"""Enqueue judges an item on the manifest version its queue last read and checks, where it
inserts, that the version is still the latest: a manifest another program publishes in the
meantime is never missed, whichever way it changes the answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.fabric.queue import GateARefusedError, WorkQueue
from studio.model.work_items import ContextSource
from studio.store import Database
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
