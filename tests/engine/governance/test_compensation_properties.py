"""Compensation: the unwind order over random DAGs, the pure plan, and the honest limits
(stop on the first failed compensation, minCompletedNodes, inert when disabled, sideEffecting
false, no unwind on an open circuit)."""

import asyncio
import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from studio.engine.compensation import compensation_plan, should_unwind
from studio.engine.rules.dag import build_plan
from studio.model.execution import COMPENSATION_SUFFIX, NODE_STATUSES
from studio.model.governance import CircuitBreakerSettings
from studio.model.workflow import Workflow
from tests.engine.governance.governance_harness import (
    UNDONE,
    dead_owner,
    governed_harness,
    undone_in,
)
from tests.engine.runner_harness import INVOCATIONS, Harness

UNDO = {"tool": "undo", "args": {"node": "${output.node}"}}
COMPENSATION_EVENTS = ("compensation.", "execution.escalated")


# --- random DAGs -----------------------------------------------------------------------------


@st.composite
def forward_edges(draw: st.DrawFn, count: int) -> list[tuple[int, int]]:
    """A connected DAG on 0..count-1: each node after the first hangs off an earlier one,
    plus a few extra forward edges."""
    edges = [(draw(st.integers(0, i - 1)), i) for i in range(1, count)]
    extra = draw(
        st.lists(st.tuples(st.integers(0, count - 1), st.integers(0, count - 1)), max_size=5)
    )
    for a, b in extra:
        if a < b and (a, b) not in edges:
            edges.append((a, b))
    return edges


@st.composite
def failing_workflows(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """Workflow data of 2–7 recording nodes, some with an undo compensation, one failing."""
    count = draw(st.integers(2, 7))
    ids = [f"n{i}" for i in range(count)]
    edges = draw(forward_edges(count))
    failing = draw(st.integers(0, count - 1))
    compensated = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    nodes = []
    for index, node_id in enumerate(ids):
        node: dict[str, Any] = {"id": node_id, "agentId": "recorder"}
        if index == failing:
            node["agentId"] = "failing"
            node["configuration"] = {"parameters": {"errorType": "Boom"}}
        if compensated[index]:
            node["compensation"] = UNDO
        nodes.append(node)
    data = {
        "name": "random unwind",
        "configuration": {
            "compensation": {"enabled": True},
            # The failing agent fails in every example: keep its circuit closed.
            "governance": {"circuitBreaker": {"failureThreshold": 10**9}},
        },
        # Definition order is shuffled so that it says nothing about topological order.
        "nodes": draw(st.permutations(nodes)),
        "edges": [{"source": ids[a], "target": ids[b]} for a, b in edges],
    }
    return data, ids[failing]


def descendants(data: dict[str, Any], start: str) -> set[str]:
    successors: dict[str, list[str]] = {}
    for edge in data["edges"]:
        successors.setdefault(edge["source"], []).append(edge["target"])
    seen: set[str] = set()
    stack = [start]
    while stack:
        for target in successors.get(stack.pop(), []):
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return seen


_HARNESSES: dict[Path, Harness] = {}


def shared_harness(tmp_path: Path) -> Harness:
    """One database for all examples of a test: each example starts its own execution."""
    if tmp_path not in _HARNESSES:
        _HARNESSES[tmp_path] = governed_harness(tmp_path)
    return _HARNESSES[tmp_path]


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=failing_workflows())
def test_the_unwind_compensates_completed_nodes_in_reverse_topological_order(
    tmp_path: Path, case: tuple[dict[str, Any], str]
) -> None:
    data, failing = case
    harness = shared_harness(tmp_path)
    record = harness.execute(harness.publish(data), {"start": True})
    execution_id = record.execution_id

    # Forward run: the failing node and everything downstream failed, the rest completed.
    downstream = descendants(data, failing)
    assert record.status == "failed"
    assert record.node_results[failing].status == "failed"
    assert record.node_results[failing].error["type"] == "Boom"
    completed = set()
    for node in data["nodes"]:
        result = record.node_results[node["id"]]
        if node["id"] in downstream:
            assert result.status == "failed" and result.error["type"] == "UpstreamFailed"
        elif node["id"] != failing:
            assert result.status == "completed"
            assert result.output == {"node": node["id"]}
            completed.add(node["id"])

    ran = undone_in(execution_id)
    event(f"compensations run: {min(len(ran), 3)}{'+' if len(ran) >= 3 else ''}")
    bearing = {node["id"] for node in data["nodes"] if "compensation" in node}
    assert len(ran) == len(set(ran))
    assert set(ran) == completed & bearing
    assert failing not in ran
    for edge in data["edges"]:
        u, v = edge["source"], edge["target"]
        if u in ran and v in ran:
            assert ran.index(v) < ran.index(u), (edge, ran)
    for _eid, comp_id, args in (call for call in UNDONE if call[0] == execution_id):
        assert comp_id == args["node"] + COMPENSATION_SUFFIX

    comp_rows = {nid: r for nid, r in record.node_results.items() if "#" in nid}
    if ran:
        assert record.compensation_status == "completed"
        assert record.compensation_summary == {
            "entries": [
                {
                    "nodeId": node_id,
                    "compensationId": node_id + COMPENSATION_SUFFIX,
                    "tool": "undo",
                    "status": "compensated",
                }
                for node_id in ran
            ]
        }
        assert set(comp_rows) == {node_id + COMPENSATION_SUFFIX for node_id in ran}
        for node_id in ran:
            row = comp_rows[node_id + COMPENSATION_SUFFIX]
            assert row.status == "compensated"
            assert row.input == {"node": node_id}
        assert harness.executions.findings(execution_id) == []
    else:
        assert "compensationStatus" not in record.to_data()
        assert comp_rows == {}
    # Compensation never reclassifies the run.
    assert harness.executions.get(execution_id).status == "failed"


# --- the pure plan ---------------------------------------------------------------------------

COMPENSATIONS = st.one_of(
    st.none(),
    st.builds(lambda side: {"tool": "undo", "args": {}, "sideEffecting": side}, st.booleans()),
    st.just({"tool": "undo"}),
)


@st.composite
def plans_and_statuses(draw: st.DrawFn):
    count = draw(st.integers(1, 8))
    ids = [f"n{i}" for i in range(count)]
    edges = draw(forward_edges(count)) if count > 1 else []
    nodes = []
    for node_id in ids:
        node: dict[str, Any] = {"id": node_id, "agentId": "recorder"}
        compensation = draw(COMPENSATIONS)
        if compensation is not None:
            node["compensation"] = compensation
        nodes.append(node)
    data = {
        "nodes": draw(st.permutations(nodes)),
        "edges": [{"source": ids[a], "target": ids[b]} for a, b in edges],
    }
    statuses = {node_id: draw(st.sampled_from(NODE_STATUSES)) for node_id in ids}
    return data, statuses


@settings(max_examples=200, deadline=None)
@given(case=plans_and_statuses())
def test_compensation_plan_is_the_qualifying_nodes_in_unwind_order(case) -> None:
    data, statuses = case
    workflow = Workflow.model_validate(data)
    order = compensation_plan(build_plan(workflow), workflow, statuses)
    qualifying = {
        node["id"]
        for node in data["nodes"]
        if statuses[node["id"]] == "completed"
        and "compensation" in node
        and node["compensation"].get("sideEffecting", True)
    }
    assert len(order) == len(set(order))
    assert set(order) == qualifying
    for node_id in order:  # every ancestor of a planned node comes after it
        for later in descendants(data, node_id) & set(order):
            assert order.index(later) < order.index(node_id)


@settings(max_examples=200, deadline=None)
@given(
    case=plans_and_statuses(),
    enabled=st.booleans(),
    minimum=st.integers(0, 4),
    error_types=st.lists(
        st.sampled_from(["Boom", "PolicyDenied", "CircuitOpen", "ApprovalPending", "Timeout"]),
        min_size=8,
        max_size=8,
    ),
)
def test_should_unwind_respects_opt_in_minimum_and_the_held_failures(
    case, enabled: bool, minimum: int, error_types: list[str]
) -> None:
    data, statuses = case
    data["configuration"] = {
        "compensation": {"enabled": enabled, "trigger": {"minCompletedNodes": minimum}}
    }
    workflow = Workflow.model_validate(data)
    ids = sorted(statuses)
    errors = {node_id: {"type": error_types[index]} for index, node_id in enumerate(ids)}
    held = any(
        statuses[node_id] == "failed"
        and errors[node_id]["type"] in ("CircuitOpen", "ApprovalPending")
        for node_id in ids
    )
    completed = sum(status == "completed" for status in statuses.values())
    expected = enabled and completed >= minimum and not held
    assert should_unwind(workflow, statuses, errors) is expected


def test_should_unwind_is_false_without_any_compensation_configuration() -> None:
    workflow = Workflow.model_validate({"nodes": [{"id": "a", "agentId": "x"}]})
    assert not should_unwind(workflow, {"a": "completed"}, {"a": None})


# --- deterministic cases ---------------------------------------------------------------------


def compensated_chain(
    specs: list[tuple[str, str, dict[str, Any] | None]], compensation: dict[str, Any] | None
) -> dict[str, Any]:
    """Workflow data: the nodes (id, agent, compensation block) in a row."""
    nodes = []
    for node_id, agent, block in specs:
        node: dict[str, Any] = {"id": node_id, "agentId": agent}
        if block is not None:
            node["compensation"] = block
        nodes.append(node)
    data: dict[str, Any] = {
        "name": "chain",
        "nodes": nodes,
        "edges": [{"source": a["id"], "target": b["id"]} for a, b in itertools.pairwise(nodes)],
    }
    if compensation is not None:
        data["configuration"] = {"compensation": compensation}
    return data


def comp_rows(record) -> dict[str, Any]:
    return {nid: r for nid, r in record.node_results.items() if COMPENSATION_SUFFIX in nid}


def test_on_failure_stop_halts_after_the_first_failing_compensation(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    data = compensated_chain(
        [
            ("a", "recorder", UNDO),
            ("b", "recorder", {"tool": "broken-undo", "args": {}}),
            ("c", "recorder", UNDO),
            ("d", "failing", None),
        ],
        {"enabled": True, "onFailure": "stop"},
    )
    record = harness.execute(harness.publish(data))
    execution_id = record.execution_id
    assert record.status == "failed"
    assert undone_in(execution_id) == ["c"]  # a's compensation is never dispatched
    assert INVOCATIONS[(execution_id, "b#comp")] == 1
    assert record.compensation_status == "partial"
    entries = record.compensation_summary["entries"]
    assert [(e["nodeId"], e["status"]) for e in entries] == [
        ("c", "compensated"),
        ("b", "compensation_failed"),
        ("a", "not_started"),
    ]
    assert entries[1]["failureClass"] == "AGENT_ERROR"
    assert entries[1]["recommendedAction"] == "manual_review_required"
    assert entries[1]["error"]["type"] == "Boom"
    rows = comp_rows(record)
    assert set(rows) == {"c#comp", "b#comp"}
    assert rows["b#comp"].status == "compensation_failed"
    assert rows["b#comp"].error["failureClass"] == entries[1]["failureClass"]
    events = harness.executions.events(execution_id)
    [escalated] = [e for e in events if e.type == "execution.escalated"]
    assert escalated.node_id == "b"
    assert escalated.payload["compensationSummary"]["entries"] == entries
    assert [e.type for e in events[-2:]] == ["compensation.partial", "execution.escalated"]
    assert harness.executions.findings(execution_id) == [
        {
            "nodeId": "b",
            "failureClass": "AGENT_ERROR",
            "recommendedAction": "manual_review_required",
            "message": "it failed on purpose",
        }
    ]
    assert harness.executions.get(execution_id).status == "failed"


@pytest.mark.parametrize(("minimum", "unwinds"), [(2, True), (3, False)])
def test_min_completed_nodes_gates_the_unwind(tmp_path: Path, minimum: int, unwinds: bool) -> None:
    harness = governed_harness(tmp_path)
    data = compensated_chain(
        [("a", "recorder", UNDO), ("b", "recorder", UNDO), ("c", "failing", None)],
        {"enabled": True, "trigger": {"mode": "on_terminal_failure", "minCompletedNodes": minimum}},
    )
    record = harness.execute(harness.publish(data))
    execution_id = record.execution_id
    assert record.status == "failed"
    types = [e.type for e in harness.executions.events(execution_id)]
    if unwinds:
        assert undone_in(execution_id) == ["b", "a"]
        assert record.compensation_status == "completed"
    else:
        assert undone_in(execution_id) == []
        assert comp_rows(record) == {}
        assert "compensationStatus" not in record.to_data()
        assert "compensationSummary" not in record.to_data()
        assert not [t for t in types if t.startswith(COMPENSATION_EVENTS)]
        assert harness.executions.findings(execution_id) == []


def normalized(record) -> dict[str, Any]:
    data = record.to_data()
    for key in ("executionId", "workflowId", "startedAt", "completedAt"):
        data.pop(key)
    for result in data["nodeResults"].values():
        result.pop("startedAt")
        result.pop("completedAt")
    if data["error"]:
        data["error"] = dict(data["error"])
    return data


def normalized_events(harness: Harness, execution_id: str) -> list[tuple]:
    out = []
    for stored in harness.executions.events(execution_id):
        payload = {k: v for k, v in stored.payload.items() if k != "workflowId"}
        out.append((stored.seq, stored.type, stored.node_id, payload))
    return out


@pytest.mark.parametrize(
    ("blocks", "compensation"),
    [
        (True, {"enabled": False}),
        (True, None),
        (True, {"enabled": False, "trigger": {"minCompletedNodes": 0}, "onFailure": "stop"}),
        (False, {"enabled": True}),
    ],
    ids=["disabled", "absent", "disabled-with-settings", "enabled-without-blocks"],
)
def test_inert_compensation_leaves_the_record_byte_identical(
    tmp_path: Path, blocks: bool, compensation: dict[str, Any] | None
) -> None:
    harness = governed_harness(tmp_path)
    specs = [("a", "recorder", None), ("b", "recorder", None), ("c", "failing", None)]
    plain = harness.publish(compensated_chain(specs, None))
    with_blocks = [(n, agent, UNDO if blocks and n != "c" else None) for n, agent, _ in specs]
    inert = harness.publish(compensated_chain(with_blocks, compensation))
    baseline = harness.execute(plain, {"go": 1})
    record = harness.execute(inert, {"go": 1})
    assert record.status == baseline.status == "failed"
    assert normalized(record) == normalized(baseline)
    assert normalized_events(harness, record.execution_id) == normalized_events(
        harness, baseline.execution_id
    )
    assert undone_in(record.execution_id) == []
    assert harness.executions.findings(record.execution_id) == []


def test_nodes_marked_not_side_effecting_are_not_compensated(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    data = compensated_chain(
        [
            ("a", "recorder", {**UNDO, "sideEffecting": False}),
            ("b", "recorder", UNDO),
            ("c", "failing", None),
        ],
        {"enabled": True},
    )
    record = harness.execute(harness.publish(data))
    assert undone_in(record.execution_id) == ["b"]
    assert [e["nodeId"] for e in record.compensation_summary["entries"]] == ["b"]
    assert set(comp_rows(record)) == {"b#comp"}
    assert record.compensation_status == "completed"


def test_a_circuit_open_failure_never_triggers_the_unwind(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    for _ in range(CircuitBreakerSettings().failure_threshold):
        harness.runner.breakers.record_failure("failing", CircuitBreakerSettings())
    data = compensated_chain([("a", "recorder", UNDO), ("b", "failing", None)], {"enabled": True})
    record = harness.execute(harness.publish(data))
    assert record.status == "failed"
    assert record.node_results["b"].error["type"] == "CircuitOpen"
    assert INVOCATIONS[(record.execution_id, "b")] == 0
    assert undone_in(record.execution_id) == []
    assert comp_rows(record) == {}
    assert "compensationStatus" not in record.to_data()


def test_a_circuit_open_failure_elsewhere_holds_the_unwind_for_the_whole_run(
    tmp_path: Path,
) -> None:
    harness = governed_harness(tmp_path)
    for _ in range(CircuitBreakerSettings().failure_threshold):
        harness.runner.breakers.record_failure("flaky", CircuitBreakerSettings())
    data = {
        "configuration": {"compensation": {"enabled": True}},
        "nodes": [
            {"id": "root", "agentId": "recorder", "compensation": UNDO},
            {"id": "boom", "agentId": "failing"},
            {"id": "open", "agentId": "flaky"},
        ],
        "edges": [{"source": "root", "target": "boom"}, {"source": "root", "target": "open"}],
    }
    record = harness.execute(harness.publish(data))
    assert record.node_results["boom"].error["type"] == "Boom"
    assert record.node_results["open"].error["type"] == "CircuitOpen"
    assert undone_in(record.execution_id) == []
    assert "compensationStatus" not in record.to_data()


def test_an_unresolved_argument_template_fails_closed(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    data = compensated_chain(
        [
            ("a", "recorder", {"tool": "undo", "args": {"ticket": "${output.ticketId}"}}),
            ("b", "failing", None),
        ],
        {"enabled": True},
    )
    record = harness.execute(harness.publish(data))
    assert undone_in(record.execution_id) == []
    row = record.node_results["a#comp"]
    assert row.status == "compensation_failed"
    assert row.error["type"] == "TemplateError"
    assert row.error["failureClass"] == "UNRESOLVED_TEMPLATE"
    assert record.compensation_status == "partial"


@pytest.mark.parametrize("pre_approved", [True, False])
def test_a_compensation_passes_the_approval_gate(tmp_path: Path, pre_approved: bool) -> None:
    harness = governed_harness(tmp_path)
    data = compensated_chain([("a", "recorder", UNDO), ("b", "failing", None)], {"enabled": True})
    data["configuration"]["governance"] = {"requireApproval": ["undo"]}
    started = harness.runner.start(harness.publish(data).id)
    execution_id = started.execution_id
    if pre_approved:
        harness.runner.human_tasks.decide(
            execution_id, "a#comp", approved=True, by="ana", comment="roll back"
        )
    record = asyncio.run(harness.runner.run(execution_id))
    assert record.status == "failed"
    if pre_approved:
        assert undone_in(execution_id) == ["a"]
        assert record.compensation_status == "completed"
    else:
        assert undone_in(execution_id) == []
        row = record.node_results["a#comp"]
        assert row.status == "compensation_failed"
        assert row.error["failureClass"] == "APPROVAL_ABSENT"
        assert record.compensation_status == "partial"
        task = harness.runner.human_tasks.get(execution_id, "a#comp")
        assert task is not None and task.input == {"node": "a"}


# --- a runner that died during the unwind ----------------------------------------------------


def died_during_unwind(harness: Harness, finished_b: str | None) -> str:
    """a → b → c, c failed, the unwind started; b's compensation row is left ``finished_b``
    (or compensating when None). Returns the execution id."""
    data = compensated_chain(
        [("a", "recorder", UNDO), ("b", "recorder", UNDO), ("c", "failing", None)],
        {"enabled": True},
    )
    record = harness.runner.start(harness.publish(data).id)
    execution_id = record.execution_id
    repo = harness.executions
    repo.set_execution_status(execution_id, "running", "execution.started")
    for node_id in ("a", "b"):
        repo.set_node_status(execution_id, node_id, "running", "node.started")
        repo.set_node_status(
            execution_id, node_id, "completed", "node.completed", output={"node": node_id}
        )
    error = {"type": "Boom", "message": "x", "failureClass": "AGENT_ERROR"}
    repo.set_node_status(execution_id, "c", "running", "node.started")
    repo.set_node_status(execution_id, "c", "failed", "node.failed", error=error)
    repo.set_execution_status(execution_id, "failed", "execution.failed", error=error)
    repo.set_compensation_state(execution_id, "running", {"entries": []}, "compensation.unwind")
    repo.begin_compensation(execution_id, "b#comp", 1_000_000, {"tool": "undo"})
    if finished_b is not None:
        repo.set_node_status(execution_id, "b#comp", finished_b, "compensation.compensated")
    repo.claim(execution_id, dead_owner(), None, record.created_at)
    return execution_id


def test_a_compensation_interrupted_by_a_dead_runner_is_not_repeated(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    execution_id = died_during_unwind(harness, None)
    record = asyncio.run(harness.runner.run(execution_id))
    assert record.status == "failed"
    assert undone_in(execution_id) == []
    row = record.node_results["b#comp"]
    assert row.status == "compensation_failed"
    assert row.error["type"] == "Interrupted"
    assert row.error["failureClass"] == "INTERRUPTED"
    assert record.compensation_status == "partial"
    assert [e["status"] for e in record.compensation_summary["entries"]] == [
        "compensation_failed",
        "not_started",
    ]


def test_a_compensation_finished_before_a_restart_is_not_repeated(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    execution_id = died_during_unwind(harness, "compensated")
    record = asyncio.run(harness.runner.run(execution_id))
    assert undone_in(execution_id) == ["a"]
    assert record.compensation_status == "completed"
    assert [e["status"] for e in record.compensation_summary["entries"]] == [
        "compensated",
        "compensated",
    ]
    # A finished unwind is not started again.
    again = asyncio.run(harness.runner.run(execution_id))
    assert undone_in(execution_id) == ["a"]
    assert again.to_data() == record.to_data()
