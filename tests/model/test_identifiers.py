"""Node ids and workflow ids follow one documented pattern, whatever the way in."""

from typing import Any

import pytest
from pydantic import ValidationError

from studio.model import Node, Workflow, load_blueprint_folder, validate_definition
from studio.model.document import WorkflowDocument
from studio.model.identifiers import ID_PATTERN, MAX_ID_CHARS, identifier_problem, is_identifier
from tests.cli_runner import REPO_ROOT

BAD_IDS = [
    "create-ticket#comp",
    "a#b",
    "a\nb",
    "a\r\nb",
    "a\x00b",
    "a/b",
    "..",
    "../../etc",
    "a\\b",
    "a b",
    "",
    "-a",
    ".hidden",
    "_a",
    "ünïcode",
    "x" * (MAX_ID_CHARS + 1),
]
GOOD_IDS = ["a", "A", "7", "say-hello", "node_1", "v1.2", "2024-01-25", "yes", "x" * MAX_ID_CHARS]


def with_node_id(node_id: str) -> dict[str, Any]:
    return {"nodes": [{"id": node_id, "agentId": "demo-echo-agent"}]}


@pytest.mark.parametrize("node_id", BAD_IDS)
def test_a_node_id_outside_the_pattern_is_a_validation_error_showing_the_pattern(
    node_id: str,
) -> None:
    (problem,) = validate_definition(with_node_id(node_id))
    assert problem.code == "structure.identifier"
    assert problem.path == "nodes[0].id"
    assert f"(pattern {ID_PATTERN})" in problem.message
    assert "\n" not in problem.describe() and "\x00" not in problem.describe()


@pytest.mark.parametrize("node_id", GOOD_IDS)
def test_a_node_id_in_the_pattern_is_fine(node_id: str) -> None:
    assert validate_definition(with_node_id(node_id)) == []


def test_the_message_names_the_id_escaped_and_the_rule() -> None:
    (problem,) = validate_definition(with_node_id("a\nb#comp"))
    assert problem.describe() == (
        "error: nodes[0].id: 'a\\nb#comp' is not a valid id: expected a letter or digit, then "
        "letters, digits, '.', '_' or '-', at most 128 characters "
        "(pattern [A-Za-z0-9][A-Za-z0-9._-]{0,127}) [structure.identifier]"
    )


def test_a_long_id_is_shown_cut_short() -> None:
    problem = identifier_problem("y" * 10_000, "node id")
    assert problem is not None
    assert problem.startswith(f"'{'y' * 40}'… is not a valid node id")


@pytest.mark.parametrize("workflow_id", ["../../etc/passwd", "wf\n1", "wf#comp"])
def test_a_workflow_id_outside_the_pattern_is_refused(workflow_id: str) -> None:
    (problem,) = validate_definition({"id": workflow_id})
    assert (problem.code, problem.path) == ("structure.identifier", "id")
    with pytest.raises(ValidationError, match="is not a valid id"):
        Workflow(id=workflow_id)


def test_ids_the_store_assigns_follow_the_pattern() -> None:
    assert is_identifier("78e5d537-1c2b-4c7e-9a51-0d3f2b1e6a90")


def test_nodes_built_in_code_follow_the_pattern_too() -> None:
    with pytest.raises(ValidationError, match="is not a valid id"):
        Node(id="a#comp", agent_id="x")


def test_every_seed_blueprint_follows_the_pattern() -> None:
    blueprints, failures = load_blueprint_folder(REPO_ROOT / "blueprints")
    assert failures == []
    node_ids = [node.id for blueprint in blueprints for node in blueprint.workflow.nodes]
    assert len(blueprints) == 5 and all(is_identifier(node_id) for node_id in node_ids)


def test_a_new_node_named_after_a_long_agent_name_still_gets_a_valid_id() -> None:
    document = WorkflowDocument(Workflow())
    base = "agent-" * 40
    first = document.unique_node_id(base)
    document.add_node(Node(id=first, agent_id="x"))
    second = document.unique_node_id(base)
    assert is_identifier(first) and is_identifier(second) and first != second
    assert second.endswith("-2") and len(second) == MAX_ID_CHARS
