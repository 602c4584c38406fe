"""The work queue's rows and the statements it runs often: each statement is built once (building
one costs several times what SQLite takes to run it), and rows become ``WorkItem``s here.

A pull is one statement (``lease_statement``); every guarded change is one
(``change_statement``: a person's, or a lease holder's naming its token). The ones a pull, an
ack and an enqueue run are HotStatements: on SQLite they go straight to the driver.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    BindParameter,
    Boolean,
    Connection,
    Integer,
    String,
    and_,
    bindparam,
    case,
    func,
    insert,
    literal_column,
    select,
    update,
)

from studio.model.work_items import (
    ARTIFACTS,
    LEASED,
    SNAPSHOT,
    WORK_LOG,
    Lease,
    WorkItem,
    approvals_of,
    source_of,
)
from studio.store.hot_statements import HotStatement, RowsInsert
from studio.store.knowledge_schema import artifact_versions
from studio.store.schema import UtcTimestamp
from studio.store.work_queue_schema import (
    capability_manifests,
    work_item_entries,
    work_items,
)

Entry = tuple[str, str]
"""A section name and the text added to it."""


ITEM_COLUMNS = (
    "id", "artifact", "capability", "subject", "status", "requested_by", "created_at",
    "updated_at", "order_text", "context", "approvals", "extra", "context_bounces",
    "build_rounds",
)  # fmt: skip
"""The columns a new item is inserted with (``item_values``); the rest start empty."""

_by_id = work_items.c.id == bindparam("item_id")
_seq_by_id = select(work_items.c.seq).where(_by_id)
_latest_manifest = select(func.max(capability_manifests.c.version)).where(
    capability_manifests.c.capability == bindparam("capability")
)
ITEM_BY_ID = HotStatement(select(work_items).where(_by_id))
SEQ_BY_ID = HotStatement(_seq_by_id)
ENTRIES_OF = HotStatement(
    select(work_item_entries.c.section, work_item_entries.c.text)
    .where(work_item_entries.c.item_id == bindparam("item_id"))
    .order_by(work_item_entries.c.seq)
)
ADD_ENTRIES = RowsInsert(work_item_entries, ("item_id", "section", "text"))
ADD_ITEM = HotStatement(insert(work_items).values({name: bindparam(name) for name in ITEM_COLUMNS}))
_filed_head = (
    select(artifact_versions.c.ref)
    .where(
        artifact_versions.c.subject == work_items.c.subject,
        artifact_versions.c.artifact_id == work_items.c.id,
    )
    .order_by(artifact_versions.c.seq.desc())
    .limit(1)
    .correlate(work_items)
    .scalar_subquery()
)
ITEM_FOR_UPDATE = HotStatement(
    select(*work_items.c, _filed_head.label("filed_head")).where(_by_id).with_for_update()
)
"""An item, locked until the transaction ends (PostgreSQL), with the ref of the newest
knowledge version filed under its subject and id (None: not filed)."""
LATEST_MANIFEST = HotStatement(_latest_manifest)
_manifest_of_item = (
    select(func.max(capability_manifests.c.version))
    # Named in full: SQLite's RETURNING is written with bare column names, and a bare
    # ``capability`` in the subquery would be the manifest's own.
    .where(capability_manifests.c.capability == literal_column("work_items.capability"))
    .scalar_subquery()
)
"""In a statement that changes an item: the latest version of its capability's manifest."""


ENQUEUE_FACTS = HotStatement(
    select(
        _seq_by_id.scalar_subquery().label("taken"),
        _latest_manifest.scalar_subquery().label("version"),
    )
)
"""At enqueue: the seq of an item with the id (None: free) and the capability's latest
manifest version, in one statement."""


def _constants(values: Iterable[str]) -> list[Any]:
    """Statuses written into the SQL, so the statement needs no IN list bound per call."""
    return [literal_column(f"'{value}'") for value in sorted(values)]


@lru_cache(maxsize=16)
def lease_statement(types: int) -> HotStatement:
    """The one statement a pull is: lease the oldest item in scope whose lease expired, else
    the oldest queued one. Each is found by its own probe of the (capability, status, seq)
    index, so a pull costs the same however many items the queue has closed; each probe
    skips rows other pullers hold locked (PostgreSQL), and the second runs only when the
    first finds nothing. ``types``: how many artifact types the scope names (0: every
    type), bound as ``in_type_0`` …"""
    in_scope = work_items.c.capability == bindparam("in_capability")
    if types:
        named: list[BindParameter[str]] = [bindparam(f"in_type_{index}") for index in range(types)]
        in_scope = and_(in_scope, work_items.c.artifact.in_(named))
    expired = select(work_items.c.seq).where(
        in_scope,
        work_items.c.status.in_(_constants(LEASED)),
        work_items.c.lease_expires_at <= bindparam("at_now", type_=UtcTimestamp),
    )
    queued = select(work_items.c.seq).where(in_scope, work_items.c.status == "queued")
    first = [
        query.order_by(work_items.c.seq).limit(1).with_for_update(skip_locked=True)
        for query in (expired, queued)
    ]
    chosen = func.coalesce(*(query.scalar_subquery() for query in first))
    return HotStatement(
        update(work_items)
        .where(work_items.c.seq == chosen)
        .values(
            reclaimed_from=case(
                (work_items.c.status == "queued", None), else_=work_items.c.lease_worker
            ),
            status="leased",
            lease_worker=bindparam("to_worker"),
            lease_token=work_items.c.lease_token + 1,
            lease_expires_at=bindparam("until", type_=UtcTimestamp),
            updated_at=bindparam("at_now", type_=UtcTimestamp),
        )
        .returning(*work_items.c, _manifest_of_item.label("manifest_version"))
    )


@lru_cache(maxsize=32)
def change_statement(held: bool, from_statuses: frozenset[str]) -> HotStatement:
    """A guarded status change: only from the statuses named, and (``held``) only under the
    lease with the token named. Unset counters and ref keep what is stored."""
    guard = and_(
        work_items.c.id == bindparam("the_id"),
        work_items.c.status.in_(_constants(from_statuses)),
    )
    if held:
        guard = and_(guard, work_items.c.lease_token == bindparam("the_token", type_=Integer))
    keep = bindparam("keep_lease", type_=Boolean)
    return HotStatement(
        update(work_items)
        .where(guard)
        .values(
            status=bindparam("to_status"),
            updated_at=bindparam("at_now", type_=UtcTimestamp),
            lease_worker=case((keep, work_items.c.lease_worker), else_=None),
            lease_expires_at=case((keep, work_items.c.lease_expires_at), else_=None),
            lease_token=work_items.c.lease_token + bindparam("bump", type_=Integer),
            context_bounces=func.coalesce(
                bindparam("bounces", type_=Integer), work_items.c.context_bounces
            ),
            build_rounds=func.coalesce(
                bindparam("rounds", type_=Integer), work_items.c.build_rounds
            ),
            filed_ref=func.coalesce(bindparam("filed", type_=String), work_items.c.filed_ref),
        )
        .returning(work_items.c.seq)  # one row when the guard held
    )


def holds(item_id: str, token: int) -> Any:
    return and_(
        work_items.c.id == item_id,
        work_items.c.lease_token == token,
        work_items.c.status.in_(LEASED),
    )


def item_values(item: WorkItem, now: datetime) -> dict[str, Any]:
    return {
        "id": item.id,
        "artifact": item.artifact,
        "capability": item.capability,
        "subject": item.subject,
        "status": item.status,
        "requested_by": item.requested_by,
        "created_at": item.created_at,
        "updated_at": now,
        "order_text": item.order,
        "context": [source.as_dict() for source in item.context],
        "approvals": item.recorded_approvals(),
        "extra": item.extra,
        "context_bounces": item.context_bounces,
        "build_rounds": item.build_rounds,
    }


def insert_entries(connection: Connection, item_id: str, entries: Iterable[Entry]) -> None:
    rows = [{"item_id": item_id, "section": section, "text": text} for section, text in entries]
    ADD_ENTRIES.send(connection, rows)


def entries_of(connection: Connection, item_id: str) -> list[Entry]:
    return entries_in(ENTRIES_OF.rows(connection, {"item_id": item_id}))


def entries_in(rows: Iterable[Any]) -> list[Entry]:
    return [(section, text) for section, text in rows]


def lease_of_row(row: Any) -> Lease | None:
    if row.status not in LEASED or row.lease_worker is None or row.lease_expires_at is None:
        return None
    return Lease(row.lease_worker, row.lease_token, row.lease_expires_at)


def item_of_row(row: Any, entries: list[Entry]) -> WorkItem:
    def section(name: str) -> tuple[str, ...]:
        return tuple(text for kind, text in entries if kind == name)

    return WorkItem(
        id=row.id,
        artifact=row.artifact,
        capability=row.capability,
        subject=row.subject,
        requested_by=row.requested_by,
        created_at=row.created_at,
        order=row.order_text,
        status=row.status,
        lease=lease_of_row(row),
        context=tuple(source_of(entry) for entry in row.context),
        approvals=tuple(approvals_of(row.approvals)),
        approval_entries=tuple(row.approvals or ()),
        context_bounces=row.context_bounces,
        build_rounds=row.build_rounds,
        snapshot=section(SNAPSHOT),
        work_log=section(WORK_LOG),
        artifacts=section(ARTIFACTS),
        extra=dict(row.extra or {}),
        updated_at=row.updated_at,
    )
