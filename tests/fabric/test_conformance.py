"""Conformance: what makes a backend a Fabric backend (fabric-spec v0 §2–§6 and §8.3), run on
every backend the queue has (``database_url`` is parametrised: SQLite and PostgreSQL).

The checklist, each line a "must" or "never" of the seed; the tests are named after it.

C1  Gate A at enqueue (§2.2): an item breaking any one rule bounces to the submitter naming
    exactly that rule number, and nothing is stored; lint says the same and stores nothing.
C2  Gate A at pull (§2.2): an item changed in transit so it breaks one rule is parked
    needs-context, its work log flags the in-transit defect with that rule number, and the
    pull goes on to the next good item (or None).
C3  A good item is stored queued with a null lease (§2.1) and its enqueue on the work log;
    its rendered text passes Gate A and keeps the four sections in order.
C4  Scope (§6): a pull leases only items of the puller's capability and the types it serves
    (the capability's discovery items always); out-of-scope items are never touched.
C5  Atomic lease (§6, §7 C7): pullers racing never lease the same item; each item is leased
    exactly once.
C6  Leases carry a TTL renewed by heartbeat (§6); a live lease is not reclaimable; an expired
    one is, visibly: the reclaim is written to the work log and names the previous holder.
C7  Fencing: ack, release, append, heartbeat and begin_build with a stale token are refused
    and change nothing.
C8  Ack maps exits to statuses (§6): advance → done, kill → killed, escalate → escalated,
    reroute-to-steward → needs-context; the lease is null afterwards.
C9  The context loop's bounce budget (§2.5): reroute-to-steward counts a bounce; over the
    budget the item returns to its requester.
C10 Station exits (refire-to-author, reroute-to-spec) never reach the port (§6): an ack with
    one, or with an unknown exit, is refused and changes nothing.
C11 Status is the only field the queue reads (§2.4, §8.3): a work log saying "done",
    "killed" or naming a lease changes nothing the queue decides.
C12 Append-only (§4.3, §8.3): the snapshot, work log and artifacts only grow; the Order
    takes no appends; the database refuses UPDATE and DELETE of entries, published
    manifests and close-out signatures.
C13 Close-out (§5): a terminal ack files the item to its subject in the same transaction;
    if filing fails the ack changes nothing.
C14 needs-context items are workable only by intake and escalated only by a human (§6):
    a pull never leases them; a person's requeue makes them pullable again.
C15 Manifests (§3): publishing is version-bumped and hash-stamped against the source; a
    manifest without a freshness stamp is refused (rule 2 bounces orders against it); a
    changed source reads stale.
C16 Signing (§5, §8.3): unsigned lists filed terminal items without a signature; sign is
    idempotent (a signed item never re-delivers).
C17 People's actions fence the holder: after a kill or a return to intake by a person, the
    holder's token is stale.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import DBAPIError

from studio.fabric.queue import (
    ExitRefusedError,
    GateARefusedError,
    Scope,
    StaleLeaseError,
    WorkQueue,
)
from studio.model.capabilities import source_hash
from studio.model.errors import StudioError
from studio.model.gate_a import PULL, GateFacts, gate_a
from studio.model.work_item_documents import read_document
from studio.model.work_items import SECTIONS, WorkItem
from studio.store import Database, open_database
from studio.store.knowledge import KnowledgeRepository, Landing
from studio.store.work_queue import WorkQueueRepository
from studio.store.work_queue_schema import (
    capability_manifests,
    closeout_signatures,
    work_item_entries,
    work_items,
)
from studio.workspace import WorkspaceWorld
from tests.fabric.conftest import LEASE_TTL, Clock, queue_over, world_of
from tests.fabric.items import (
    BREAKS_AT_ENQUEUE,
    CAPABILITY,
    MANIFEST,
    SUBJECT,
    item_text,
    manifest,
    sections,
)

DESIGNERS = Scope(CAPABILITY)
RULES = sorted(BREAKS_AT_ENQUEUE)
NOTES = [{"id": "notes", "type": "file", "ref": "notes.md", "when": "always"}]
"""The context of the 'next good item' of C2: a source none of the mutations touch."""


# --- reading the database as it is -----------------------------------------------------------


def state(database: Database) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every item row and every entry row, in storage order."""
    with database.read() as connection:
        items = [tuple(row) for row in connection.execute(select(work_items).order_by("seq"))]
        entries = connection.execute(select(work_item_entries).order_by("seq"))
        return items, [tuple(row) for row in entries]


def item_state(database: Database, item_id: str) -> tuple[Any, ...]:
    """One item's row and its entries."""
    with database.read() as connection:
        row = connection.execute(select(work_items).where(work_items.c.id == item_id)).one()
        entries = connection.execute(
            select(work_item_entries).where(work_item_entries.c.item_id == item_id).order_by("seq")
        )
        return tuple(row), tuple(tuple(entry) for entry in entries)


def change_row(database: Database, item_id: str, **values: Any) -> None:
    """Change an item's row the way an adapter mutating it in transit would."""
    with database.write() as connection:
        connection.execute(update(work_items).where(work_items.c.id == item_id).values(**values))


def rules_named(line: str) -> set[int]:
    return {int(number) for number in re.findall(r"rule (\d+)", line)}


def defect_lines(item: WorkItem) -> list[str]:
    return [line for line in item.work_log if "in-transit defect" in line]


def lease(queue: WorkQueue, item_id: str, worker: str = "w1") -> int:
    """Pull the item (it must be next in scope) and return its token."""
    pulled = queue.pull(worker, DESIGNERS)
    assert pulled is not None and pulled.item.id == item_id
    return pulled.token


# --- C1, C2: Gate A on both sides ------------------------------------------------------------


@pytest.mark.parametrize("rule", RULES)
def test_c1_gate_a_at_enqueue_bounces_one_rule_and_stores_nothing(
    queue: WorkQueue, database: Database, rule: int
) -> None:
    queue.enqueue(item_text("already-there"))
    before = state(database)
    text = item_text(**BREAKS_AT_ENQUEUE[rule])

    with pytest.raises(GateARefusedError) as refused:
        queue.enqueue(text, by="intake-desk")

    assert [failure.rule for failure in refused.value.failures] == [rule]
    assert f"rule {rule}" in str(refused.value)
    assert state(database) == before
    assert [failure.rule for failure in queue.lint(text)] == [rule]
    assert state(database) == before


def test_c1_a_taken_id_bounces_as_rule_1(queue: WorkQueue, database: Database) -> None:
    queue.enqueue(item_text("order-one"))
    before = state(database)

    with pytest.raises(GateARefusedError) as refused:
        queue.enqueue(item_text("order-one", artifact="wireframe"))

    assert [failure.rule for failure in refused.value.failures] == [1]
    assert state(database) == before


def _break_in_transit(rule: int, queue: WorkQueue, database: Database, folder: Path) -> str:
    """Change the stored item ``order-bad`` so that it breaks ``rule`` only; its id after."""
    if rule == 1:
        change_row(database, "order-bad", id="Order_Bad")
        return "Order_Bad"
    if rule == 2:
        queue.publish_manifest(manifest(design="planned"))
    elif rule == 3:
        change_row(database, "order-bad", extra={"lease": None})
    elif rule == 4:
        graph = {"id": "walk", "type": "graph", "ref": "acme", "when": "always"}
        change_row(database, "order-bad", context=[graph])
    elif rule == 5:
        (folder / "brief.md").unlink()
    elif rule == 6:
        change_row(database, "order-bad", order_text="")
    elif rule == 7:
        change_row(database, "order-bad", order_text="Design it.\n\n## Notes\n\nsmuggled")
    elif rule == 8:
        pasted = {"id": "brief", "type": "file", "ref": "Guests pay.\nBy card.", "when": "later"}
        change_row(database, "order-bad", context=[pasted])
    return "order-bad"


@pytest.mark.parametrize("rule", RULES)
def test_c2_gate_a_at_pull_parks_an_item_changed_in_transit(
    queue: WorkQueue, database: Database, folder: Path, rule: int
) -> None:
    (folder / "notes.md").write_text("notes\n", encoding="utf-8")
    queue.enqueue(item_text("order-bad"))
    queue.enqueue(item_text("order-good", artifact="wireframe", context=NOTES))
    bad = _break_in_transit(rule, queue, database, folder)

    pulled = queue.pull("w1", DESIGNERS)

    assert pulled is not None and pulled.item.id == "order-good"
    assert pulled.item.status == "leased"
    parked = queue.read(bad)
    assert parked.status == "needs-context"
    assert parked.lease is None
    flagged = defect_lines(parked)
    assert len(flagged) == 1
    assert rules_named(flagged[0]) == {rule}
    assert queue.pull("w1", DESIGNERS) is None


def test_c2_a_pull_with_only_defective_items_returns_none(
    queue: WorkQueue, database: Database
) -> None:
    queue.enqueue(item_text("order-bad"))
    change_row(database, "order-bad", order_text="")

    assert queue.pull("w1", DESIGNERS) is None
    assert queue.read("order-bad").status == "needs-context"


def test_c2_an_inline_payload_added_in_transit_is_flagged(
    queue: WorkQueue, database: Database
) -> None:
    """§2.2 rule 8 and §8.3: a context source that gained a content payload in transit is an
    in-transit defect the pull makes visible, not a payload the store quietly drops."""
    queue.enqueue(item_text("order-bad"))
    payload = {"id": "brief", "type": "file", "ref": "brief.md", "when": "always"}
    change_row(database, "order-bad", context=[{**payload, "content": "The brief, pasted."}])

    assert queue.pull("w1", DESIGNERS) is None
    parked = queue.read("order-bad")
    assert parked.status == "needs-context"
    assert rules_named(defect_lines(parked)[0]) == {8}


# --- C3: a good item -------------------------------------------------------------------------


def test_c3_a_good_item_is_stored_queued_with_a_null_lease(queue: WorkQueue) -> None:
    stored = queue.enqueue(item_text("order-one"), by="intake-desk")

    assert stored.status == "queued" and stored.lease is None
    assert len(stored.work_log) == 1 and "queued by intake-desk" in stored.work_log[0]
    document = read_document(queue.text("order-one"))
    assert tuple(name for name, _ in document.sections) == SECTIONS
    assert document.front["status"] == "queued" and document.front["lease"] is None
    facts = GateFacts(lambda _: False, queue.offering, queue.world.resolves)
    assert gate_a(document, facts, PULL) == []
    assert [item.id for item in queue.list(status="queued")] == ["order-one"]


# --- C4: scope -------------------------------------------------------------------------------


def test_c4_a_pull_leases_only_in_scope_and_never_touches_the_rest(
    queue: WorkQueue, database: Database
) -> None:
    queue.publish_manifest(MANIFEST.replace("id: design-studio", "id: copy-desk"))
    queue.enqueue(item_text("order-design"))
    queue.enqueue(item_text("order-wireframe", artifact="wireframe"))
    queue.enqueue(item_text("order-copy", capability="copy-desk"))
    menu = {"artifact": "menu", "subject": CAPABILITY}  # its own key
    queue.enqueue(item_text("discover-designers", **menu))
    untouched = {name: item_state(database, name) for name in ("order-design", "order-copy")}
    wireframers = Scope(CAPABILITY, frozenset({"wireframe"}))

    first, second = queue.pull("w1", wireframers), queue.pull("w1", wireframers)

    assert first is not None and first.item.id == "order-wireframe"
    assert second is not None and second.item.id == "discover-designers"
    assert queue.pull("w1", wireframers) is None
    assert queue.pull("w1", Scope("nobody-serves-this")) is None
    assert {name: item_state(database, name) for name in untouched} == untouched
    copy = queue.pull("w2", Scope("copy-desk"))
    assert copy is not None and copy.item.id == "order-copy"
    assert item_state(database, "order-design") == untouched["order-design"]


def test_c4_an_out_of_scope_expired_lease_is_never_reclaimed(
    queue: WorkQueue, database: Database, clock: Clock
) -> None:
    queue.enqueue(item_text("order-one"))
    lease(queue, "order-one")
    clock.advance(LEASE_TTL * 3)
    before = item_state(database, "order-one")

    assert queue.pull("w2", Scope(CAPABILITY, frozenset({"wireframe"}))) is None
    assert queue.pull("w2", Scope("copy-desk")) is None
    assert item_state(database, "order-one") == before


# --- C5: atomic lease ------------------------------------------------------------------------


def test_c5_racing_pullers_never_lease_the_same_item(
    queue: WorkQueue, database_url: str, folder: Path, clock: Clock
) -> None:
    count, pullers = 60, 4
    for number in range(count):
        queue.enqueue(item_text(f"order-{number}"))
    start = threading.Barrier(pullers)
    taken: list[list[str]] = [[] for _ in range(pullers)]
    failures: list[BaseException] = []

    def pull_all(index: int) -> None:
        own = open_database(database_url)
        try:
            mine = queue_over(own, world_of(own, folder), clock)
            start.wait()
            while (pulled := mine.pull(f"w{index}", DESIGNERS)) is not None:
                taken[index].append(pulled.item.id)
        except BaseException as failure:  # reported below, with the thread's name
            failures.append(failure)
        finally:
            own.close()

    threads = [threading.Thread(target=pull_all, args=(n,)) for n in range(pullers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert failures == []
    every = [item_id for own in taken for item_id in own]
    assert sorted(every) == sorted(f"order-{number}" for number in range(count))
    for item in queue.list():
        log = queue.read(item.id).work_log
        assert item.status == "leased"
        assert len([line for line in log if "leased to" in line]) == 1


# --- C6: TTL, heartbeat, reclaim -------------------------------------------------------------


def test_c6_a_live_lease_is_not_reclaimable_and_heartbeat_renews_it(
    queue: WorkQueue, clock: Clock
) -> None:
    queue.enqueue(item_text("order-one"))
    token = lease(queue, "order-one")
    clock.advance(LEASE_TTL * 2 / 3)

    assert queue.pull("w2", DESIGNERS) is None
    renewed = queue.heartbeat("order-one", token)
    assert renewed.expires_at == clock.now + LEASE_TTL
    clock.advance(LEASE_TTL * 2 / 3)
    assert queue.pull("w2", DESIGNERS) is None
    assert queue.read("order-one").lease == renewed


def test_c6_an_expired_lease_is_reclaimed_and_the_reclaim_is_on_the_work_log(
    queue: WorkQueue, clock: Clock
) -> None:
    queue.enqueue(item_text("order-one"))
    token = lease(queue, "order-one", "w1")
    clock.advance(LEASE_TTL + timedelta(seconds=1))

    reclaimed = queue.pull("w2", DESIGNERS)

    assert reclaimed is not None and reclaimed.item.id == "order-one"
    assert reclaimed.reclaimed_from == "w1"
    assert reclaimed.token != token
    assert reclaimed.item.lease is not None and reclaimed.item.lease.worker == "w2"
    last = queue.read("order-one").work_log[-1]
    assert "reclaim" in last and "w1" in last and "w2" in last


# --- C7: fencing tokens ----------------------------------------------------------------------


FENCED: dict[str, Callable[[WorkQueue, int], object]] = {
    "ack": lambda queue, token: queue.ack("order-one", "advance", token),
    "release": lambda queue, token: queue.release("order-one", token),
    "append": lambda queue, token: queue.append("order-one", "Work log", "late", token),
    "heartbeat": lambda queue, token: queue.heartbeat("order-one", token),
    "begin_build": lambda queue, token: queue.begin_build("order-one", token),
}


@pytest.mark.parametrize("write", sorted(FENCED))
def test_c7_a_stale_token_is_refused_after_a_reclaim(
    queue: WorkQueue, database: Database, clock: Clock, write: str
) -> None:
    queue.enqueue(item_text("order-one"))
    stale = lease(queue, "order-one", "w1")
    clock.advance(LEASE_TTL * 2)
    assert queue.pull("w2", DESIGNERS) is not None
    before = state(database)

    with pytest.raises(StaleLeaseError):
        FENCED[write](queue, stale)

    assert state(database) == before


@pytest.mark.parametrize("write", sorted(FENCED))
def test_c7_a_token_never_issued_is_refused(
    queue: WorkQueue, database: Database, write: str
) -> None:
    queue.enqueue(item_text("order-one"))
    token = lease(queue, "order-one")
    before = state(database)

    with pytest.raises(StaleLeaseError):
        FENCED[write](queue, token + 7)

    assert state(database) == before


@pytest.mark.parametrize("write", sorted(FENCED))
def test_c7_the_token_of_a_closed_lease_is_refused(
    queue: WorkQueue, database: Database, write: str
) -> None:
    queue.enqueue(item_text("order-one"))
    token = lease(queue, "order-one")
    queue.release("order-one", token, "stopping")
    before = state(database)

    with pytest.raises(StaleLeaseError):
        FENCED[write](queue, token)

    assert state(database) == before


# --- C8, C9: exits and the bounce budget -----------------------------------------------------


@pytest.mark.parametrize(
    ("exit", "status"),
    [
        ("advance", "done"),
        ("kill", "killed"),
        ("escalate", "escalated"),
        ("reroute-to-steward", "needs-context"),
    ],
)
def test_c8_ack_maps_each_exit_to_its_status(queue: WorkQueue, exit: str, status: str) -> None:
    queue.enqueue(item_text("order-one"))
    token = lease(queue, "order-one")
    queue.begin_build("order-one", token)

    acked = queue.ack("order-one", exit, token, "because")

    assert acked.status == status
    assert acked.lease is None
    assert read_document(queue.text("order-one")).front["lease"] is None
    closing = [line for line in acked.work_log if f"ack {exit}" in line]
    assert len(closing) == 1 and f"→ {status}" in closing[0]


def test_c9_reroute_to_steward_counts_bounces_and_returns_over_the_budget(
    queue: WorkQueue,
) -> None:
    queue.enqueue(item_text("order-one"))
    statuses = []
    for bounce in range(1, 5):
        token = lease(queue, "order-one")
        acked = queue.ack("order-one", "reroute-to-steward", token, f"thin context {bounce}")
        statuses.append((acked.status, acked.context_bounces))
        if acked.status == "needs-context":
            queue.requeue("order-one", "context repaired", by="intake-desk")

    assert statuses == [
        ("needs-context", 1),
        ("needs-context", 2),
        ("needs-context", 3),
        ("returned", 4),
    ]
    assert queue.pull("w1", DESIGNERS) is None


# --- C10: station exits ----------------------------------------------------------------------


@pytest.mark.parametrize("exit", ["refire-to-author", "reroute-to-spec", "finish", "done"])
def test_c10_station_and_unknown_exits_are_refused_at_the_port(
    queue: WorkQueue, database: Database, exit: str
) -> None:
    queue.enqueue(item_text("order-one"))
    token = lease(queue, "order-one")
    before = state(database)

    with pytest.raises(ExitRefusedError):
        queue.ack("order-one", exit, token)

    assert state(database) == before


# --- C11: status only ------------------------------------------------------------------------


def test_c11_a_work_log_saying_done_changes_nothing_the_queue_decides(
    queue: WorkQueue,
) -> None:
    claims = (
        "2026-09-12T09:00:00Z ack advance by w9 → done",
        "2026-09-12T09:01:00Z killed by someone: no",
        "2026-09-12T09:02:00Z leased to w9 (token 41)",
    )
    queue.enqueue(item_text("order-one", body=sections(log=claims)))

    assert queue.read("order-one").status == "queued"
    pulled = queue.pull("w1", DESIGNERS)
    assert pulled is not None and pulled.item.id == "order-one" and pulled.reclaimed_from is None
    queue.append("order-one", "Work log", "status: done; lease: none", pulled.token)
    queue.heartbeat("order-one", pulled.token)
    assert queue.release("order-one", pulled.token).status == "queued"
    again = queue.pull("w2", DESIGNERS)
    assert again is not None and again.item.id == "order-one"


# --- C12: append-only ------------------------------------------------------------------------


def test_c12_sections_only_grow(queue: WorkQueue) -> None:
    queue.enqueue(item_text("order-one"))
    token = lease(queue, "order-one")
    before = queue.read("order-one")

    queue.append("order-one", "Resolved-context snapshot", "### brief: file brief.md\n\nx", token)
    queue.append("order-one", "Artifacts", "checkout-redesign/design/d.md", token)
    queue.append("order-one", "Work log", "Gate B: Clear", token)
    with pytest.raises(StudioError):
        queue.append("order-one", "Order", "do something else", token)

    after = queue.read("order-one")
    assert after.order == before.order
    assert after.work_log[: len(before.work_log)] == before.work_log
    assert len(after.work_log) == len(before.work_log) + 1
    assert after.snapshot == ("### brief: file brief.md\n\nx",)
    assert after.artifacts == ("checkout-redesign/design/d.md",)


def test_c12_an_append_without_a_token_is_refused_while_the_item_is_held(
    queue: WorkQueue, database: Database
) -> None:
    queue.enqueue(item_text("order-one"))
    lease(queue, "order-one")
    before = state(database)

    with pytest.raises(StaleLeaseError):
        queue.append("order-one", "Work log", "a note from outside the lease")

    assert state(database) == before


RECORDS = {
    "entries": work_item_entries.c.text,
    "manifests": capability_manifests.c.text,
    "signatures": closeout_signatures.c.channel,
}
"""Each append-only table and a text column a change would rewrite."""


@pytest.mark.parametrize("records", sorted(RECORDS))
@pytest.mark.parametrize("statement", ["update", "delete"])
def test_c12_the_database_refuses_changing_or_removing_records(
    queue: WorkQueue, database: Database, records: str, statement: str
) -> None:
    queue.enqueue(item_text("order-one"))
    queue.ack("order-one", "advance", lease(queue, "order-one"))
    assert queue.sign("order-one", "file:///drop", "0" * 64)
    column = RECORDS[records]
    table = column.table
    if statement == "update":
        change: Any = update(table).values({column.name: "rewritten"})
    else:
        change = delete(table)
    with database.read() as connection:
        before = list(connection.execute(select(table)))

    with pytest.raises(DBAPIError), database.write() as connection:
        connection.execute(change)

    with database.read() as connection:
        assert list(connection.execute(select(table))) == before


# --- C13: close-out files in the ack's transaction -------------------------------------------


def test_c13_a_terminal_ack_files_the_item_to_its_subject(
    queue: WorkQueue, database: Database
) -> None:
    queue.enqueue(item_text("order-one"))
    token = lease(queue, "order-one")

    queue.ack("order-one", "advance", token, "design landed")

    filed = KnowledgeRepository(database).head_of(SUBJECT, "order-one")
    assert filed is not None and filed.front.kind == "work-item"
    body = KnowledgeRepository(database).body(filed.ref)
    assert "ack advance" in body and "## Order" in body
    assert any(filed.ref in line for line in queue.read("order-one").work_log)
    assert [item.id for item in queue.unsigned()] == ["order-one"]


class _FilingThatFails:
    """The workspace's world, except that the landing it hands over supersedes a version that
    was never stored, so writing it inside the ack's transaction fails."""

    def __init__(self, world: WorkspaceWorld) -> None:
        self.world = world

    def resolves(self, source: Any) -> bool:
        return self.world.resolves(source)

    def filing(self, item: WorkItem, head: str | None) -> Landing | None:
        version, text, derivation = self.world.filing(item, head)
        front = replace(version.front, supersedes="nowhere/work-item/never-landed.md")
        return replace(version, front=front), text, derivation


def test_c13_if_filing_fails_the_ack_changes_nothing(
    queue: WorkQueue, database: Database, folder: Path, clock: Clock
) -> None:
    queue.enqueue(item_text("order-one"))
    token = lease(queue, "order-one")
    failing = queue_over(database, _FilingThatFails(world_of(database, folder)), clock)
    before = state(database)

    with pytest.raises(StudioError):
        failing.ack("order-one", "advance", token)

    assert state(database) == before
    assert queue.read("order-one").status == "leased"
    assert queue.unsigned() == []
    assert queue.release("order-one", token, "filing failed").status == "queued"


# --- C14: parked items are not pullable ------------------------------------------------------


@pytest.mark.parametrize("exit", ["reroute-to-steward", "escalate"])
def test_c14_parked_items_are_not_pullable_until_a_person_requeues_them(
    queue: WorkQueue, database: Database, exit: str
) -> None:
    queue.enqueue(item_text("order-one"))
    queue.ack("order-one", exit, lease(queue, "order-one"))
    before = state(database)

    assert queue.pull("w2", DESIGNERS) is None
    assert state(database) == before
    queue.requeue("order-one", "a human's exit call", by="lead")
    assert lease(queue, "order-one", "w2") > 0


def test_c14_an_item_returned_to_intake_is_not_pullable(
    queue: WorkQueue, database: Database
) -> None:
    queue.enqueue(item_text("order-one"))
    queue.return_to_intake("order-one", "which checkout?", by="intake-desk")
    before = state(database)

    assert queue.pull("w1", DESIGNERS) is None
    assert state(database) == before


# --- C15: manifests --------------------------------------------------------------------------


def test_c15_publishing_is_version_bumped_and_hash_stamped(queue: WorkQueue) -> None:
    again = queue.publish_manifest(MANIFEST)  # the fixture published it: nothing changed
    second = queue.publish_manifest(manifest(wireframe="planned"))
    third = queue.publish_manifest(MANIFEST)

    assert (again.version, second.version, third.version) == (1, 2, 3)
    assert again.source_hash == third.source_hash == source_hash(MANIFEST)
    assert second.source_hash == source_hash(manifest(wireframe="planned"))
    latest = queue.manifest(CAPABILITY)
    assert latest is not None and latest.version == 3
    queue.publish_manifest(manifest(wireframe="planned"))
    latest = queue.manifest(CAPABILITY)
    assert latest is not None and latest.version == 4
    assert latest.offered()["wireframe"] == "planned"
    assert [published.capability for published in queue.manifests()] == [CAPABILITY]
    assert queue.stale(CAPABILITY, MANIFEST) is True
    assert queue.stale(CAPABILITY, manifest(wireframe="planned")) is False


def test_c15_workers_starting_together_publish_one_version(queue: WorkQueue) -> None:
    """Every worker of a capability publishes its manifest when it starts; they take turns,
    and a source already published is not published again."""
    changed = manifest(wireframe="planned")
    database = queue.repository.database
    failures: list[BaseException] = []

    def publish() -> None:
        try:
            WorkQueue(WorkQueueRepository(database), queue.world).publish_manifest(changed)
        except BaseException as failure:
            failures.append(failure)

    threads = [threading.Thread(target=publish) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert failures == []
    latest = queue.manifest(CAPABILITY)
    assert latest is not None and latest.version == 2


def test_c15_a_manifest_without_a_freshness_stamp_is_refused(
    queue: WorkQueue, database: Database, clock: Clock
) -> None:
    queue.enqueue(item_text("order-early"))
    with database.write() as connection:
        connection.execute(
            insert(capability_manifests).values(
                capability=CAPABILITY,
                version=2,
                source_hash=None,
                published_at=clock.now,
                text=MANIFEST,
            )
        )
    before = state(database)

    with pytest.raises(GateARefusedError) as refused:
        queue.enqueue(item_text("order-late"))

    assert [failure.rule for failure in refused.value.failures] == [2]
    assert "freshness stamp" in refused.value.failures[0].message
    assert state(database) == before
    assert queue.pull("w1", DESIGNERS) is None
    assert rules_named(defect_lines(queue.read("order-early"))[0]) == {2}


def test_c15_an_order_against_no_published_manifest_is_refused(queue: WorkQueue) -> None:
    with pytest.raises(GateARefusedError) as refused:
        queue.enqueue(item_text("order-one", capability="never-published"))

    assert [failure.rule for failure in refused.value.failures] == [2]


# --- C16: signing ----------------------------------------------------------------------------


def test_c16_sign_is_idempotent_and_signed_items_never_re_deliver(queue: WorkQueue) -> None:
    queue.enqueue(item_text("order-one"))
    queue.enqueue(item_text("order-two"))
    queue.enqueue(item_text("order-open"))
    queue.ack("order-one", "advance", lease(queue, "order-one"))
    queue.kill("order-two", "no longer wanted", by="intake-desk")

    assert [item.id for item in queue.unsigned()] == ["order-one", "order-two"]
    assert queue.sign("order-one", "file:///drop", "a" * 64) is True
    assert queue.sign("order-one", "file:///drop", "a" * 64) is False
    assert [item.id for item in queue.unsigned()] == ["order-two"]


# --- C17: people's actions fence the holder --------------------------------------------------


@pytest.mark.parametrize("action", ["kill", "return_to_intake"])
def test_c17_a_persons_action_fences_the_holder(
    queue: WorkQueue, database: Database, action: str
) -> None:
    queue.enqueue(item_text("order-one"))
    token = lease(queue, "order-one")

    getattr(queue, action)("order-one", "taken over", by="lead")

    before = state(database)
    for write in FENCED.values():
        with pytest.raises(StaleLeaseError):
            write(queue, token)
    assert state(database) == before
