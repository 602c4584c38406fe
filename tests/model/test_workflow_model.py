"""The workflow model: the documented worked example, camelCase keys and strict types."""

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from studio.model import (
    Compensation,
    CompensationSettings,
    Edge,
    Node,
    Workflow,
    export_text,
    import_text,
    load_workflow,
)
from tests.model.workflow_strategies import example_datetime

WORKED_EXAMPLE = Path(__file__).parent / "data" / "compensation-worked-example.json"


@pytest.fixture
def worked_example() -> Workflow:
    return load_workflow(WORKED_EXAMPLE)


def test_worked_example_loads_as_written(worked_example: Workflow) -> None:
    assert [node.id for node in worked_example.nodes] == [
        "create-ticket",
        "notify-oncall",
        "close-out",
    ]
    assert [node.agent_id for node in worked_example.nodes] == [
        "ticketing-agent",
        "paging-agent",
        "reconciliation-agent",
    ]


def test_worked_example_opts_in_to_compensation(worked_example: Workflow) -> None:
    settings = worked_example.configuration.compensation
    assert settings is not None
    assert settings.enabled is True
    assert settings.trigger.mode == "on_terminal_failure"
    assert settings.trigger.min_completed_nodes == 1
    assert settings.on_failure == "stop"


def test_worked_example_create_ticket_compensates_by_closing_the_ticket(
    worked_example: Workflow,
) -> None:
    node = worked_example.node("create-ticket")
    assert node is not None
    assert node.compensation == Compensation(
        tool="close_ticket",
        args={"ticketId": "${output.ticketId}", "reason": "workflow rolled back"},
        side_effecting=True,
    )


def test_worked_example_other_nodes_have_no_compensation(worked_example: Workflow) -> None:
    assert [node.compensation for node in worked_example.nodes[1:]] == [None, None]


def test_worked_example_edges_are_named_after_their_ends(worked_example: Workflow) -> None:
    assert [(edge.id, edge.source, edge.target) for edge in worked_example.edges] == [
        ("create-ticket->notify-oncall", "create-ticket", "notify-oncall"),
        ("notify-oncall->close-out", "notify-oncall", "close-out"),
    ]


def test_worked_example_is_a_new_draft(worked_example: Workflow) -> None:
    assert (worked_example.id, worked_example.status, worked_example.version) == (
        None,
        "DRAFT",
        1,
    )


def test_worked_example_survives_export_and_import(worked_example: Workflow) -> None:
    for fmt in ("yaml", "json"):
        assert import_text(export_text(worked_example, fmt), fmt) == worked_example


def test_compensation_is_off_unless_a_workflow_opts_in() -> None:
    assert Workflow().configuration.compensation is None
    assert CompensationSettings().enabled is False
    assert Compensation(tool="undo").side_effecting is True


def test_dumped_keys_are_camel_case() -> None:
    workflow = Workflow(
        app_id="app",
        org_id="org",
        created_at=example_datetime(),
        updated_at=example_datetime(),
        is_blueprint=True,
        nodes=[Node(id="a", agent_id="x", requires_approval=True)],
    )
    data = workflow.to_data()
    assert {"appId", "orgId", "createdAt", "updatedAt", "isBlueprint"} <= data.keys()
    assert {"agentId", "retryPolicy", "requiresApproval"} <= data["nodes"][0].keys()
    assert "_" not in "".join(_all_keys(data))


def test_nested_keys_are_camel_case() -> None:
    data = Workflow.model_validate(
        {
            "configuration": {
                "agentProperties": {},
                "systemPromptAddition": "x",
                "modelOverride": "m",
                "compensation": {"trigger": {"minCompletedNodes": 2}, "onFailure": "stop"},
            },
            "nodes": [
                {
                    "id": "a",
                    "agentId": "x",
                    "retryPolicy": {
                        "maxRetries": 1,
                        "backoffBase": 2.0,
                        "backoffMax": 3.0,
                        "retryableErrors": ["E"],
                    },
                    "compensation": {"tool": "t", "sideEffecting": False},
                }
            ],
        }
    )
    assert data.configuration.compensation is not None
    assert data.configuration.compensation.trigger.min_completed_nodes == 2
    policy = data.nodes[0].retry_policy
    assert policy is not None
    assert (policy.max_retries, policy.backoff_base, policy.backoff_max) == (1, 2.0, 3.0)
    assert data.nodes[0].compensation == Compensation(tool="t", side_effecting=False)


def test_edge_written_with_an_id_keeps_it() -> None:
    assert Edge.model_validate({"id": "e1", "source": "a", "target": "b"}).id == "e1"


@pytest.mark.parametrize(
    "data",
    [
        {"nme": "typo"},
        {"nodes": [{"id": "a", "agentId": "x", "retries": 3}]},
        {"nodes": [{"id": "a", "agentId": "x", "retryPolicy": {"maxRetry": 3}}]},
        {"edges": [{"source": "a", "target": "b", "label": "x"}]},
        {"configuration": {"compensation": {"enabled": True, "mode": "x"}}},
    ],
)
def test_unknown_key_is_rejected(data: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        Workflow.model_validate(data)


@pytest.mark.parametrize(
    "node",
    [
        {"id": "a", "agentId": "x", "retryPolicy": {"maxRetries": "3"}},
        {"id": "a", "agentId": "x", "retryPolicy": {"maxRetries": True}},
        {"id": "a", "agentId": "x", "retryPolicy": {"maxRetries": 2.5}},
        {"id": "a", "agentId": "x", "timeout": "30"},
        {"id": "a", "agentId": "x", "position": {"x": "1.5", "y": 0}},
        {"id": "a", "agentId": "x", "requiresApproval": "true"},
        {"id": "a", "agentId": "x", "name": 7},
        {"id": 1, "agentId": "x"},
        {"id": "a", "agentId": "x", "compensation": {"tool": "t", "sideEffecting": "yes"}},
    ],
)
def test_wrong_type_is_rejected_not_coerced(node: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        Workflow.model_validate({"nodes": [node]})


@pytest.mark.parametrize(
    "data",
    [
        {"version": "2"},
        {"version": 0},
        {"status": "ARCHIVED"},
        {"timeout": 0},
        {"timeout": float("inf")},
        {"configuration": {"compensation": {"onFailure": "continue"}}},
        {"configuration": {"compensation": {"trigger": {"mode": "always"}}}},
        {"configuration": {"compensation": {"trigger": {"minCompletedNodes": -1}}}},
        {"nodes": [{"id": "", "agentId": "x"}]},
        {"nodes": [{"id": "a", "agentId": "x", "compensation": {"tool": ""}}]},
    ],
)
def test_out_of_range_value_is_rejected(data: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        Workflow.model_validate(data)


def test_whole_number_is_accepted_where_a_float_is_expected() -> None:
    workflow = Workflow.model_validate({"timeout": 30, "nodes": [{"id": "a", "agentId": "x"}]})
    assert workflow.timeout == 30.0


def test_timestamps_are_read_from_iso_text() -> None:
    workflow = Workflow.model_validate({"createdAt": "2025-01-25T12:15:30Z"})
    assert workflow.created_at == example_datetime()


def test_assignment_is_validated_too() -> None:
    node = Node(id="a", agent_id="x")
    with pytest.raises(ValidationError):
        node.timeout = "30"  # type: ignore[assignment]


def test_node_label_falls_back_to_its_id() -> None:
    assert Node(id="a", agent_id="x").label == "a"
    assert Node(id="a", agent_id="x", name="Alpha").label == "Alpha"


def _all_keys(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [*data, *(key for value in data.values() for key in _all_keys(value))]
    if isinstance(data, list):
        return [key for item in data for key in _all_keys(item)]
    return []
