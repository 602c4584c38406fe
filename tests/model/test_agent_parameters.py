"""Agent parameters held to the agent's JSON Schema: one check for publish, dispatch and drawer."""

import subprocess
import sys

import pytest

from studio.model import AgentDefinition, AgentRegistry, Workflow
from studio.model.agent_parameters import (
    ParameterProblem,
    field_problem,
    merged_parameters,
    parameter_problems,
)
from studio.model.publish_rules import publish_problems
from tests.cli_runner import REPO_ROOT

SCHEMA = {
    "type": "object",
    "properties": {
        "delaySeconds": {"type": "number", "minimum": 0, "default": 0},
        "mode": {"enum": ["fast", "slow"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "options": {"type": "object"},
        "count": {"type": "integer", "exclusiveMaximum": 10},
    },
    "required": ["mode"],
}


def test_valid_parameters_have_no_problems() -> None:
    assert parameter_problems(SCHEMA, {"mode": "fast", "delaySeconds": 2, "tags": ["a"]}) == []


def test_each_failure_names_its_parameter_in_words_a_person_reads() -> None:
    problems = parameter_problems(
        SCHEMA, {"delaySeconds": -1, "tags": "x", "options": [1], "count": 10}
    )
    assert problems == [
        ParameterProblem("count", "Must be less than 10."),
        ParameterProblem("delaySeconds", "Must be at least 0."),
        ParameterProblem("mode", "Required, and not set."),
        ParameterProblem("options", "Expected a mapping of keys to values, found list."),
        ParameterProblem("tags", "Expected a list, found str."),
    ]


def test_a_value_outside_the_enum_and_a_nested_failure() -> None:
    schema = {
        "type": "object",
        "properties": {
            "mode": {"enum": ["fast"]},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
    }
    assert parameter_problems(schema, {"mode": "slow", "tags": ["a", 3]}) == [
        ParameterProblem("mode", "This value is not one of the choices the agent declares."),
        ParameterProblem("tags[1]", "Expected text, found int."),
    ]


def test_one_field_is_checked_against_its_own_schema() -> None:
    assert field_problem({"type": "number", "maximum": 2}, 2.5) == "Must be at most 2."
    assert field_problem({"type": "number", "maximum": 2}, 2) is None
    # Keywords without words of their own keep the validator's message.
    assert field_problem({"type": "string", "maxLength": 3}, "long") == "'long' is too long."


def test_defaults_fill_in_under_the_node_values() -> None:
    assert merged_parameters(SCHEMA, {"mode": "slow"}) == {"delaySeconds": 0, "mode": "slow"}


def test_an_agent_whose_schema_is_not_a_json_schema_is_refused() -> None:
    with pytest.raises(ValueError, match="parameters schema"):
        AgentDefinition(
            id="a",
            name="A",
            kind="echo",
            parameters={"type": "object", "properties": {"x": {"minimum": "zero"}}},
        )


def test_publish_names_the_node_and_the_parameter_of_each_failure() -> None:
    agents = AgentRegistry()
    agents.add(AgentDefinition(id="slow", name="Slow", kind="echo", parameters=SCHEMA))
    workflow = Workflow.model_validate(
        {
            "nodes": [
                {"id": "a", "agentId": "slow", "configuration": {"parameters": {"mode": "fast"}}},
                {
                    "id": "b",
                    "agentId": "slow",
                    "configuration": {"parameters": {"mode": "x", "delaySeconds": -2}},
                },
            ],
            "edges": [{"source": "a", "target": "b"}],
        }
    )
    problems = [p for p in publish_problems(workflow, agents) if p.code == "agent.parameter"]
    assert [(p.node_id, p.severity, p.message) for p in problems] == [
        ("b", "error", "parameter 'delaySeconds': Must be at least 0."),
        (
            "b",
            "error",
            "parameter 'mode': This value is not one of the choices the agent declares.",
        ),
    ]


def test_jsonschema_loads_when_a_schema_is_first_checked() -> None:
    checking = (
        "import sys\n"
        "import studio.model\n"
        "from studio.model.agent_parameters import refusal\n"
        "print('jsonschema' in sys.modules)\n"
        "refusal({'type': 'object', 'required': ['mode']}, {})\n"
        "print('jsonschema' in sys.modules)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", checking], capture_output=True, text=True, cwd=REPO_ROOT, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "True"]
