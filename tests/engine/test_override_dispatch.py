"""The agent receives node configuration merged over workflow configuration, with the
over-cap overrides left out (never truncated) and a warning in the log."""

import json
from pathlib import Path
from typing import Any

import pytest

from studio.engine.agent_kinds.base import AgentCall, AgentKind
from studio.engine.logs import configure_logging
from studio.model import AgentDefinition
from tests.engine.runner_harness import make_harness


class ConfigurationEcho(AgentKind):
    """Outputs the configuration the agent was given."""

    name = "configuration-echo"

    async def run(self, call: AgentCall) -> Any:
        return call.configuration


def run_with(tmp_path: Path, workflow_configuration: dict, node_configuration: dict) -> dict:
    harness = make_harness(tmp_path)
    harness.runner.node_runner.dispatcher.kinds.register(ConfigurationEcho)
    harness.agents.add(AgentDefinition(id="show", name="Show", kind="configuration-echo"))
    workflow = harness.publish(
        {
            "configuration": workflow_configuration,
            "nodes": [{"id": "n", "agentId": "show", "configuration": node_configuration}],
        }
    )
    record = harness.execute(workflow)
    assert record.status == "completed"
    return record.output


def test_node_configuration_wins_key_by_key(tmp_path: Path) -> None:
    given = run_with(
        tmp_path,
        {
            "modelOverride": "wf-model",
            "systemPromptAddition": "be brief",
            "parameters": {"a": 1, "b": 2},
        },
        {"modelOverride": "node-model", "parameters": {"b": 3}},
    )
    assert given["modelOverride"] == "node-model"
    assert given["systemPromptAddition"] == "be brief"
    assert given["parameters"] == {"a": 1, "b": 3}


def test_an_over_cap_prompt_addition_is_skipped_and_logged(tmp_path: Path) -> None:
    log_file = tmp_path / "studio.log"
    configure_logging(log_file)
    try:
        given = run_with(
            tmp_path, {}, {"systemPromptAddition": "x" * 4001, "modelOverride": "m" * 256}
        )
    finally:
        configure_logging(None)
    assert "systemPromptAddition" not in given
    assert given["modelOverride"] == "m" * 256
    warnings = [
        json.loads(line)
        for line in log_file.read_text().splitlines()
        if json.loads(line)["level"] == "WARN"
    ]
    assert warnings[0]["length"] == 4001 and warnings[0]["cap"] == 4000
    assert warnings[0]["nodeId"] == "n"


def test_the_cap_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUDIO_MAX_PROMPT_ADDITION_CHARS", "10")
    given = run_with(tmp_path, {}, {"systemPromptAddition": "eleven char"})
    assert "systemPromptAddition" not in given
    monkeypatch.setenv("STUDIO_MAX_PROMPT_ADDITION_CHARS", "not a number")
    assert (
        run_with(tmp_path / "again", {}, {"systemPromptAddition": "x" * 4000})[
            "systemPromptAddition"
        ]
        == "x" * 4000
    )
