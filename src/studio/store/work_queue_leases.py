"""Leasing the oldest item in a puller's scope, in a pull's own transaction or at the end of
an ack's (see ``WorkQueueRepository.settle``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection

from studio.model.work_items import WORK_LOG, WorkItem
from studio.store.work_queue_rows import (
    ENTRIES_OF,
    entries_in,
    insert_entries,
    item_of_row,
    lease_statement,
)

Leased = tuple[WorkItem, str | None, int | None]
"""A leased item, the worker whose expired lease it took (if any), and the latest version
of its capability's manifest, read in the same transaction (for Gate A at pull)."""


@dataclass(frozen=True)
class LeaseRequest:
    """Who leases, in which scope (a capability, and the artifact types it builds: none named,
    every type), when, for how long, and the work log entry the lease writes, given whose
    expired lease was reclaimed and the new lease's token."""

    worker: str
    capability: str
    types: frozenset[str]
    now: datetime
    expires_at: datetime
    log: Callable[[str | None, int], str]


def lease_in(connection: Connection, request: LeaseRequest) -> Leased | None:
    """Lease the oldest item in scope that is queued or whose lease expired, inside the open
    write transaction; None when there is none."""
    values = {
        "in_capability": request.capability,
        "at_now": request.now,
        "to_worker": request.worker,
        "until": request.expires_at,
    }
    named = sorted(request.types | {"menu"}) if request.types else []
    values.update((f"in_type_{index}", name) for index, name in enumerate(named))
    row = lease_statement(len(named)).first(connection, values)
    if row is None:
        return None
    text = request.log(row.reclaimed_from, row.lease_token)
    insert_entries(connection, row.id, [(WORK_LOG, text)])
    entries = ENTRIES_OF.rows(connection, {"item_id": row.id})
    return item_of_row(row, entries_in(entries)), row.reclaimed_from, row.manifest_version
