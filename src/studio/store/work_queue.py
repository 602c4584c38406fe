"""The work queue in SQL: items, leases with fencing tokens, append-only entries, manifests and
close-out signatures. The rules (Gate A, exits, budgets) live in ``studio.fabric.queue``.

A pull leases in one statement: an UPDATE whose WHERE picks the oldest item in the puller's
scope that is queued or whose lease has expired. SQLite runs it inside an immediate
transaction, which writers take one at a time; PostgreSQL picks the row ``FOR UPDATE SKIP
LOCKED``, so pullers never wait on each other's rows. Every change a lease holder makes names
its token and touches nothing when the token is not the current one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    and_,
    exists,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from studio.model.errors import ConflictError
from studio.model.work_items import (
    LEASED,
    TERMINAL,
    Lease,
    WorkItem,
)
from studio.store.database import Database
from studio.store.knowledge import (
    check_landing,
    landing_clash,
)
from studio.store.turns import CAPABILITY_MANIFESTS, share_turn, take_turn
from studio.store.work_queue_changes import (
    Change,
    Decision,
    GuardFailed,
    Settled,
    apply_change,
    item_in,
    item_of,
)
from studio.store.work_queue_leases import Leased, LeaseRequest, send_lease, take_lease
from studio.store.work_queue_rows import (
    ADD_ITEM,
    ENQUEUE_FACTS,
    ENTRIES_OF,
    ITEM_BY_ID,
    ITEM_FOR_UPDATE,
    LATEST_MANIFEST,
    SEQ_BY_ID,
    Entry,
    entries_of,
    holds,
    insert_entries,
    item_of_row,
    item_values,
    lease_of_row,
)
from studio.store.work_queue_schema import (
    capability_manifests,
    closeout_signatures,
    work_items,
)


class DuplicateItemError(ConflictError):
    """An item id that is on the queue already."""


@dataclass(frozen=True)
class StoredManifest:
    """One published manifest row."""

    capability: str
    version: int
    source_hash: str | None
    published_at: datetime
    text: str


class WorkQueueRepository:
    """Items on the queue and what the queue records about them."""

    def __init__(self, database: Database) -> None:
        self.database = database

    # --- items -------------------------------------------------------------------------

    def exists(self, item_id: str) -> bool:
        with self.database.read() as connection:
            return SEQ_BY_ID.first(connection, {"item_id": item_id}) is not None

    def insert(
        self, item: WorkItem, entries: Iterable[Entry], now: datetime, manifest_version: int | None
    ) -> bool:
        """Put a new item on the queue with its first entries, while ``manifest_version`` is
        still the latest version of its capability's manifest (the one its Gate A read; None:
        none published). DuplicateItemError if its id is taken; False, with nothing written,
        if another manifest has been published since."""
        duplicate = DuplicateItemError(f"an item with id '{item.id}' is on the queue")
        try:
            with self.database.write_pipelined() as connection:
                share_turn(connection, CAPABILITY_MANIFESTS)  # no publishing till COMMIT
                facts = {"item_id": item.id, "capability": item.capability}
                (found,) = ENQUEUE_FACTS.rows(connection, facts)
                if found.taken is not None:
                    raise duplicate
                if found.version != manifest_version:
                    return False
                ADD_ITEM.many(connection, [item_values(item, now)])
                insert_entries(connection, item.id, entries)
        except IntegrityError as taken:  # by another enqueue at the same moment
            raise duplicate from taken
        return True

    def lease_next(self, request: LeaseRequest) -> Leased | None:
        """Lease the oldest item in scope that is queued or whose lease expired (see
        ``send_lease``), in a transaction of its own."""
        with self.database.write_pipelined() as connection:
            taken = take_lease(connection, send_lease(connection, request))
        return None if taken is None else taken()

    def enqueue_facts(self, item_id: str, capability: str) -> tuple[bool, int | None]:
        """In one read: whether the id is taken, and the capability's latest manifest version."""
        with self.database.read_pipelined() as connection:
            sent = ENQUEUE_FACTS.send(connection, {"item_id": item_id, "capability": capability})
        (facts,) = sent.rows()  # scalar subqueries: always one row
        return facts.taken is not None, facts.version

    def item(self, item_id: str) -> WorkItem:
        """The item with every entry; NotFoundError if there is none."""
        with self.database.read() as connection:
            return item_in(connection, item_id, ITEM_BY_ID)

    def items(self, status: str | None = None, capability: str | None = None) -> list[WorkItem]:
        """Items oldest first, without their entries (a board shows the envelope only)."""
        query = select(work_items).order_by(work_items.c.seq)
        if status is not None:
            query = query.where(work_items.c.status == status)
        if capability is not None:
            query = query.where(work_items.c.capability == capability)
        with self.database.read() as connection:
            return [item_of_row(row, []) for row in connection.execute(query)]

    def counts(self) -> dict[str, int]:
        """How many items are in each status."""
        query = select(work_items.c.status, func.count()).group_by(work_items.c.status)
        with self.database.read() as connection:
            return {status: count for status, count in connection.execute(query)}

    def leases(self) -> list[tuple[str, Lease]]:
        """Every lease held now: item id and lease, soonest to expire first."""
        query = (
            select(work_items)
            .where(work_items.c.status.in_(LEASED))
            .order_by(work_items.c.lease_expires_at)
        )
        with self.database.read() as connection:
            found = ((row.id, lease_of_row(row)) for row in connection.execute(query))
            return [(item_id, lease) for item_id, lease in found if lease is not None]

    # --- guarded changes -----------------------------------------------------------------

    def renew(self, item_id: str, token: int, expires_at: datetime, now: datetime) -> bool:
        """Move a lease's expiry; False if ``token`` is not the item's current lease."""
        statement = (
            update(work_items)
            .where(holds(item_id, token))
            .values(lease_expires_at=expires_at, updated_at=now)
        )
        with self.database.write() as connection:
            return connection.execute(statement).rowcount == 1

    def count_round(self, item_id: str, token: int, now: datetime) -> int | None:
        """Count one more build round on a held item; its rounds so far, or None when the
        token is not the current lease's."""
        statement = (
            update(work_items)
            .where(holds(item_id, token))
            .values(build_rounds=work_items.c.build_rounds + 1, updated_at=now)
            .returning(work_items.c.build_rounds)
        )
        with self.database.write() as connection:
            return connection.execute(statement).scalar()

    def change(self, item_id: str, change: Change, now: datetime) -> bool:
        """Apply a guarded change with its entries (and the filing of a closed item) in one
        transaction; False, with nothing written, when the guard does not hold."""
        if change.landing is not None:
            check_landing(*change.landing)
        try:
            with self.database.write() as connection:
                apply_change(connection, item_id, change, now)
        except GuardFailed:
            return False
        return True

    def settle(
        self, item_id: str, decide: Decision, now: datetime, then: LeaseRequest | None = None
    ) -> tuple[Settled, Leased | None]:
        """Read an item and the ref its subject files it under now, let ``decide`` say what
        changes, and apply that guarded change: one write transaction, the item's row locked
        from the read to the commit, so the change ``decide`` makes from what it read holds
        (one that does not is refused with ConflictError). Whatever ``decide`` raises leaves
        everything as it was, as does a landing that meets another one's unique keys at the
        same moment (KnowledgeConflictError). With ``then``, the same transaction ends by
        leasing the next item in that scope (a worker's ack and its next pull, one commit);
        the lease, if any, is returned beside the settled item.

        ``decide`` runs inside the write transaction (on SQLite, holding the write lock): it
        may read the database, never write it."""
        change = None
        try:
            with self.database.write_pipelined() as connection:
                found = ITEM_FOR_UPDATE.send(connection, {"item_id": item_id})
                entries = ENTRIES_OF.send(connection, {"item_id": item_id})
                row = found.first()
                item = item_of(item_id, row, entries.rows())  # NotFoundError without a row
                assert row is not None
                change = decide(item, row.filed_head)
                if change.landing is not None:
                    check_landing(*change.landing)
                taken = apply_change(connection, item_id, change, now, then)
            return (item, change), None if taken is None else taken()
        except GuardFailed as refused:
            raise ConflictError(f"{item_id} is not in a state its change can follow") from refused
        except IntegrityError as clash:  # pipelined: it surfaces as the statements are sent
            if self.database.is_sqlite or change is None or change.landing is None:
                raise
            raise landing_clash([change.landing[0]]) from clash

    def append(self, item_id: str, entries: Sequence[Entry], token: int | None) -> bool:
        """Add entries; with a token only while that lease is current, without one only while
        nobody holds the item. False, with nothing written, otherwise."""
        if token is not None:
            guard = holds(item_id, token)
        else:  # nobody holds it, and it is still open: a filed record no longer grows
            held_or_closed = sorted(LEASED | TERMINAL)
            guard = and_(work_items.c.id == item_id, work_items.c.status.not_in(held_or_closed))
        with self.database.write() as connection:
            held = connection.execute(select(work_items.c.seq).where(guard).with_for_update())
            if held.first() is None:
                return False
            insert_entries(connection, item_id, entries)
            return True

    def add_approval(self, item_id: str, approval: dict[str, Any], entry: Entry) -> bool:
        """Add a recorded approval to an open item (approvals only grow); False if the item
        is closed or not there."""
        with self.database.write() as connection:
            row = connection.execute(
                select(work_items.c.approvals)
                .where(work_items.c.id == item_id, work_items.c.status.not_in(TERMINAL))
                .with_for_update()
            ).first()
            if row is None:
                return False
            approvals = [*row.approvals, approval]
            connection.execute(
                update(work_items).where(work_items.c.id == item_id).values(approvals=approvals)
            )
            insert_entries(connection, item_id, [entry])
            return True

    # --- manifests and signatures --------------------------------------------------------

    def publish(self, capability: str, source_hash: str, text: str, now: datetime) -> int:
        """Store the next version of a capability's manifest; returns its version. A source
        whose hash the latest version has already is not stored again (workers starting
        together all publish what they find)."""
        table = capability_manifests
        with self.database.write() as connection:
            take_turn(connection, CAPABILITY_MANIFESTS)
            latest = connection.execute(
                select(table.c.version, table.c.source_hash)
                .where(table.c.capability == capability)
                .order_by(table.c.version.desc())
                .limit(1)
            ).first()
            if latest is not None and latest.source_hash == source_hash:
                return int(latest.version)
            version = int(latest.version if latest else 0) + 1
            connection.execute(
                insert(table).values(
                    capability=capability,
                    version=version,
                    source_hash=source_hash,
                    published_at=now,
                    text=text,
                )
            )
            return version

    def manifests(self, capability: str | None = None) -> list[StoredManifest]:
        """The latest published version of each capability's manifest (or of one)."""
        table = capability_manifests
        latest = (
            select(table.c.capability, func.max(table.c.version).label("version"))
            .group_by(table.c.capability)
            .subquery()
        )
        query = select(table).join(
            latest,
            and_(table.c.capability == latest.c.capability, table.c.version == latest.c.version),
        )
        if capability is not None:
            query = query.where(table.c.capability == capability)
        with self.database.read() as connection:
            rows = connection.execute(query.order_by(table.c.capability))
            return [StoredManifest(*row) for row in rows]

    def manifest_version(self, capability: str) -> int | None:
        """The latest published version of a capability's manifest, or None."""
        with self.database.read() as connection:
            return LATEST_MANIFEST.scalar(connection, {"capability": capability})

    def unsigned(self) -> list[WorkItem]:
        """Filed terminal items without a close-out signature, oldest first, with entries."""
        signed = exists().where(closeout_signatures.c.item_id == work_items.c.id)
        query = (
            select(work_items)
            .where(work_items.c.status.in_(TERMINAL), work_items.c.filed_ref.is_not(None))
            .where(~signed)
            .order_by(work_items.c.seq)
        )
        with self.database.read() as connection:
            rows = list(connection.execute(query))
            return [item_of_row(row, entries_of(connection, row.id)) for row in rows]

    def sign(self, item_id: str, channel: str, digest: str, now: datetime) -> bool:
        """Record the close-out signature; False if the item was signed already."""
        values = {"item_id": item_id, "signed_at": now, "channel": channel, "digest": digest}
        try:
            with self.database.write() as connection:
                connection.execute(insert(closeout_signatures).values(**values))
        except IntegrityError:
            return False
        return True

    def signature(self, item_id: str) -> tuple[datetime, str, str] | None:
        """When, where to and what digest an item was delivered with, if it was."""
        table = closeout_signatures
        query = select(table.c.signed_at, table.c.channel, table.c.digest)
        with self.database.read() as connection:
            row = connection.execute(query.where(table.c.item_id == item_id)).first()
            return None if row is None else (row[0], row[1], row[2])
