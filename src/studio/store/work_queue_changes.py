"""A work item's guarded changes in SQL: the change a queue decides on, and applying it with
its entries and the filing of a closed item, inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from studio.model.errors import NotFoundError
from studio.model.work_items import LEASED, WorkItem
from studio.store.hot_statements import HotStatement, pipelined
from studio.store.knowledge import Landing, send_landing_facts, store_landings
from studio.store.work_queue_leases import Leased, LeaseRequest, send_lease, take_lease
from studio.store.work_queue_rows import (
    ENTRIES_OF,
    Entry,
    change_statement,
    entries_in,
    insert_entries,
    item_of_row,
)


@dataclass(frozen=True)
class Change:
    """A status change, guarded: it happens only if the item is in one of ``from_statuses``
    and, when ``token`` is given, the lease carries that token."""

    to_status: str
    from_statuses: frozenset[str]
    token: int | None = None
    entries: Sequence[Entry] = ()
    context_bounces: int | None = None
    build_rounds: int | None = None
    landing: Landing | None = None


Decision = Callable[[WorkItem, str | None], Change]
"""What ``settle`` asks: given the item as stored and the ref of its filed record (None: not
filed), the change to make; it raises to refuse."""
Settled = tuple[WorkItem, Change]
"""The item as it was before a settled change, and the change made."""


class GuardFailed(Exception):
    """A guarded change whose guard did not hold: its transaction rolls back."""


def item_of(item_id: str, row: Any, entries: list[Any]) -> WorkItem:
    if row is None:
        raise NotFoundError(f"no work item '{item_id}' on the queue")
    return item_of_row(row, entries_in(entries))


def item_in(connection: Connection, item_id: str, statement: HotStatement) -> WorkItem:
    with pipelined(connection):
        found = statement.send(connection, {"item_id": item_id})
        entries = ENTRIES_OF.send(connection, {"item_id": item_id})
        return item_of(item_id, found.first(), entries.rows())


def apply_change(
    connection: Connection,
    item_id: str,
    change: Change,
    now: datetime,
    then: LeaseRequest | None = None,
) -> Callable[[], Leased] | None:
    """The guarded update, its entries, the facts of its landing and, with ``then``, the
    lease of the next item in that scope go to the server together; the landing is stored
    once the guard held. Raises GuardFailed, to roll back, if not. Returns what builds the
    leased item (see ``take_lease``), or None when nothing was asked for or leasable."""
    values = {
        "the_id": item_id,
        "to_status": change.to_status,
        "at_now": now,
        "keep_lease": change.to_status in LEASED,
        "bump": 1 if change.token is None else 0,  # a person's change fences the holder
        "bounces": change.context_bounces,
        "rounds": change.build_rounds,
        "filed": None if change.landing is None else change.landing[0].ref,
    }
    if change.token is not None:
        values["the_token"] = change.token
    statement = change_statement(change.token is not None, change.from_statuses)
    landings = [] if change.landing is None else [change.landing]
    with pipelined(connection):
        updated = statement.send(connection, values)
        insert_entries(connection, item_id, change.entries)
        facts = send_landing_facts(connection, [version for version, _, _ in landings])
        lease = None if then is None else send_lease(connection, then)  # after the change
        if len(updated.rows()) != 1:
            raise GuardFailed(item_id)
    # Outside this block, so that a landing's clash is raised as store_landings raises it
    # (inside a caller's pipeline it surfaces at the COMMIT: see WorkQueueRepository.settle).
    if landings:
        store_landings(connection, landings, facts())
    return None if lease is None else take_lease(connection, lease)
