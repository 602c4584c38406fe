"""Structural validation of raw definition data: what is malformed, and where."""

from typing import Any

import pytest

from studio.model import DefinitionError, Problem, Workflow, parse_workflow, validate_definition
from studio.model.structure import format_path, load_workflow_data


def node(node_id: str, agent_id: str = "demo-echo-agent", **extra: Any) -> dict[str, Any]:
    return {"id": node_id, "agentId": agent_id, **extra}


def edge(source: str, target: str, **extra: Any) -> dict[str, Any]:
    return {"source": source, "target": target, **extra}


def codes(problems: list[Problem]) -> list[str]:
    return [problem.code for problem in problems]


def only(problems: list[Problem]) -> Problem:
    assert len(problems) == 1, problems
    return problems[0]


def test_sound_definition_has_no_problems() -> None:
    data = {"nodes": [node("a"), node("b")], "edges": [edge("a", "b")]}
    workflow, problems = parse_workflow(data)
    assert problems == []
    assert isinstance(workflow, Workflow)
    assert validate_definition(data) == []


def test_unknown_operator_names_the_operator_and_the_edge() -> None:
    data = {
        "nodes": [node("a"), node("b")],
        "edges": [edge("a", "b", condition={"field": "score", "operator": "between"})],
    }
    problem = only(validate_definition(data))
    assert problem.is_error
    assert "between" in problem.message
    assert "unknown operator" in problem.message
    assert problem.edge_id == "a->b"
    assert problem.path == "edges[0].condition.operator"
    assert "edge 'a->b'" in problem.describe()


def test_unknown_operator_lists_the_operators_that_exist() -> None:
    data = {
        "nodes": [node("a"), node("b")],
        "edges": [edge("a", "b", id="route", condition={"field": "f", "operator": "=="})],
    }
    problem = only(validate_definition(data))
    assert problem.edge_id == "route"
    for operator in ("equals", "notEquals", "contains", "greaterThan", "lessThan", "exists"):
        assert f"'{operator}'" in problem.message


def test_edge_to_a_missing_node_names_the_missing_id() -> None:
    data = {"nodes": [node("a")], "edges": [edge("a", "ghost")]}
    workflow, problems = parse_workflow(data)
    problem = only(problems)
    assert workflow is not None
    assert problem.code == "edge.missing-node"
    assert problem.edge_id == "a->ghost"
    assert "'ghost'" in problem.message
    assert "target" in problem.message


def test_edge_from_a_missing_node_names_the_missing_id() -> None:
    data = {"nodes": [node("b")], "edges": [edge("ghost", "b", id="e1")]}
    problem = only(validate_definition(data))
    assert (problem.code, problem.edge_id) == ("edge.missing-node", "e1")
    assert "source 'ghost'" in problem.message


def test_duplicate_node_id_is_an_error_on_that_node() -> None:
    data = {"nodes": [node("a"), node("a"), node("b")], "edges": [edge("a", "b")]}
    problem = only(validate_definition(data))
    assert (problem.code, problem.node_id) == ("node.duplicate-id", "a")
    assert "2 nodes" in problem.message


def test_duplicate_edge_id_is_an_error_on_that_edge() -> None:
    data = {
        "nodes": [node("a"), node("b"), node("c")],
        "edges": [edge("a", "b", id="e"), edge("b", "c", id="e")],
    }
    problem = only(validate_definition(data))
    assert (problem.code, problem.edge_id) == ("edge.duplicate-id", "e")


def test_wrong_type_points_at_the_path_and_the_node() -> None:
    data = {"nodes": [node("fetch", retryPolicy={"maxRetries": "3"})]}
    workflow, problems = parse_workflow(data)
    problem = only(problems)
    assert workflow is None
    assert problem.path == "nodes[0].retryPolicy.maxRetries"
    assert problem.node_id == "fetch"
    assert problem.code == "structure.int_type"
    assert problem.message.startswith("retryPolicy.maxRetries: expected a whole number")


def test_wrong_type_in_a_later_node_names_that_node() -> None:
    data = {"nodes": [node("a"), node("b", timeout="soon")]}
    problem = only(validate_definition(data))
    assert (problem.path, problem.node_id) == ("nodes[1].timeout", "b")


def test_every_malformed_field_is_reported_at_once() -> None:
    data = {"version": "2", "nodes": [node("a", requiresApproval="no"), {"id": "b"}]}
    problems = validate_definition(data)
    assert {problem.path for problem in problems} == {
        "version",
        "nodes[0].requiresApproval",
        "nodes[1].agentId",
    }
    assert all(problem.is_error for problem in problems)


def test_unknown_key_points_at_where_it_is() -> None:
    problem = only(validate_definition({"nodes": [node("a", retries=3)]}))
    assert problem.code == "structure.extra_forbidden"
    assert (problem.path, problem.node_id) == ("nodes[0].retries", "a")


def test_cycle_is_an_error_naming_the_loop() -> None:
    data = {
        "nodes": [node("a"), node("b"), node("c")],
        "edges": [edge("a", "b"), edge("b", "c"), edge("c", "a")],
    }
    workflow, problems = parse_workflow(data)
    problem = only(problems)
    assert workflow is not None
    assert problem.code == "graph.cycle"
    assert "a -> b -> c -> a" in problem.message
    assert problem.node_id == "a"


def test_cycle_behind_an_acyclic_start_names_only_the_loop() -> None:
    data = {
        "nodes": [node("start"), node("x"), node("y")],
        "edges": [edge("start", "x"), edge("x", "y"), edge("y", "x")],
    }
    problem = only(validate_definition(data))
    assert problem.code == "graph.cycle"
    assert "x -> y -> x" in problem.message
    assert "start" not in problem.message


def test_self_loop_is_a_cycle() -> None:
    problem = only(validate_definition({"nodes": [node("a")], "edges": [edge("a", "a")]}))
    assert problem.code == "graph.cycle"
    assert "a -> a" in problem.message


@pytest.mark.parametrize(
    ("data", "kind"), [([], "list"), ("text", "str"), (None, "NoneType"), (3, "int")]
)
def test_definition_that_is_not_a_mapping_is_an_error(data: Any, kind: str) -> None:
    workflow, problems = parse_workflow(data)
    problem = only(problems)
    assert workflow is None
    assert problem.code == "structure.not-a-mapping"
    assert kind in problem.message


def test_publish_rules_wait_until_the_structure_is_sound() -> None:
    data = {
        "nodes": [node("a", "placeholder-x"), node("b"), node("lonely")],
        "edges": [edge("a", "b"), edge("b", "a")],
    }
    assert codes(validate_definition(data, publish=True)) == ["graph.cycle"]


def test_loading_a_broken_definition_raises_with_every_problem() -> None:
    data = {"nodes": [node("a"), node("a")], "edges": [edge("a", "ghost")]}
    with pytest.raises(DefinitionError) as raised:
        load_workflow_data(data)
    assert codes(raised.value.problems) == ["node.duplicate-id", "edge.missing-node"]
    assert "ghost" in str(raised.value)


@pytest.mark.parametrize(
    ("location", "text"),
    [
        ((), "workflow"),
        (("nodes",), "nodes"),
        (("nodes", 2, "retryPolicy"), "nodes[2].retryPolicy"),
        (("configuration", "parameters", "k"), "configuration.parameters.k"),
    ],
)
def test_error_locations_read_like_paths(location: tuple, text: str) -> None:
    assert format_path(location) == text


def test_problem_describes_itself_in_one_line() -> None:
    problem = only(validate_definition({"nodes": [node("a")], "edges": [edge("a", "z")]}))
    assert problem.describe() == (
        "error: edge 'a->z': target 'z' is not a node of this workflow [edge.missing-node]"
    )
    assert problem.to_data() == {
        "severity": "error",
        "code": "edge.missing-node",
        "message": "target 'z' is not a node of this workflow",
        "edgeId": "a->z",
    }


def test_edge_without_a_source_reports_only_the_missing_source() -> None:
    data = {"nodes": [node("a"), node("b")], "edges": [{"target": "b"}]}
    problem = only(validate_definition(data))
    assert problem.path == "edges[0].source"
    assert problem.edge_id != "None->b"


def test_a_credential_that_is_not_a_reference_is_refused_without_repeating_it() -> None:
    data = {
        "nodes": [{"id": "a", "agentId": "x"}],
        "configuration": {
            "credentials": {
                "ok": "env:API_TOKEN",
                "vault": "keyring:https://api.example.com/v1/token",
                "pasted": "sk-live-0123456789",
            }
        },
    }
    problems = validate_definition(data)
    assert [p.code for p in problems] == ["credentials.not-a-reference"]
    assert problems[0].path == "configuration.credentials.pasted"
    assert "sk-live" not in problems[0].message


@pytest.mark.parametrize("data", [{"edges": [1]}, {"nodes": [], "edges": [1]}])
def test_an_edge_that_is_not_a_mapping_is_a_validation_error(data: dict[str, Any]) -> None:
    problem = only(validate_definition(data))
    assert problem.describe() == (
        "error: edges[0]: expected a mapping of fields, not a number [structure.model_type]"
    )


def test_an_edge_whose_target_is_not_text_is_named_by_its_path() -> None:
    data = {"nodes": [node("a")], "edges": [{"source": "a", "target": 7}]}
    problem = only(validate_definition(data))
    assert (problem.path, problem.edge_id) == ("edges[0].target", None)


@pytest.mark.parametrize(
    ("value", "kind"), [([], "a list"), ("x", "a text"), (None, "nothing"), (True, "true or false")]
)
def test_a_node_that_is_not_a_mapping_says_what_it_is(value: Any, kind: str) -> None:
    problem = only(validate_definition({"nodes": [value]}))
    assert problem.describe() == (
        f"error: nodes[0]: expected a mapping of fields, not {kind} [structure.model_type]"
    )
