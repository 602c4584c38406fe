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
RETRYING, SKIPPED, WAITING = "retrying", "skipped", "waiting"
COMPENSATING, COMPENSATED, COMPENSATION_FAILED = (
    "compensating",
    "compensated",
    "compensation_failed",
)
COMPENSATION_SUFFIX = "#comp"
"""A node's compensation is recorded as a pseudo-node ``<node id>#comp``."""

EXECUTION_STATUSES = (PENDING, RUNNING, WAITING, COMPLETED, FAILED, CANCELLED)
EXECUTION_TERMINAL = frozenset({COMPLETED, FAILED, CANCELLED})
EXECUTION_TRANSITIONS: dict[str, frozenset[str]] = {
    RUNNING: frozenset({PENDING, RUNNING, WAITING}),
    WAITING: frozenset({RUNNING}),
    COMPLETED: frozenset({RUNNING}),
    FAILED: frozenset({PENDING, RUNNING, WAITING}),
    CANCELLED: frozenset({PENDING, RUNNING, WAITING}),
}
"""For each status an execution may enter, the statuses it may come from."""

NODE_STATUSES = (PENDING, RUNNING, RETRYING, WAITING, COMPLETED, FAILED, SKIPPED, CANCELLED)
NODE_TERMINAL = frozenset({COMPLETED, FAILED, SKIPPED, CANCELLED})
NODE_TRANSITIONS: dict[str, frozenset[str]] = {
    PENDING: frozenset({RUNNING, RETRYING, WAITING}),
    RUNNING: frozenset({PENDING, RETRYING}),
    RETRYING: frozenset({RUNNING}),
    WAITING: frozenset({PENDING}),
    COMPLETED: frozenset({RUNNING}),
    FAILED: frozenset({PENDING, RUNNING, RETRYING, WAITING}),
    SKIPPED: frozenset({PENDING}),
    CANCELLED: frozenset({PENDING, RUNNING, RETRYING, WAITING}),
    COMPENSATED: frozenset({COMPENSATING}),
    COMPENSATION_FAILED: frozenset({COMPENSATING}),
}
"""For each status a node may enter, the statuses it may come from (pending again on resume).

A ``#comp`` row is inserted as compensating (its reservation) and ends compensated or
compensation_failed."""


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
    compensation_status: str | None = None
    compensation_summary: dict[str, Any] | None = None
    owner: str | None = None
    """The runner holding the execution while it is driven (not part of its data)."""
    heartbeat_at: datetime | None = None

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
        } | self._compensation_data()

    def _compensation_data(self) -> dict[str, Any]:
        # Inert unless compensation ran: a run without it has no new keys at all.
        if self.compensation_status is None:
            return {}
        return {
            "compensationStatus": self.compensation_status,
            "compensationSummary": self.compensation_summary,
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


def item_count(output: Any) -> int:
    """How many items an output carries: a list's length, nothing for None, else one."""
    if output is None:
        return 0
    if isinstance(output, list):
        return len(output)
    return 1


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None
