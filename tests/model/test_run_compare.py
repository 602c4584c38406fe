"""Comparing two runs of a workflow: per node status, duration, output and attempts."""

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studio.model.execution import ExecutionRecord, NodeResult
from studio.model.run_compare import (
    DifferentWorkflowsError,
    compare_runs,
    durations_differ,
    json_equal,
)

T0 = datetime(2025, 1, 25, 13, 0, tzinfo=UTC)


def result(
    node_id: str,
    status: str = "completed",
    seconds: float | None = 0.1,
    output: Any = None,
    retries: int = 0,
    started: bool = True,
) -> NodeResult:
    """A node result that started at T0 and ran for ``seconds`` (None: never finished)."""
    started_at = T0 if started else None
    completed_at = T0 + timedelta(seconds=seconds) if started and seconds is not None else None
    return NodeResult(
        node_id,
        status,
        output=output,
        retry_count=retries,
        started_at=started_at,
        completed_at=completed_at,
    )


def record(
    *results: NodeResult,
    execution_id: str = "run-a",
    workflow_id: str = "wf-1",
    version: int = 1,
    status: str = "completed",
    seconds: float = 1.0,
) -> ExecutionRecord:
    return ExecutionRecord(
        execution_id,
        workflow_id,
        version,
        status,
        input={"message": "hi"},
        started_at=T0,
        completed_at=T0 + timedelta(seconds=seconds),
        node_results={r.node_id: r for r in results},
    )


def test_a_run_compared_with_a_copy_of_itself_has_no_changes() -> None:
    left = record(result("a", output={"x": 1}), result("b", output=[1, 2]))
    right = record(result("a", output={"x": 1}), result("b", output=[1, 2]), execution_id="run-b")
    comparison = compare_runs(left, right, ["a", "b"])
    assert [node.node_id for node in comparison.nodes] == ["a", "b"]
    assert comparison.changed_nodes == ()
    assert comparison.same_version and not comparison.input_differs


def test_status_output_and_attempts_changes_are_named() -> None:
    left = record(result("a", output={"n": 1}), result("b", output="ok"))
    right = record(
        result("a", output={"n": 2}, retries=2),
        result("b", "failed", output=None),
        execution_id="run-b",
        status="failed",
    )
    comparison = compare_runs(left, right, ["a", "b"])
    a, b = comparison.nodes
    assert a.changes == ("output", "attempts")
    assert a.output_differs
    assert (a.left.attempts, a.right.attempts) == (1, 3)
    assert b.changes == ("status", "output")
    assert (comparison.left.status, comparison.right.status) == ("completed", "failed")


def test_output_compares_as_json_so_key_order_does_not_matter() -> None:
    left = record(result("a", output={"x": 1, "y": [1, {"z": None}]}))
    right = record(result("a", output={"y": [1, {"z": None}], "x": 1}), execution_id="b")
    assert compare_runs(left, right, ["a"]).nodes[0].changes == ()


@pytest.mark.parametrize(
    ("left", "right", "changed"),
    [
        (0.100, 0.140, False),  # 40 % longer but only 40 ms
        (1.000, 1.200, False),  # 200 ms longer but only 20 %
        (1.000, 1.300, True),
        (1.300, 1.000, True),  # the same gap the other way round
        (0.000, 0.060, True),
        (0.020, 0.060, False),
        (None, 1.0, False),
    ],
)
def test_a_duration_changes_only_when_the_gap_is_large_both_ways(
    left: float | None, right: float | None, changed: bool
) -> None:
    assert durations_differ(left, right) is changed
    comparison = compare_runs(
        record(result("a", seconds=left)), record(result("a", seconds=right)), ["a"]
    )
    assert ("duration" in comparison.nodes[0].changes) is changed


def test_nodes_of_another_version_are_added_or_removed() -> None:
    left = record(result("a"), result("old"), version=1)
    right = record(result("a"), result("new"), execution_id="b", version=2)
    comparison = compare_runs(left, right, ["a", "new"])
    assert [(n.node_id, n.changes) for n in comparison.nodes] == [
        ("a", ()),
        ("new", ("added",)),
        ("old", ("removed",)),
    ]
    new = comparison.node("new")
    assert new.left is None and new.right is not None
    assert not comparison.same_version
    assert (comparison.left.workflow_version, comparison.right.workflow_version) == (1, 2)


def test_compensation_rows_and_unstarted_nodes() -> None:
    unstarted = result("b", "pending", None, started=False)
    left = record(result("a"), result("a#comp", "compensated"), unstarted)
    right = record(result("a"), unstarted, execution_id="b")
    comparison = compare_runs(left, right, ["a", "b"])
    assert [n.node_id for n in comparison.nodes] == ["a", "b"]
    b = comparison.node("b")
    assert (b.left.attempts, b.left.duration, b.changes) == (0, None, ())


def test_overall_durations_and_inputs() -> None:
    left = record(result("a"), seconds=2.0)
    right = record(result("a"), execution_id="b", seconds=3.5)
    right.input = {"message": "bye"}
    comparison = compare_runs(left, right, ["a"])
    assert (comparison.left.duration, comparison.right.duration) == (2.0, 3.5)
    assert comparison.input_differs


def test_runs_of_different_workflows_are_refused() -> None:
    with pytest.raises(DifferentWorkflowsError, match="different workflows: wf-1 and wf-2"):
        compare_runs(record(result("a")), record(result("a"), workflow_id="wf-2"), ["a"])


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)
NODE = st.builds(
    result,
    node_id=st.sampled_from(["a", "b", "c", "d", "a#comp"]),
    status=st.sampled_from(["pending", "running", "completed", "failed", "skipped"]),
    seconds=st.none() | st.floats(0, 100, allow_nan=False),
    output=JSON,
    retries=st.integers(0, 3),
    started=st.booleans(),
)


@given(st.lists(NODE, max_size=6), st.lists(st.sampled_from("abcdxyz"), max_size=5))
def test_any_run_compared_with_itself_reports_no_changes(
    results: list[NodeResult], order: list[str]
) -> None:
    run = record(*results)
    comparison = compare_runs(run, run, order)
    assert comparison.changed_nodes == ()
    assert {n.node_id for n in comparison.nodes} == {
        r.node_id for r in results if not r.node_id.endswith("#comp")
    }


@given(st.lists(NODE, max_size=5), st.lists(NODE, max_size=5))
def test_swapping_the_runs_swaps_added_and_removed_and_keeps_the_rest(
    left: list[NodeResult], right: list[NodeResult]
) -> None:
    forward = compare_runs(record(*left), record(*right), [])
    backward = compare_runs(record(*right), record(*left), [])
    swap = {"added": "removed", "removed": "added"}
    backward_changes = {n.node_id: n.changes for n in backward.nodes}
    for node in forward.nodes:
        assert tuple(swap.get(c, c) for c in node.changes) == backward_changes[node.node_id]


@given(JSON)
def test_a_value_is_json_equal_to_itself_read_back_with_its_keys_reversed(value: Any) -> None:
    def reversed_keys(item: Any) -> Any:
        if isinstance(item, dict):
            return {key: reversed_keys(item[key]) for key in reversed(list(item))}
        if isinstance(item, list):
            return [reversed_keys(element) for element in item]
        return item

    assert json_equal(value, json.loads(json.dumps(reversed_keys(value))))
    assert not json_equal(value, [value])
