"""Execution records: the state machines of a run and of each node, and what is kept of them."""

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any


class ExecutionStatus(StrEnum):
    """Where an execution is in its state machine; the value is what the store keeps."""

    PENDING = "pending"
    RUNNING = "running"
    WAITING = "waiting"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


class NodeStatus(StrEnum):
    """Where one node (or its ``#comp`` pseudo-node) is; the value is what the store keeps."""

    PENDING = "pending"
    RUNNING = "running"
    RETRYING = "retrying"
    WAITING = "waiting"
    COMPLETED = "completed"
    FAILED = "failed"
    SKIPPED = "skipped"
    CANCELLED = "cancelled"
    COMPENSATING = "compensating"
    COMPENSATED = "compensated"
    COMPENSATION_FAILED = "compensation_failed"


class UnwindStatus(StrEnum):
    """How far a failed execution's compensation unwind got (its ``compensation_status``)."""

    RUNNING = "running"
    COMPLETED = "completed"
    PARTIAL = "partial"


# The short names the engine, store and views import; equal to either enum's member.
PENDING, RUNNING, COMPLETED, FAILED, CANCELLED = (
    NodeStatus.PENDING,
    NodeStatus.RUNNING,
    NodeStatus.COMPLETED,
    NodeStatus.FAILED,
    NodeStatus.CANCELLED,
)
RETRYING, SKIPPED, WAITING = NodeStatus.RETRYING, NodeStatus.SKIPPED, NodeStatus.WAITING
COMPENSATING, COMPENSATED, COMPENSATION_FAILED = (
    NodeStatus.COMPENSATING,
    NodeStatus.COMPENSATED,
    NodeStatus.COMPENSATION_FAILED,
)
COMPENSATION_SUFFIX = "#comp"
"""A node's compensation is recorded as a pseudo-node ``<node id>#comp``."""

EXECUTION_STATUSES = tuple(ExecutionStatus)
EXECUTION_TERMINAL: frozenset[str] = frozenset(
    {ExecutionStatus.COMPLETED, ExecutionStatus.FAILED, ExecutionStatus.CANCELLED}
)
_E = ExecutionStatus
EXECUTION_TRANSITIONS: dict[str, frozenset[str]] = {
    _E.RUNNING: frozenset({_E.PENDING, _E.RUNNING, _E.WAITING}),
    _E.WAITING: frozenset({_E.RUNNING}),
    _E.COMPLETED: frozenset({_E.RUNNING}),
    _E.FAILED: frozenset({_E.PENDING, _E.RUNNING, _E.WAITING}),
    _E.CANCELLED: frozenset({_E.PENDING, _E.RUNNING, _E.WAITING}),
}
"""For each status an execution may enter, the statuses it may come from."""

NODE_STATUSES = (PENDING, RUNNING, RETRYING, WAITING, COMPLETED, FAILED, SKIPPED, CANCELLED)
NODE_TERMINAL: frozenset[str] = frozenset({COMPLETED, FAILED, SKIPPED, CANCELLED})
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
    status: NodeStatus = NodeStatus.PENDING
    input: Any = None
    output: Any = None
    error: dict[str, Any] | None = None
    retry_count: int = 0
    started_at: datetime | None = None
    completed_at: datetime | None = None
    next_retry_at: datetime | None = None

    def __post_init__(self) -> None:
        self.status = NodeStatus(self.status)

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
    status: ExecutionStatus
    input: Any = None
    output: Any = None
    error: dict[str, Any] | None = None
    created_at: datetime | None = None
    started_at: datetime | None = None
    completed_at: datetime | None = None
    node_results: dict[str, NodeResult] = field(default_factory=dict)
    compensation_status: UnwindStatus | None = None
    compensation_summary: dict[str, Any] | None = None
    owner: str | None = None
    """The runner holding the execution while it is driven (not part of its data)."""
    heartbeat_at: datetime | None = None

    def __post_init__(self) -> None:
        self.status = ExecutionStatus(self.status)
        if self.compensation_status is not None:
            self.compensation_status = UnwindStatus(self.compensation_status)

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
