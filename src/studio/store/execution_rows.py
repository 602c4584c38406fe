"""Execution rows and records: the readers that turn rows into records, and the node rows an
execution starts with (pending, or taken over from an earlier execution)."""

from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from studio.model.execution import (
    COMPLETED,
    PENDING,
    ExecutionEvent,
    ExecutionRecord,
    NodeResult,
    item_count,
)
from studio.store.event_log import append_event
from studio.store.row_records import RecordReader

execution_record = RecordReader(ExecutionRecord, execution_id="id")
"""An execution row as a record, without node results."""
node_result = RecordReader(NodeResult)
"""A node_results row as a record."""
execution_event = RecordReader(ExecutionEvent)
"""An execution_events row as an event."""

_TAKEN_OVER = ("status", "retry_count", "input", "output", "started_at", "completed_at")
"""What a node row takes from an earlier execution's result of the same node."""


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
