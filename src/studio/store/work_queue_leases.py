"""Leasing the oldest item in a puller's scope, in a pull's own transaction or at the end of
an ack's (see ``WorkQueueRepository.settle``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection

from studio.model.work_items import WORK_LOG, WorkItem
from studio.store.hot_statements import Sent
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


@dataclass(frozen=True)
class SentLease:
    """A lease statement sent, and the request it was sent for."""

    request: LeaseRequest
    sent: Sent


def send_lease(connection: Connection, request: LeaseRequest) -> SentLease:
    """Lease the oldest item in scope that is queued or whose lease expired, inside the open
    write transaction: the statement is sent (queued, inside ``pipelined`` on PostgreSQL),
    and ``take_lease`` reads its row."""
    values = {
        "in_capability": request.capability,
        "at_now": request.now,
        "to_worker": request.worker,
        "until": request.expires_at,
    }
    named = sorted(request.types | {"menu"}) if request.types else []
    values.update((f"in_type_{index}", name) for index, name in enumerate(named))
    return SentLease(request, lease_statement(len(named)).send(connection, values))


def take_lease(connection: Connection, lease: SentLease) -> Callable[[], Leased] | None:
    """The leased row of ``send_lease`` (None: nothing was leasable): its work log entry and
    the read of its entries are sent, and the leased item is built by calling what is
    returned, which may wait until the transaction's COMMIT has gone with them (see
    ``Database.write_pipelined``)."""
    row = lease.sent.first()
    if row is None:
        return None
    text = lease.request.log(row.reclaimed_from, row.lease_token)
    insert_entries(connection, row.id, [(WORK_LOG, text)])
    entries = ENTRIES_OF.send(connection, {"item_id": row.id})

    def leased() -> Leased:
        item = item_of_row(row, entries_in(entries.rows()))
        return item, row.reclaimed_from, row.manifest_version

    return leased
