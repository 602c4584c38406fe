"""Injection: data that looks like code, a shell command or a template stays data.

Every payload enters as the run's input, flows through an echo node and reaches a shell agent
(as an argv item and as an environment variable), a transform agent, an http agent talking to
a real server on 127.0.0.1, and a compensation tool's arguments. Each must arrive exactly as it
was sent, never rendered a second time, and nothing may run: the canary file the payloads try to
create must not exist afterwards.
"""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.model import AgentDefinition
from studio.model.execution import COMPENSATION_SUFFIX
from tests.cli_runner import run_studio
from tests.engine.runner_harness import Harness, make_harness
from tests.security.local_server import PROXY_VARIABLES, RecordingServer, recording_server

PAYLOADS = {
    "template-attribute": "${output.__class__}",
    "jinja-expression": "{{7*7}}",
    "command-substitution": "$(touch CANARY)",
    "backticks": "`touch CANARY`",
    "command-separator": "; touch CANARY",
    "rm-rf-root": "; rm -rf /",
    "template-in-data": "${input.other}",
    "percent-format": "%(x)s",
    "str-format": "{0.__class__}",
}
"""CANARY is replaced by an absolute path in the test's tmp_path."""

SECOND_RENDER = "RENDERED-A-SECOND-TIME"
"""What ``${input.other}`` and ``%(x)s`` would become if a payload were rendered again."""


@pytest.fixture(autouse=True)
def no_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in PROXY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture(params=list(PAYLOADS), ids=list(PAYLOADS))
def payload(request: pytest.FixtureRequest, canary: Path) -> Iterator[str]:
    """The payload with CANARY pointing into tmp_path; afterwards the canary must not exist."""
    yield PAYLOADS[request.param].replace("CANARY", str(canary))
    assert not canary.exists(), f"the payload ran a command: {canary} was created"


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    return tmp_path / "canary"


@pytest.fixture
def harness(tmp_path: Path) -> Harness:
    return make_harness(tmp_path)


@pytest.fixture
def server() -> Iterator[RecordingServer]:
    with recording_server() as running:
        yield running


def run_input(payload: str) -> dict[str, Any]:
    """The run's input: the payload, plus values a second rendering would pick up."""
    return {"text": payload, "other": SECOND_RENDER, "x": SECOND_RENDER}


def run_one_agent(harness: Harness, agent: AgentDefinition, payload: str) -> Any:
    """Run ``start`` (echo) → ``target`` (the agent); return the target's stored output."""
    harness.agents.add(agent)
    workflow = harness.publish(
        {
            "name": f"inject {agent.id}",
            "nodes": [
                {"id": "start", "agentId": "echo"},
                {"id": "target", "agentId": agent.id},
            ],
            "edges": [{"source": "start", "target": "target"}],
        }
    )
    record = harness.execute(workflow, run_input(payload))
    assert record.status == "completed", record.node_results["target"].error
    stored = harness.executions.get(record.execution_id)
    assert stored.node_results["target"].input == run_input(payload)
    return stored.node_results["target"].output


# --- (a) shell ------------------------------------------------------------------------------


def test_a_shell_argv_item_receives_the_payload_as_one_literal_argument(
    harness: Harness, payload: str
) -> None:
    agent = AgentDefinition(
        id="argv-printer",
        name="argv printer",
        kind="shell",
        settings={"argv": ["printf", "%s", "${input.text}"]},
    )
    assert run_one_agent(harness, agent, payload) == {"text": payload}


def test_an_embedded_argv_item_keeps_the_payload_literal(harness: Harness, payload: str) -> None:
    agent = AgentDefinition(
        id="argv-embedded",
        name="argv embedded",
        kind="shell",
        settings={"argv": ["printf", "%s", "<${input.text}>"]},
    )
    assert run_one_agent(harness, agent, payload) == {"text": f"<{payload}>"}


def test_a_shell_env_variable_receives_the_payload_literally(
    harness: Harness, payload: str
) -> None:
    agent = AgentDefinition(
        id="env-printer",
        name="env printer",
        kind="shell",
        settings={
            "argv": ["sh", "-c", 'printf %s "$TEXT"'],
            "env": {"TEXT": "${input.text}"},
        },
    )
    assert run_one_agent(harness, agent, payload) == {"text": payload}


def test_a_shell_program_reads_the_payload_unchanged_from_stdin(
    harness: Harness, payload: str
) -> None:
    agent = AgentDefinition(
        id="stdin-cat", name="stdin cat", kind="shell", settings={"argv": ["cat"]}
    )
    assert run_one_agent(harness, agent, payload) == run_input(payload)


# --- (b) transform --------------------------------------------------------------------------


def test_a_transform_copies_and_embeds_the_payload_literally(
    harness: Harness, payload: str
) -> None:
    agent = AgentDefinition(
        id="copier",
        name="copier",
        kind="transform",
        settings={
            "output": {
                "copy": "${input.text}",
                "embedded": "before ${input.text} after",
                "twice": "${input.text}${input.text}",
            }
        },
    )
    assert run_one_agent(harness, agent, payload) == {
        "copy": payload,
        "embedded": f"before {payload} after",
        "twice": payload + payload,
    }


# --- (c) http -------------------------------------------------------------------------------


def test_an_http_request_carries_the_payload_literally(
    harness: Harness, server: RecordingServer, payload: str
) -> None:
    agent = AgentDefinition(
        id="poster",
        name="poster",
        kind="http",
        settings={
            "url": f"{server.url}/inject",
            "headers": {"X-Text": "${input.text}"},
            "params": {"q": "${input.text}"},
            "body": {"text": "${input.text}", "embedded": "before ${input.text} after"},
        },
    )
    expected_body = {"text": payload, "embedded": f"before {payload} after"}
    output = run_one_agent(harness, agent, payload)
    assert len(server.requests) == 1
    received = server.requests[0]
    assert json.loads(received.body) == expected_body
    assert received.headers["X-Text"] == payload
    assert received.query == {"q": [payload]}
    assert output["body"] == expected_body


# --- (d) compensation -----------------------------------------------------------------------


def test_compensation_args_carry_the_payload_from_the_output_literally(
    harness: Harness, tmp_path: Path, payload: str
) -> None:
    received = tmp_path / "compensation-stdin.json"
    harness.agents.add(
        AgentDefinition(
            id="producer",
            name="producer",
            kind="shell",
            settings={"argv": ["printf", "%s", "${input.text}"]},
        )
    )
    harness.agents.add(
        AgentDefinition(
            id="undo-recorder",
            name="undo recorder",
            kind="shell",
            settings={"argv": ["sh", "-c", 'cat > "$1"', "sh", str(received)]},
        )
    )
    workflow = harness.publish(
        {
            "name": "inject compensation",
            "configuration": {"compensation": {"enabled": True}},
            "nodes": [
                {"id": "start", "agentId": "echo"},
                {
                    "id": "produce",
                    "agentId": "producer",
                    "compensation": {
                        "tool": "undo-recorder",
                        "args": {"text": "${output.text}", "embedded": "undo ${output.text} now"},
                    },
                },
                {"id": "boom", "agentId": "failing"},
            ],
            "edges": [
                {"source": "start", "target": "produce"},
                {"source": "produce", "target": "boom"},
            ],
        }
    )
    record = harness.execute(workflow, run_input(payload))
    stored = harness.executions.get(record.execution_id)
    assert stored.status == "failed"
    assert stored.node_results["produce"].output == {"text": payload}
    assert stored.compensation_status == "completed", stored.compensation_summary
    expected_args = {"text": payload, "embedded": f"undo {payload} now"}
    assert json.loads(received.read_text(encoding="utf-8")) == expected_args
    assert stored.node_results["produce" + COMPENSATION_SUFFIX].status == "compensated"


# --- the canary would notice ----------------------------------------------------------------


def test_the_canary_is_created_when_a_program_does_evaluate_the_payload(
    harness: Harness, canary: Path
) -> None:
    """A control: an agent that asks a shell to evaluate its input does run the payload, so a
    missing canary above means nothing was evaluated, not that the canary cannot appear."""
    agent = AgentDefinition(
        id="evaluator",
        name="evaluator",
        kind="shell",
        settings={"argv": ["sh", "-c", 'eval "printf %s $TEXT"'], "env": {"TEXT": "${input.text}"}},
    )
    payload = PAYLOADS["command-separator"].replace("CANARY", str(canary))
    run_one_agent(harness, agent, payload)
    assert canary.exists()


# --- the escape hatch is named when a workflow is validated -----------------------------------


def test_validate_publish_warns_of_a_template_inside_a_sh_c_script(tmp_path: Path) -> None:
    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / "evaluator.yaml").write_text(
        "id: evaluator\nname: evaluator\nkind: shell\n"
        "settings:\n  argv: [sh, -c, 'printf %s ${input.text}']\n",
        encoding="utf-8",
    )
    workflow = tmp_path / "evaluate.yaml"
    workflow.write_text("name: evaluate\nnodes:\n  - {id: say, agentId: evaluator}\n")

    result = run_studio("validate", str(workflow), "--publish", "--agents", str(agents))

    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{workflow}:3: warning: node 'say': agent 'evaluator' puts a ")
    assert "settings.argv[2]" in lines[0]
    assert "the substituted value is interpreted by the shell" in lines[0]
    assert '"$1"' in lines[0]
    assert lines[0].endswith("[shell.template-in-script]")
    assert lines[-1] == f"{workflow}: valid for publishing (1 warning(s))"
