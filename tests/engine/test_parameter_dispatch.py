"""The engine refuses to dispatch a node whose parameters break its agent's schema."""

from pathlib import Path

from studio.model import AgentDefinition
from tests.engine.runner_harness import INVOCATIONS, make_harness


def counter_with(schema: dict) -> AgentDefinition:
    """The harness's counting agent, declaring ``schema`` for its parameters."""
    return AgentDefinition(id="counter", name="Counter", kind="counting", parameters=schema)


def test_a_node_whose_parameters_break_the_schema_fails_without_running(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    workflow = harness.publish(
        {
            "nodes": [
                {"id": "wait", "agentId": "counter", "configuration": {"parameters": {"sleep": 5}}}
            ]
        }
    )
    # The agent's definition changed after the workflow was published.
    harness.agents.add(
        counter_with({"type": "object", "properties": {"sleep": {"type": "number", "maximum": 1}}})
    )
    record = harness.execute(workflow)

    result = record.node_results["wait"]
    assert (record.status, result.status) == ("failed", "failed")
    assert result.error["type"] == "InvalidParameters"
    assert result.error["message"] == (
        "node 'wait': parameter 'sleep': Must be at most 1. (the schema of agent 'counter')"
    )
    assert INVOCATIONS[(record.execution_id, "wait")] == 0
    assert result.retry_count == 0


def test_defaults_of_the_schema_count_as_set(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"sleep": {"type": "number", "default": 0}},
        "required": ["sleep"],
    }
    harness = make_harness(tmp_path)
    harness.agents.add(counter_with(schema))
    record = harness.execute(harness.publish({"nodes": [{"id": "a", "agentId": "counter"}]}))
    assert record.status == "completed"
