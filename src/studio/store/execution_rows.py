"""Execution rows and records: the readers that turn rows into records, and the node rows an
execution starts with (pending, or taken over from an earlier execution)."""

import json
from dataclasses import fields
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select

from studio.model.execution import (
    COMPLETED,
    PENDING,
    ExecutionEvent,
    ExecutionRecord,
    NodeResult,
    item_count,
)
from studio.store.event_log import append_event
from studio.store.hot_statements import HotStatement
from studio.store.row_records import RecordReader
from studio.store.schema import node_results

execution_record = RecordReader(ExecutionRecord, execution_id="id")
"""An execution row as a record, without node results."""
node_result = RecordReader(NodeResult)
"""A node_results row as a record."""

_NODE_RESULT_COLUMNS = tuple(node_results.c[f.name] for f in fields(NodeResult) if f.init)
"""The node_results columns of a NodeResult's fields, in their order."""


_NODE_RESULTS = HotStatement(
    select(*_NODE_RESULT_COLUMNS)
    .where(node_results.c.execution_id == bindparam("execution_id"))
    .order_by(node_results.c.position)
)
"""The execution's node rows in workflow order, each as a NodeResult's fields in order: a
run reads its thousand rows at its start and its end."""


def node_results_of(connection: Connection, execution_id: str) -> list[NodeResult]:
    """The execution's node results in workflow order."""
    return [
        NodeResult(*row) for row in _NODE_RESULTS.rows(connection, {"execution_id": execution_id})
    ]


execution_event = RecordReader(ExecutionEvent)
"""An execution_events row as an event."""

_TAKEN_OVER = ("status", "retry_count", "input", "output", "started_at", "completed_at")
"""What a node row takes from an earlier execution's result of the same node."""

_INSERT_NODE_ROWS = HotStatement(
    insert(node_results).values(
        {name: bindparam(name) for name in ("execution_id", "node_id", "position", *_TAKEN_OVER)}
    )
)


def insert_node_rows(connection: Connection, rows: list[dict[str, Any]]) -> None:
    """Insert ``initial_row``s, together: an execution's rows as it is created."""
    _INSERT_NODE_ROWS.many(connection, rows)


def initial_row(
    execution_id: str, position: int, node_id: str, reused: NodeResult | None
) -> dict[str, Any]:
    """A node's row as its execution is created: pending, or as an earlier run left it."""
    row = {
        "execution_id": execution_id,
        "node_id": node_id,
        "position": position,
        "status": PENDING,
        "retry_count": 0,
        "input": None,
        "output": None,
        "started_at": None,
        "completed_at": None,
    }
    if reused is not None:
        row.update({name: getattr(reused, name) for name in _TAKEN_OVER})
    return row


def created_record(
    execution_row: dict[str, Any], node_rows: list[dict[str, Any]]
) -> ExecutionRecord:
    """The record of an execution just inserted, from the rows it was inserted with (their
    JSON values copied as a read would return them), without reading it back."""
    results = {row["node_id"]: node_result(_as_read(row)) for row in node_rows}
    return execution_record(_as_read(execution_row), node_results=results)


def _as_read(row: dict[str, Any]) -> dict[str, Any]:
    """The row with each JSON value copied through JSON, as the store would return it."""
    return {
        name: _json_copy(value) if name in _JSON_COLUMNS else value for name, value in row.items()
    }


def _json_copy(value: Any) -> Any:
    return None if value is None else json.loads(json.dumps(value))


_JSON_COLUMNS = frozenset({"input", "output", "error", "agent_versions"})


def announce_reused(
    connection: Connection,
    execution_id: str,
    result: NodeResult,
    origin: dict[str, Any] | None,
    now: datetime,
) -> None:
    """Log a result taken over from an earlier execution: reused if it completed there,
    skipped otherwise."""
    source = (origin or {}).get("rerunOf")
    if result.status == COMPLETED:
        payload = {
            "fromExecution": source,
            "items": item_count(result.output),
            "attempts": result.retry_count + 1,
        }
        append_event(connection, execution_id, "node.reused", result.node_id, payload, now)
    else:
        payload = {"reason": f"skipped in execution {source}", "fromExecution": source}
        append_event(connection, execution_id, "node.skipped", result.node_id, payload, now)
