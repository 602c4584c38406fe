"""The ordered event log of an execution: sequence numbers from 1 without gaps."""

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, func, insert, select
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect

from studio.model.execution import ExecutionEvent
from studio.store.driver_statements import compile_for_driver
from studio.store.schema import execution_events, executions


def append_event(
    connection: Connection,
    execution_id: str,
    event_type: str,
    node_id: str | None,
    payload: dict[str, Any],
    now: datetime,
) -> ExecutionEvent:
    """Append an event numbered one past the last; the write lock keeps the numbers gapless."""
    params = {
        "execution_id": execution_id,
        "type": event_type,
        "node_id": node_id,
        "payload": payload,
        "created_at": now,
    }
    if connection.dialect.name == "sqlite":
        # SQLite's write lock already keeps the numbers gapless.
        seq = _SQLITE_INSERT_EVENT.execute(connection, params).fetchone()[0]
    else:
        connection.execute(_LOCK_EXECUTION, {"where_id": execution_id})
        seq = connection.execute(_INSERT_EVENT, params).scalar_one()
    return ExecutionEvent(execution_id, seq, event_type, node_id, payload, now)


# The hot path reuses statements built once, so SQLAlchemy compiles each only once.
_events = execution_events.c
_LOCK_EXECUTION = (
    select(executions.c.id).where(executions.c.id == bindparam("where_id")).with_for_update()
)
_INSERT_EVENT = (
    insert(execution_events)
    .from_select(
        ["execution_id", "seq", "type", "node_id", "payload", "created_at"],
        select(
            bindparam("execution_id", type_=_events.execution_id.type),
            func.coalesce(func.max(_events.seq), 0) + 1,
            bindparam("type", type_=_events.type.type),
            bindparam("node_id", type_=_events.node_id.type),
            bindparam("payload", type_=_events.payload.type),
            bindparam("created_at", type_=_events.created_at.type),
        ).where(_events.execution_id == bindparam("execution_id")),
    )
    .returning(_events.seq)
)


_SQLITE_INSERT_EVENT = compile_for_driver(_INSERT_EVENT, sqlite_dialect())
