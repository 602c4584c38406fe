"""The runner's plan and rules: order (P2), the convergence barrier (P6), skipping and data flow."""

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.engine.rules.dag import (
    DagPlan,
    build_plan,
    decide,
    execution_output,
    find_downstream_subgraph,
    find_ready_nodes,
    find_root_nodes,
    find_sink_nodes,
    node_input,
)
from studio.model.workflow import Edge, EdgeCondition, Node, Workflow

STATUSES = (
    "pending",
    "running",
    "retrying",
    "waiting",
    "completed",
    "failed",
    "skipped",
    "cancelled",
)
TERMINAL = {"completed", "failed", "skipped", "cancelled"}
GO = EdgeCondition(field="go", operator="equals", value=True)
"""The condition the generated graphs use: the source's output says ``{"go": true}``."""

Link = tuple[str, str] | tuple[str, str, EdgeCondition | None]
SHORT_IDS = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,2}", fullmatch=True)
"""Node ids of one to three characters, in the pattern every node id follows."""


def workflow_of(node_ids: Iterable[str], links: Iterable[Link]) -> Workflow:
    """A workflow of echo nodes joined by (source, target[, condition]) links."""
    edges = [
        Edge(id=f"e{index}", source=link[0], target=link[1], condition=(*link, None)[2])
        for index, link in enumerate(links)
    ]
    return Workflow(nodes=[Node(id=node_id, agent_id="echo") for node_id in node_ids], edges=edges)


@st.composite
def dag_workflows(draw: st.DrawFn, conditional: bool = False) -> Workflow:
    """A DAG: links only go forward in a hidden order; nodes are listed in a shuffled order."""
    hidden = draw(st.lists(SHORT_IDS, min_size=1, max_size=8, unique=True))
    pairs = [(a, b) for i, a in enumerate(hidden) for b in hidden[i + 1 :]]
    chosen = draw(st.lists(st.sampled_from(pairs), max_size=14)) if pairs else []
    conditions = st.sampled_from((None, GO)) if conditional else st.none()
    links = [(source, target, draw(conditions)) for source, target in chosen]
    return workflow_of(draw(st.permutations(hidden)), links)


def run_to_fixed_point(
    plan: DagPlan,
    outputs_of: Mapping[str, Any],
    failing: Iterable[str] = (),
    order: Iterable[str] | None = None,
) -> tuple[dict[str, str], dict[str, Any]]:
    """Apply ``decide`` to pending nodes, in the given order, until nothing changes."""
    statuses = dict.fromkeys(plan.node_ids, "pending")
    outputs: dict[str, Any] = {}
    visit, failing = list(order or plan.topological_order), set(failing)
    changed = True
    while changed:
        changed = False
        for node_id in visit:
            decision = decide(plan, node_id, statuses, outputs)
            if statuses[node_id] != "pending" or decision == "wait":
                continue
            changed = True
            if decision == "run" and node_id not in failing:
                statuses[node_id], outputs[node_id] = "completed", outputs_of.get(node_id)
            else:
                statuses[node_id] = {"run": "failed", "skip": "skipped", "fail": "failed"}[decision]
    return statuses, outputs


def diamond() -> DagPlan:
    """a → b, a → c, b → d, c → d, with a → b only when approved and a → c only when rejected."""
    approved = EdgeCondition(field="result.status", operator="equals", value="approved")
    rejected = EdgeCondition(field="result.status", operator="equals", value="rejected")
    links = [("a", "b", approved), ("a", "c", rejected), ("b", "d"), ("c", "d")]
    return build_plan(workflow_of("abcd", links))


# P2 -------------------------------------------------------------------------------------------


@settings(max_examples=200)
@given(dag_workflows(conditional=True))
def test_every_edge_goes_forward_in_the_topological_order(workflow: Workflow) -> None:
    plan = build_plan(workflow)
    assert sorted(plan.topological_order) == sorted(node.id for node in workflow.nodes)
    position = {node_id: index for index, node_id in enumerate(plan.topological_order)}
    assert all(position[edge.source] < position[edge.target] for edge in workflow.edges)
    assert_indexes_match_the_edges(plan, workflow)


def assert_indexes_match_the_edges(plan: DagPlan, workflow: Workflow) -> None:
    """The plan's node ids, incoming edges, predecessors and successors, checked naively."""
    assert plan.node_ids == tuple(node.id for node in workflow.nodes)
    for node_id in plan.node_ids:
        into = [edge for edge in workflow.edges if edge.target == node_id]
        out_of = [edge.target for edge in workflow.edges if edge.source == node_id]
        assert list(plan.incoming[node_id]) == into
        assert list(plan.predecessors[node_id]) == list(dict.fromkeys(e.source for e in into))
        assert list(plan.successors[node_id]) == list(dict.fromkeys(out_of))


def test_a_cycle_is_refused_with_its_nodes_named() -> None:
    workflow = workflow_of("abc", [("a", "b"), ("b", "c"), ("c", "b")])
    with pytest.raises(ValueError, match="cycle: b -> c -> b"):
        build_plan(workflow)


def test_a_self_loop_is_a_cycle() -> None:
    with pytest.raises(ValueError, match="cycle: a -> a"):
        build_plan(workflow_of("a", [("a", "a")]))


def test_an_edge_to_a_missing_node_is_refused() -> None:
    with pytest.raises(ValueError, match="edge 'e0': target 'z' is not a node"):
        build_plan(workflow_of("ab", [("a", "z")]))


def test_repeated_node_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="repeated: a"):
        build_plan(workflow_of("aab", []))


def test_an_empty_workflow_has_an_empty_plan() -> None:
    plan = build_plan(Workflow())
    assert plan.topological_order == []
    assert find_root_nodes(plan) == find_sink_nodes(plan) == []
    assert execution_output(plan, {}, {}) == {}


# Shape ----------------------------------------------------------------------------------------


def test_roots_sinks_and_downstream_of_a_diamond_with_a_tail() -> None:
    plan = build_plan(workflow_of("abcdex", [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")]))
    assert find_root_nodes(plan) == ["a", "e", "x"]
    assert find_sink_nodes(plan) == ["d", "e", "x"]
    assert plan.predecessors["d"] == ("b", "c")
    assert find_downstream_subgraph(plan, "a") == {"b", "c", "d"}
    assert find_downstream_subgraph(plan, "c") == {"d"}
    assert find_downstream_subgraph(plan, "d") == set()


def test_two_edges_between_the_same_nodes_are_one_predecessor() -> None:
    plan = build_plan(workflow_of("ab", [("a", "b"), ("a", "b")]))
    assert plan.predecessors["b"] == ("a",)
    assert len(plan.incoming["b"]) == 2


@settings(max_examples=200)
@given(dag_workflows(), st.data())
def test_downstream_subgraph_is_what_the_edges_reach(
    workflow: Workflow, data: st.DataObject
) -> None:
    plan = build_plan(workflow)
    start = data.draw(st.sampled_from(plan.node_ids))
    reached = find_downstream_subgraph(plan, start)
    assert start not in reached
    closed = {start} | reached
    assert all(edge.target in closed for edge in workflow.edges if edge.source in closed)
    position = {node_id: index for index, node_id in enumerate(plan.topological_order)}
    assert all(position[node_id] > position[start] for node_id in reached)


# P6: the convergence barrier ----------------------------------------------------------------


@settings(max_examples=200)
@given(dag_workflows(conditional=True), st.data())
def test_a_node_runs_or_skips_only_once_every_predecessor_completed_or_skipped(
    workflow: Workflow, data: st.DataObject
) -> None:
    plan = build_plan(workflow)
    size = len(plan.node_ids)
    drawn = data.draw(st.lists(st.sampled_from(STATUSES), min_size=size, max_size=size))
    go = data.draw(st.lists(st.booleans(), min_size=size, max_size=size))
    statuses = dict(zip(plan.node_ids, drawn, strict=True))
    outputs = {node_id: {"go": flag} for node_id, flag in zip(plan.node_ids, go, strict=True)}
    for node_id in plan.node_ids:
        decision = decide(plan, node_id, statuses, outputs)
        states = {statuses[source] for source in plan.predecessors[node_id]}
        if decision in ("run", "skip"):
            assert states <= {"completed", "skipped"}
        assert (decision == "wait") == (not states <= TERMINAL)
        assert (decision == "fail") == (
            states <= TERMINAL and bool(states & {"failed", "cancelled"})
        )
        if states == {"completed"} and all(e.condition is None for e in plan.incoming[node_id]):
            assert decision == "run"
        if states == {"skipped"}:
            assert decision == "skip"


@settings(max_examples=200)
@given(dag_workflows(conditional=True), st.data())
def test_a_run_skips_exactly_the_nodes_no_live_edge_reaches(
    workflow: Workflow, data: st.DataObject
) -> None:
    plan = build_plan(workflow)
    size = len(plan.node_ids)
    go = data.draw(st.lists(st.booleans(), min_size=size, max_size=size), label="go")
    outputs_of = {node_id: {"go": flag} for node_id, flag in zip(plan.node_ids, go, strict=True)}
    order = data.draw(st.permutations(plan.node_ids), label="visiting order")

    @cache
    def reached(node_id: str) -> bool:
        into = [edge for edge in workflow.edges if edge.target == node_id]
        return not into or any(
            reached(e.source) and (e.condition is None or outputs_of[e.source]["go"]) for e in into
        )

    statuses, _ = run_to_fixed_point(plan, outputs_of, order=order)
    assert statuses == {n: "completed" if reached(n) else "skipped" for n in plan.node_ids}


def test_seed_example_runs_the_approved_branch_and_skips_the_rejected_one() -> None:
    plan = diamond()
    statuses, _ = run_to_fixed_point(plan, {"a": {"result": {"status": "approved"}}})
    assert statuses == {"a": "completed", "b": "completed", "c": "skipped", "d": "completed"}
    statuses, _ = run_to_fixed_point(plan, {"a": {"result": {"status": "pending"}}})
    assert statuses == {"a": "completed", "b": "skipped", "c": "skipped", "d": "skipped"}


def test_a_false_edge_skips_its_whole_downstream_chain_while_the_other_branch_runs() -> None:
    never = EdgeCondition(field="go", operator="exists")
    links = [("a", "b", never), ("b", "c"), ("c", "d"), ("a", "x"), ("x", "y")]
    plan = build_plan(workflow_of("abcdxy", links))
    statuses, _ = run_to_fixed_point(plan, {"a": {"stop": True}})
    skipped = {n for n, s in statuses.items() if s == "skipped"}
    assert skipped == {"b"} | find_downstream_subgraph(plan, "b") == {"b", "c", "d"}
    assert statuses["x"] == statuses["y"] == "completed"


def test_a_failed_branch_fails_the_convergence_node_but_not_an_independent_branch() -> None:
    links = [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"), ("a", "e"), ("e", "f")]
    plan = build_plan(workflow_of("abcdef", links))
    statuses, _ = run_to_fixed_point(plan, {}, failing={"b"})
    assert statuses == {
        "a": "completed",
        "b": "failed",
        "c": "completed",
        "d": "failed",
        "e": "completed",
        "f": "completed",
    }


def test_a_convergence_node_waits_for_a_running_predecessor_even_if_another_failed() -> None:
    plan = build_plan(workflow_of("abc", [("a", "c"), ("b", "c")]))
    assert decide(plan, "c", {"a": "failed", "b": "running"}, {}) == "wait"
    assert decide(plan, "c", {"a": "cancelled", "b": "completed"}, {}) == "fail"
    assert decide(plan, "c", {"a": "skipped", "b": "completed"}, {}) == "run"
    assert decide(plan, "c", {"a": "skipped", "b": "skipped"}, {}) == "skip"
    assert decide(plan, "c", {"b": "completed"}, {}) == "wait"  # no status yet means pending


def test_ready_nodes_are_pending_runnable_nodes_in_topological_order() -> None:
    plan = build_plan(workflow_of("dcba", [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")]))
    assert find_ready_nodes(plan, {}, {}) == ["a"]
    after_a = {"a": "completed", "b": "pending", "c": "pending", "d": "pending"}
    assert find_ready_nodes(plan, after_a, {"a": 1}) == ["b", "c"]
    assert find_ready_nodes(plan, {**after_a, "b": "running"}, {"a": 1}) == ["c"]
    assert find_ready_nodes(plan, {**after_a, "b": "completed", "c": "retrying"}, {}) == []


# Data flow ------------------------------------------------------------------------------------


def test_a_root_gets_the_execution_input_and_a_single_successor_its_predecessor_output() -> None:
    plan = build_plan(workflow_of("abc", [("a", "b"), ("a", "b"), ("b", "c")]))
    statuses, outputs = run_to_fixed_point(plan, {"a": {"n": 1}, "b": [2]})
    assert node_input(plan, "a", {"in": 0}, outputs, statuses) == {"in": 0}
    assert node_input(plan, "b", {"in": 0}, outputs, statuses) == {"n": 1}
    assert node_input(plan, "c", {"in": 0}, outputs, statuses) == [2]
    assert execution_output(plan, outputs, statuses) is None  # c completed with no output


def test_a_convergence_node_gets_the_outputs_of_its_live_predecessors_by_id() -> None:
    off = EdgeCondition(field="ok", operator="equals", value=True)
    links = [("r", "a"), ("r", "b", off), ("r", "c"), ("a", "m"), ("b", "m"), ("c", "m", off)]
    plan = build_plan(workflow_of(["r", "a", "b", "c", "m"], links))
    statuses, outputs = run_to_fixed_point(plan, {"r": {"ok": False}, "a": "A", "c": {"ok": 0}})
    assert statuses["b"] == "skipped"
    assert statuses["m"] == "completed"
    assert node_input(plan, "m", None, outputs, statuses) == {"a": "A"}


def test_execution_output_is_the_single_sink_or_the_completed_sinks_by_id() -> None:
    single = build_plan(workflow_of("ab", [("a", "b")]))
    assert execution_output(single, {"a": 1, "b": 2}, {"a": "completed", "b": "completed"}) == 2
    skip = EdgeCondition(field="x", operator="exists")
    several = build_plan(workflow_of("abc", [("a", "b"), ("a", "c", skip)]))
    statuses, outputs = run_to_fixed_point(several, {"a": {}, "b": "B"})
    assert statuses["c"] == "skipped"
    assert execution_output(several, outputs, statuses) == {"b": "B"}
