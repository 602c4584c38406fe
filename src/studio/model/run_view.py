"""What a run looks like at one moment, folded from its event log.

The live overlay applies events as the engine announces them; replay folds the stored log up
to a chosen event. Both use ``RunView.apply``, so what a person sees live and what they see
when scrubbing back are the same by construction."""

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from studio.model.execution import (
    CANCELLED,
    COMPENSATED,
    COMPENSATING,
    COMPENSATION_FAILED,
    COMPENSATION_SUFFIX,
    COMPLETED,
    FAILED,
    PENDING,
    RETRYING,
    RUNNING,
    SKIPPED,
    WAITING,
    ExecutionEvent,
    UnwindStatus,
)

NODE_EVENT_STATUS = {
    "node.started": RUNNING,
    "node.completed": COMPLETED,
    "node.failed": FAILED,
    "node.skipped": SKIPPED,
    "node.waiting": WAITING,
    "node.retrying": RETRYING,
    "node.cancelled": CANCELLED,
    "node.resumed": PENDING,
    "node.reused": COMPLETED,
}
INTERRUPTED = "interrupted"
"""Shown for a node that was running when its runner went away (not a stored status)."""
EXECUTION_EVENT_STATUS = {
    "execution.created": PENDING,
    "execution.started": RUNNING,
    "execution.resumed": RUNNING,
    "execution.waiting": WAITING,
    "execution.completed": COMPLETED,
    "execution.failed": FAILED,
    "execution.cancelled": CANCELLED,
}
COMPENSATION_EVENT_STATUS = {
    "compensation.started": COMPENSATING,
    "compensation.compensated": COMPENSATED,
    "compensation.failed": COMPENSATION_FAILED,
}
UNWIND_EVENT_STATUS = {
    "compensation.unwind_started": UnwindStatus.RUNNING,
    "compensation.completed": UnwindStatus.COMPLETED,
    "compensation.partial": UnwindStatus.PARTIAL,
}


@dataclass(frozen=True)
class NodeView:
    """One node as the canvas shows it at a moment of a run."""

    status: str = PENDING
    attempt: int = 0
    """Attempts started so far (1 for the first)."""
    max_retries: int | None = None
    next_retry_at: datetime | None = None
    error: dict[str, Any] | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    items: int | None = None
    """How many items the node's output carried (a list's length, else 1), once completed."""
    reused: bool = False
    """Completed in an earlier execution and taken over by a "Run from here"."""
    decision: str | None = None
    decided_by: str | None = None
    comment: str | None = None
    compensation: str | None = None
    """compensating, compensated or compensation_failed when the node was rolled back."""
    compensation_error: dict[str, Any] | None = None

    @property
    def duration(self) -> float | None:
        """Seconds from the first start to the end, when both are known."""
        if self.started_at is None or self.finished_at is None:
            return None
        return max(0.0, (self.finished_at - self.started_at).total_seconds())

    def retry_text(self, now: datetime) -> str:
        """'attempt 2 of 3, next in 4 s' while the node waits to try again."""
        total = "" if self.max_retries is None else f" of {self.max_retries + 1}"
        text = f"attempt {self.attempt + 1}{total}"
        if self.next_retry_at is None:
            return text
        seconds = max(0.0, (self.next_retry_at - now).total_seconds())
        return f"{text}, next in {seconds:.0f} s" if seconds >= 1 else f"{text}, next now"


@dataclass
class RunView:
    """Every node's view and the execution's status after some prefix of the event log."""

    execution_id: str
    nodes: dict[str, NodeView] = field(default_factory=dict)
    status: str = PENDING
    compensation_status: str | None = None
    last_seq: int = 0
    started_at: datetime | None = None
    finished_at: datetime | None = None

    @classmethod
    def of(cls, execution_id: str, node_ids: Iterable[str]) -> "RunView":
        """A run not yet started: every node pending."""
        return cls(execution_id, {node_id: NodeView() for node_id in node_ids})

    @classmethod
    def folded(
        cls,
        execution_id: str,
        node_ids: Iterable[str],
        events: Iterable[ExecutionEvent],
        until_seq: int | None = None,
    ) -> "RunView":
        """The run as it stood after event ``until_seq`` (all events when None)."""
        view = cls.of(execution_id, node_ids)
        for event in events:
            if until_seq is not None and event.seq > until_seq:
                break
            view.apply(event)
        return view

    def copy(self) -> "RunView":
        """An independent view at the same moment (node views are immutable, so the dict is
        all that needs copying)."""
        return replace(self, nodes=dict(self.nodes))

    def interrupted(self) -> "RunView":
        """The view of a run whose runner went away: what was running shows as interrupted
        (nothing is running it now) until a resume moves it on."""
        nodes = {
            node_id: replace(node, status=INTERRUPTED) if node.status == RUNNING else node
            for node_id, node in self.nodes.items()
        }
        return replace(self, nodes=nodes)

    @property
    def is_finished(self) -> bool:
        """Whether the execution reached a terminal status (an unwind may still follow)."""
        return self.status in (COMPLETED, FAILED, CANCELLED)

    def counts(self) -> dict[str, int]:
        """How many nodes are in each status."""
        tally: dict[str, int] = {}
        for node in self.nodes.values():
            tally[node.status] = tally.get(node.status, 0) + 1
        return tally

    def progress(self) -> tuple[int, int]:
        """(nodes settled, all nodes): completed, failed, skipped and cancelled count."""
        settled = sum(
            node.status in (COMPLETED, FAILED, SKIPPED, CANCELLED) for node in self.nodes.values()
        )
        return settled, len(self.nodes)

    def apply(self, event: ExecutionEvent) -> str | None:
        """Take one event; returns the id of the node whose view changed, if any.

        Events already applied (by sequence number) are ignored, so a live subscription and a
        reload from the store can overlap safely."""
        if event.execution_id != self.execution_id or event.seq <= self.last_seq:
            return None
        self.last_seq = event.seq
        if event.type in EXECUTION_EVENT_STATUS:
            self._apply_execution(event)
            return None
        if event.type in UNWIND_EVENT_STATUS:
            self.compensation_status = UNWIND_EVENT_STATUS[event.type]
            return None
        node_id = event.node_id
        if node_id is None:
            return None
        if event.type in COMPENSATION_EVENT_STATUS:
            return self._apply_compensation(event, node_id.removesuffix(COMPENSATION_SUFFIX))
        if node_id not in self.nodes:
            return None
        if event.type == "approval.decided":
            self.nodes[node_id] = _decided(self.nodes[node_id], event.payload)
            return node_id
        if event.type == "node.interrupted":
            return self._apply_interrupted(event, node_id)
        status = NODE_EVENT_STATUS.get(event.type)
        if status is None:
            return None
        self.nodes[node_id] = _moved(self.nodes[node_id], status, event)
        return node_id

    def _apply_execution(self, event: ExecutionEvent) -> None:
        self.status = EXECUTION_EVENT_STATUS[event.type]
        if self.status == RUNNING and self.started_at is None:
            self.started_at = event.created_at
        if self.is_finished:
            self.finished_at = event.created_at

    def _apply_compensation(self, event: ExecutionEvent, node_id: str) -> str | None:
        if node_id not in self.nodes:
            return None
        error = event.payload.get("error") if event.type == "compensation.failed" else None
        self.nodes[node_id] = replace(
            self.nodes[node_id],
            compensation=COMPENSATION_EVENT_STATUS[event.type],
            compensation_error=error,
        )
        return node_id

    def _apply_interrupted(self, event: ExecutionEvent, node_id: str) -> str:
        error = event.payload.get("error")
        status = FAILED if error else PENDING
        self.nodes[node_id] = replace(
            self.nodes[node_id],
            status=status,
            error=error,
            finished_at=event.created_at if error else None,
        )
        return node_id


def _moved(node: NodeView, status: str, event: ExecutionEvent) -> NodeView:
    payload, at = event.payload, event.created_at
    changes: dict[str, Any] = {"status": status}
    if status == RUNNING:
        changes.update(
            attempt=payload.get("attempt", node.attempt + 1),
            next_retry_at=None,
            error=None,
            started_at=node.started_at or at,
            finished_at=None,
        )
    elif status == RETRYING:
        delay = float(payload.get("delay") or 0.0)
        changes.update(
            max_retries=payload.get("maxRetries"),
            next_retry_at=at + timedelta(seconds=delay),
            error=payload.get("error"),
        )
    elif status == COMPLETED:
        changes.update(
            finished_at=at, items=payload.get("items"), reused=event.type == "node.reused"
        )
        if event.type == "node.reused":
            changes.update(attempt=payload.get("attempts", node.attempt))
    elif status in (FAILED, SKIPPED, CANCELLED):
        changes.update(finished_at=at, error=payload.get("error", node.error))
    elif status == PENDING:
        changes.update(next_retry_at=None, finished_at=None)
    return replace(node, **changes)


def _decided(node: NodeView, payload: dict[str, Any]) -> NodeView:
    return replace(
        node,
        decision=payload.get("decision"),
        decided_by=payload.get("by"),
        comment=payload.get("comment"),
    )
