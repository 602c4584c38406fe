"""The work queue's SQL on a SQLite file, where the conformance suite does not reach: the
guards of each statement, the lease columns, per-capability manifest versions, counts and
the signature record."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from studio.model.work_item_documents import read_document, work_item_of
from studio.model.work_items import WORK_LOG
from studio.store import open_database
from studio.store.work_queue import Change, DuplicateItemError, WorkQueueRepository
from studio.store.work_queue_leases import LeaseRequest
from studio.store.work_queue_schema import work_item_entries
from tests.fabric.items import item_text

NOW = datetime(2026, 9, 12, 10, 0, tzinfo=UTC)
TTL = timedelta(seconds=30)
LEASED = frozenset({"leased", "in-build"})


@pytest.fixture
def repository(tmp_path: Path) -> Iterator[WorkQueueRepository]:
    database = open_database(tmp_path / "queue.db")
    try:
        yield WorkQueueRepository(database)
    finally:
        database.close()


def put(repository: WorkQueueRepository, item_id: str, **fields: object) -> None:
    item = work_item_of(read_document(item_text(item_id, **fields)), NOW)
    version = repository.manifest_version(item.capability)
    assert repository.insert(item, [(WORK_LOG, f"queued {item_id}")], NOW, version)


def take(
    repository: WorkQueueRepository,
    worker: str = "w1",
    types: frozenset[str] = frozenset(),
    now: datetime = NOW,
) -> tuple[str, int, str | None] | None:
    request = LeaseRequest(
        worker, "design-studio", types, now, now + TTL, lambda previous, token: f"lease {token}"
    )
    leased = repository.lease_next(request)
    if leased is None:
        return None
    item, previous, _manifest_version = leased
    assert item.lease is not None
    return item.id, item.lease.token, previous


def entry_count(repository: WorkQueueRepository) -> int:
    with repository.database.read() as connection:
        return len(list(connection.execute(select(work_item_entries))))


def test_a_duplicate_insert_stores_neither_row_nor_entries(
    repository: WorkQueueRepository,
) -> None:
    put(repository, "order-one")
    with pytest.raises(DuplicateItemError):
        put(repository, "order-one", artifact="wireframe")
    assert entry_count(repository) == 1
    assert repository.item("order-one").artifact == "design"


def test_lease_next_takes_the_oldest_in_scope_and_the_discovery_items(
    repository: WorkQueueRepository,
) -> None:
    put(repository, "order-design")
    put(repository, "order-wireframe", artifact="wireframe")
    put(repository, "discover", artifact="menu", subject="capabilities/design-studio")

    wireframes = frozenset({"wireframe"})
    assert take(repository, types=wireframes) == ("order-wireframe", 1, None)
    assert take(repository, types=wireframes) == ("discover", 1, None)
    assert take(repository, types=wireframes) is None
    assert take(repository) == ("order-design", 1, None)


def test_a_reclaim_names_the_previous_holder_once(repository: WorkQueueRepository) -> None:
    put(repository, "order-one")
    take(repository, "w1")
    later = NOW + TTL
    assert take(repository, "w2", now=later) == ("order-one", 2, "w1")
    assert repository.change("order-one", Change("queued", LEASED, 2), later)
    assert take(repository, "w3", now=later) == ("order-one", 3, None)


def test_renew_needs_the_current_token_of_a_held_item(repository: WorkQueueRepository) -> None:
    put(repository, "order-one")
    assert not repository.renew("order-one", 0, NOW + TTL, NOW)
    take(repository)
    assert not repository.renew("order-one", 2, NOW + 2 * TTL, NOW)
    assert repository.renew("order-one", 1, NOW + 2 * TTL, NOW)
    lease = repository.item("order-one").lease
    assert lease is not None and lease.expires_at == NOW + 2 * TTL


def test_a_change_without_a_token_fences_the_holder(repository: WorkQueueRepository) -> None:
    put(repository, "order-one")
    take(repository)
    open_statuses = frozenset({"leased", "queued"})
    assert repository.change("order-one", Change("needs-context", open_statuses), NOW)
    item = repository.item("order-one")
    assert item.status == "needs-context" and item.lease is None
    assert not repository.append("order-one", [(WORK_LOG, "late")], 1)
    assert not repository.change("order-one", Change("done", LEASED, 1), NOW)


def test_a_refused_change_writes_no_entries(repository: WorkQueueRepository) -> None:
    put(repository, "order-one")
    before = entry_count(repository)
    refused = Change("done", LEASED, 1, [(WORK_LOG, "ack advance")])
    assert not repository.change("order-one", refused, NOW)
    assert entry_count(repository) == before
    assert repository.item("order-one").status == "queued"


def test_an_append_without_a_token_waits_for_nobody_to_hold_the_item(
    repository: WorkQueueRepository,
) -> None:
    put(repository, "order-one")
    assert repository.append("order-one", [(WORK_LOG, "intake note")], None)
    take(repository)
    assert not repository.append("order-one", [(WORK_LOG, "outside note")], None)
    assert repository.append("order-one", [(WORK_LOG, "holder note")], 1)
    assert not repository.append("no-such-item", [(WORK_LOG, "note")], None)
    log = repository.item("order-one").work_log
    assert log[-2:] == ("lease 1", "holder note") and "outside note" not in log


def test_manifest_versions_count_per_capability(repository: WorkQueueRepository) -> None:
    assert repository.publish("design-studio", "a" * 64, "one", NOW) == 1
    assert repository.publish("copy-desk", "b" * 64, "copy", NOW) == 1
    assert repository.publish("design-studio", "c" * 64, "two", NOW) == 2

    latest = repository.manifests()
    assert [(found.capability, found.version, found.text) for found in latest] == [
        ("copy-desk", 1, "copy"),
        ("design-studio", 2, "two"),
    ]
    assert [found.version for found in repository.manifests("design-studio")] == [2]
    assert repository.manifests("nobody") == []


def test_a_lease_reads_its_own_capabilitys_latest_manifest(
    repository: WorkQueueRepository,
) -> None:
    request = LeaseRequest(
        "w1", "design-studio", frozenset(), NOW, NOW + TTL, lambda previous, token: "lease"
    )
    put(repository, "first")
    put(repository, "second")
    for source in "abc":  # another capability, further along
        repository.publish("copy-desk", source * 64, source, NOW)
    leased = repository.lease_next(request)
    assert leased is not None and leased[2] is None  # none of its own published yet

    repository.publish("design-studio", "d" * 64, "one", NOW)
    leased = repository.lease_next(request)
    assert leased is not None and (leased[0].id, leased[2]) == ("second", 1)


def test_counts_and_leases_say_who_holds_what(repository: WorkQueueRepository) -> None:
    for name in ("order-a", "order-b", "order-c"):
        put(repository, name)
    take(repository, "w1", now=NOW + timedelta(seconds=5))
    take(repository, "w2")

    assert repository.counts() == {"leased": 2, "queued": 1}
    assert [(item_id, lease.worker) for item_id, lease in repository.leases()] == [
        ("order-b", "w2"),
        ("order-a", "w1"),
    ]
    assert [item.id for item in repository.items("queued")] == ["order-c"]
    assert repository.items(capability="copy-desk") == []


def test_unsigned_wants_a_filed_terminal_item(repository: WorkQueueRepository) -> None:
    put(repository, "order-one")
    take(repository)
    assert repository.change("order-one", Change("killed", LEASED, 1), NOW)

    assert repository.unsigned() == []
    assert repository.signature("order-one") is None
    assert repository.sign("order-one", "file:///drop", "d" * 64, NOW)
    assert repository.signature("order-one") == (NOW, "file:///drop", "d" * 64)
