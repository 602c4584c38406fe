"""Two runs of one workflow side by side: what each node did in each, and what changed.

A person compares a run that worked with one that did not (or a slow one with a fast one), so
the comparison names the differences per node: its status, its duration (only when the gap is
large enough to mean something), its output and how many attempts it took. Nodes that exist in
one run only (the runs pinned different versions) are listed as added or removed."""

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from studio.model.execution import COMPENSATION_SUFFIX, ExecutionRecord, NodeResult

DURATION_SHARE = 0.25
"""A duration changed when one run took more than this share longer than the other ..."""
DURATION_FLOOR = 0.05
"""... and the gap is more than this many seconds (shorter gaps are timer noise)."""

STATUS, DURATION, OUTPUT, ATTEMPTS = "status", "duration", "output", "attempts"
ADDED, REMOVED = "added", "removed"
"""A node only in the right run (added) or only in the left one (removed)."""


class DifferentWorkflowsError(ValueError):
    """Two executions of different workflows cannot be compared node by node."""


@dataclass(frozen=True)
class NodeSide:
    """What one node did in one run."""

    status: str
    duration: float | None
    """Seconds from start to end, when both are known."""
    attempts: int
    """Attempts made: retries plus one once the node started, else 0."""
    output: Any = None
    error: dict[str, Any] | None = None


@dataclass(frozen=True)
class NodeComparison:
    """One node in both runs; a side is None when the node is not in that run."""

    node_id: str
    left: NodeSide | None
    right: NodeSide | None
    changes: tuple[str, ...]

    @property
    def changed(self) -> bool:
        """Whether anything about the node differs between the runs."""
        return bool(self.changes)

    @property
    def output_differs(self) -> bool:
        """Whether both runs have the node and its outputs are not the same JSON."""
        return OUTPUT in self.changes


@dataclass(frozen=True)
class RunSide:
    """One run as a whole: which version it pinned, how it ended and how long it took."""

    execution_id: str
    workflow_version: int
    status: str
    duration: float | None
    input: Any = None


@dataclass(frozen=True)
class RunComparison:
    """Two runs of one workflow, node by node, in the workflow's order."""

    workflow_id: str
    left: RunSide
    right: RunSide
    nodes: tuple[NodeComparison, ...]

    @property
    def changed_nodes(self) -> tuple[NodeComparison, ...]:
        """The nodes with at least one change."""
        return tuple(node for node in self.nodes if node.changed)

    @property
    def same_version(self) -> bool:
        """Whether both runs pinned the same workflow version."""
        return self.left.workflow_version == self.right.workflow_version

    @property
    def input_differs(self) -> bool:
        """Whether the runs were started with different input."""
        return not json_equal(self.left.input, self.right.input)

    def node(self, node_id: str) -> NodeComparison | None:
        """The comparison of one node, if either run has it."""
        return next((node for node in self.nodes if node.node_id == node_id), None)


def compare_runs(
    left: ExecutionRecord, right: ExecutionRecord, node_order: Iterable[str]
) -> RunComparison:
    """Compare two executions of the same workflow, listing nodes in ``node_order`` first.

    Raises:
        DifferentWorkflowsError: the executions are of different workflows."""
    if left.workflow_id != right.workflow_id:
        raise DifferentWorkflowsError(
            f"These runs are of different workflows: {left.workflow_id} and {right.workflow_id}"
        )
    nodes = tuple(
        compare_node(node_id, left.node_results.get(node_id), right.node_results.get(node_id))
        for node_id in compared_node_ids(left, right, node_order)
    )
    return RunComparison(left.workflow_id, run_side(left), run_side(right), nodes)


def compared_node_ids(
    left: ExecutionRecord, right: ExecutionRecord, node_order: Iterable[str]
) -> list[str]:
    """Real nodes of either run: those in ``node_order`` first, then the others as stored."""
    present = [*left.node_results, *right.node_results]
    ordered = [node_id for node_id in node_order if node_id in present]
    rest = [node_id for node_id in dict.fromkeys(present) if node_id not in ordered]
    return [node_id for node_id in ordered + rest if not node_id.endswith(COMPENSATION_SUFFIX)]


def compare_node(node_id: str, left: NodeResult | None, right: NodeResult | None) -> NodeComparison:
    """One node's two results and what changed between them."""
    left_side = node_side(left) if left is not None else None
    right_side = node_side(right) if right is not None else None
    return NodeComparison(node_id, left_side, right_side, node_changes(left_side, right_side))


def node_changes(left: NodeSide | None, right: NodeSide | None) -> tuple[str, ...]:
    """What differs between a node's two sides, in a fixed order."""
    if left is None or right is None:
        return () if left is right else ((ADDED,) if left is None else (REMOVED,))
    changes = []
    if left.status != right.status:
        changes.append(STATUS)
    if durations_differ(left.duration, right.duration):
        changes.append(DURATION)
    if not json_equal(left.output, right.output):
        changes.append(OUTPUT)
    if left.attempts != right.attempts:
        changes.append(ATTEMPTS)
    return tuple(changes)


def durations_differ(left: float | None, right: float | None) -> bool:
    """Whether one duration is more than 25 % and more than 50 ms longer than the other."""
    if left is None or right is None:
        return False
    gap = abs(left - right)
    shorter = min(left, right)
    return gap > DURATION_FLOOR and (shorter <= 0 or gap / shorter > DURATION_SHARE)


def node_side(result: NodeResult) -> NodeSide:
    """A stored node result as one side of a comparison."""
    started = result.started_at is not None
    duration = None
    if result.started_at is not None and result.completed_at is not None:
        duration = max(0.0, (result.completed_at - result.started_at).total_seconds())
    attempts = result.retry_count + 1 if started else 0
    return NodeSide(result.status, duration, attempts, result.output, result.error)


def run_side(record: ExecutionRecord) -> RunSide:
    """A stored execution as one side of a comparison."""
    duration = None
    if record.started_at is not None and record.completed_at is not None:
        duration = max(0.0, (record.completed_at - record.started_at).total_seconds())
    return RunSide(
        record.execution_id, record.workflow_version, record.status, duration, record.input
    )


def json_equal(left: Any, right: Any) -> bool:
    """Whether two values are the same JSON (key order does not matter)."""
    return _canonical(left) == _canonical(right)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
