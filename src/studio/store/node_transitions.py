"""Node transitions: a guarded update of one node's row and the event that describes it, in
the caller's write transaction, so several transitions can share one commit.

A transition changes the row only if the node's current status may be followed by the new
one (see ``NODE_TRANSITIONS``); a refused transition writes nothing and appends no event.
Within one batch, a transition may also require others before it (``requires``): it is
refused with them (see ``apply_node_transitions``).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, Update, bindparam, literal_column, update
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect

from studio.model.execution import NODE_TERMINAL, NODE_TRANSITIONS, RUNNING, ExecutionEvent
from studio.store.driver_statements import DriverStatement, compile_for_driver
from studio.store.event_log import append_event
from studio.store.schema import node_results


@dataclass(frozen=True)
class NodeTransition:
    """One node moving to ``status``, announced by an event of ``event_type``.

    ``fields`` may set input, output, error, retry_count, started_at, completed_at and
    next_retry_at. ``requires``: nodes whose transitions, earlier in the same batch, this one
    follows from (the completions that made a node ready, for its reservation)."""

    node_id: str
    status: str
    event_type: str
    payload: dict[str, Any]
    fields: Mapping[str, Any] = field(default_factory=dict)
    requires: tuple[str, ...] = ()


def apply_node_transitions(
    connection: Connection,
    execution_id: str,
    transitions: Sequence[NodeTransition],
    now: datetime,
) -> list[ExecutionEvent | None]:
    """Write the transitions in order in the connection's transaction; for each, its event,
    or None when its guard refused it or when it requires a node whose transition earlier in
    the batch was refused."""
    refused: set[str] = set()
    events: list[ExecutionEvent | None] = []
    for transition in transitions:
        if refused.intersection(transition.requires):
            event = None
        else:
            event = apply_node_transition(connection, execution_id, transition, now)
        if event is None:
            refused.add(transition.node_id)
        events.append(event)
    return events


def apply_node_transition(
    connection: Connection, execution_id: str, transition: NodeTransition, now: datetime
) -> ExecutionEvent | None:
    """Write the transition in the connection's transaction; None when its guard refuses."""
    status, fields = transition.status, transition.fields
    values = {"status": status, **fields}
    if status == RUNNING and "started_at" not in fields:
        values["started_at"] = now
    if status in NODE_TERMINAL and "completed_at" not in fields:
        values["completed_at"] = now
    columns = tuple(sorted(values))
    params = {**values, "where_execution_id": execution_id, "where_node_id": transition.node_id}
    if connection.dialect.name == "sqlite":
        changed = _sqlite_node_update(status, columns).execute(connection, params).rowcount
    else:
        changed = connection.execute(_node_update(status, columns), params).rowcount
    if changed != 1:
        return None
    return append_event(
        connection, execution_id, transition.event_type, transition.node_id, transition.payload, now
    )


_SQLITE = sqlite_dialect()


@lru_cache(maxsize=128)
def _sqlite_node_update(status: str, columns: tuple[str, ...]) -> DriverStatement:
    """The node update compiled for the SQLite driver."""
    return compile_for_driver(_node_update(status, columns), _SQLITE)


@lru_cache(maxsize=128)
def _node_update(status: str, columns: tuple[str, ...]) -> Update:
    """UPDATE of one node's columns, only from the statuses ``status`` may follow."""
    return (
        update(node_results)
        .where(
            node_results.c.execution_id == bindparam("where_execution_id"),
            node_results.c.node_id == bindparam("where_node_id"),
            # Constant statuses inline, so the statement needs no per-call IN expansion.
            node_results.c.status.in_(
                [literal_column(f"'{source}'") for source in sorted(NODE_TRANSITIONS[status])]
            ),
        )
        .values({column: bindparam(column) for column in columns})
    )
