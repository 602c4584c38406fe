"""Execution records: the state machines of a run and of each node, and what is kept of them."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

PENDING, RUNNING, COMPLETED, FAILED, CANCELLED = (
    "pending",
    "running",
    "completed",
    "failed",
    "cancelled",
)
RETRYING, SKIPPED = "retrying", "skipped"

EXECUTION_STATUSES = (PENDING, RUNNING, COMPLETED, FAILED, CANCELLED)
EXECUTION_TERMINAL = frozenset({COMPLETED, FAILED, CANCELLED})
EXECUTION_TRANSITIONS: dict[str, frozenset[str]] = {
    RUNNING: frozenset({PENDING, RUNNING}),
    COMPLETED: frozenset({RUNNING}),
    FAILED: frozenset({PENDING, RUNNING}),
    CANCELLED: frozenset({PENDING, RUNNING}),
}
"""For each status an execution may enter, the statuses it may come from."""

NODE_STATUSES = (PENDING, RUNNING, RETRYING, COMPLETED, FAILED, SKIPPED, CANCELLED)
NODE_TERMINAL = frozenset({COMPLETED, FAILED, SKIPPED, CANCELLED})
NODE_TRANSITIONS: dict[str, frozenset[str]] = {
    PENDING: frozenset({RUNNING, RETRYING}),
    RUNNING: frozenset({PENDING, RETRYING}),
    RETRYING: frozenset({RUNNING}),
    COMPLETED: frozenset({RUNNING}),
    FAILED: frozenset({PENDING, RUNNING, RETRYING}),
    SKIPPED: frozenset({PENDING}),
    CANCELLED: frozenset({PENDING, RUNNING, RETRYING}),
}
"""For each status a node may enter, the statuses it may come from (pending again on resume)."""


@dataclass
class NodeResult:
    """What one node of one execution did."""

    node_id: str
    status: str = PENDING
    input: Any = None
    output: Any = None
    error: dict[str, Any] | None = None
    retry_count: int = 0
    started_at: datetime | None = None
    completed_at: datetime | None = None
    next_retry_at: datetime | None = None

    def to_data(self) -> dict[str, Any]:
        """The node result as in ``studio run --json``."""
        return {
            "status": self.status,
            "input": self.input,
            "output": self.output,
            "error": self.error,
            "retryCount": self.retry_count,
            "startedAt": _iso(self.started_at),
            "completedAt": _iso(self.completed_at),
        }


@dataclass
class ExecutionRecord:
    """One run of a pinned workflow version, with every node's result."""

    execution_id: str
    workflow_id: str
    workflow_version: int
    status: str
    input: Any = None
    output: Any = None
    error: dict[str, Any] | None = None
    created_at: datetime | None = None
    started_at: datetime | None = None
    completed_at: datetime | None = None
    node_results: dict[str, NodeResult] = field(default_factory=dict)

    @property
    def is_finished(self) -> bool:
        """Whether the execution reached a terminal status."""
        return self.status in EXECUTION_TERMINAL

    def to_data(self) -> dict[str, Any]:
        """The execution record as in ``studio run --json``."""
        return {
            "executionId": self.execution_id,
            "workflowId": self.workflow_id,
            "workflowVersion": self.workflow_version,
            "status": self.status,
            "input": self.input,
            "output": self.output,
            "startedAt": _iso(self.started_at),
            "completedAt": _iso(self.completed_at),
            "error": self.error,
            "nodeResults": {nid: result.to_data() for nid, result in self.node_results.items()},
        }


@dataclass(frozen=True)
class ExecutionEvent:
    """One entry of an execution's ordered history; ``seq`` counts from 1 without gaps."""

    execution_id: str
    seq: int
    type: str
    node_id: str | None
    payload: dict[str, Any]
    created_at: datetime

    def to_data(self) -> dict[str, Any]:
        """The event as JSON-compatible data."""
        return {
            "executionId": self.execution_id,
            "seq": self.seq,
            "type": self.type,
            "nodeId": self.node_id,
            "payload": self.payload,
            "createdAt": _iso(self.created_at),
        }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None
