"""Real runs for the history and detail tests: a workspace with shell agents in a folder, and
workflows that complete, fail, retry, wait for a person or roll back."""

import asyncio
import itertools
from pathlib import Path
from typing import Any

import yaml

from studio.model import Workflow
from studio.model.execution import ExecutionRecord
from studio.workspace import Workspace
from tests.cli_runner import REPO_ROOT

ECHO_DEMO = REPO_ROOT / "blueprints" / "echo-demo-workflow.yaml"

FAIL = 'echo \'{{"errorType": "{kind}", "message": "{message}"}}\' >&2; exit 1'
FLAKY = (
    'n=$(cat "{counter}" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "{counter}"; '
    'if [ "$n" -le 2 ]; then '
    'echo "{{\\"errorType\\": \\"Transient\\", \\"message\\": \\"attempt $n failed\\"}}" >&2; '
    "exit 1; fi; "
    'echo "{{\\"attempts\\": $n}}"'
)

PICKY = (
    'input=$(cat); case "$input" in *fail*) echo "refused: $input" >&2; exit 1;; esac; '
    'echo "$input"'
)


def shell_agents(folder: Path) -> dict[str, str]:
    """Agent id → ``sh -c`` script, for the agents the scenarios below use."""
    return {
        "broken-agent": "echo 'something broke' >&2; exit 1",
        "picky-agent": PICKY,
        "flaky-agent": FLAKY.format(counter=folder / "attempts.txt"),
        "ticketing-agent": 'printf \'{"ticketId": "TCK-4471"}\'',
        "room-agent": 'printf \'{"roomId": "R-12"}\'',
        "reconciliation-agent": "cat",
        "close_ticket": "printf '{\"closed\": true}'",
        "close_ticket_down": FAIL.format(kind="TicketingDown", message="ticketing is down"),
        "release_room": "printf '{\"released\": true}'",
        "release_room_down": FAIL.format(kind="RoomsDown", message="rooms service is down"),
    }


def write_yaml(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def workspace_with_agents(data_dir: Path, tmp_path: Path) -> Workspace:
    """A workspace on ``data_dir`` whose ``--agents`` folder holds the shell agents."""
    folder = tmp_path / "agents"
    for agent_id, script in shell_agents(tmp_path).items():
        settings = {"argv": ["sh", "-c", script]}
        data = {"id": agent_id, "name": agent_id, "kind": "shell", "settings": settings}
        write_yaml(folder / f"{agent_id}.yaml", data)
    return Workspace(data_dir, agent_dirs=[folder])


def publish(workspace: Workspace, tmp_path: Path, data: dict[str, Any]) -> Workflow:
    """Write the workflow to a file, then import and publish it as ``studio run`` does."""
    return workspace.import_and_publish(write_yaml(tmp_path / f"{data['name']}.yaml", data))


def execute(workspace: Workspace, workflow: Workflow, execution_input: Any = None):
    """Drive one run to its end with the real engine."""
    return asyncio.run(workspace.runner().execute(workflow.id, execution_input))


def chain(name: str, *nodes: dict[str, Any], **configuration: Any) -> dict[str, Any]:
    """Workflow data: the nodes in a row."""
    return {
        "name": name,
        "configuration": configuration,
        "nodes": list(nodes),
        "edges": [{"source": a["id"], "target": b["id"]} for a, b in itertools.pairwise(nodes)],
    }


def picky_flow() -> dict[str, Any]:
    """One step that fails when its input mentions "fail" and echoes it otherwise."""
    return chain("picky", {"id": "check", "name": "Check", "agentId": "picky-agent"})


def failing_flow() -> dict[str, Any]:
    """A first step that works and a second that exits 1."""
    return chain(
        "failing",
        {"id": "start", "name": "Start", "agentId": "demo-echo-agent"},
        {"id": "boom", "name": "Blow up", "agentId": "broken-agent"},
    )


def flaky_flow() -> dict[str, Any]:
    """One step that fails twice with a retryable error, then succeeds."""
    policy = {
        "maxRetries": 3,
        "backoffBase": 0.01,
        "backoffMax": 0.05,
        "retryableErrors": ["Transient"],
    }
    node = {"id": "flaky", "name": "Flaky", "agentId": "flaky-agent", "retryPolicy": policy}
    return chain("flaky", node)


def gated_flow() -> dict[str, Any]:
    """A step that waits for a person between two echoes."""
    return chain(
        "gated",
        {"id": "prepare", "name": "Prepare", "agentId": "demo-echo-agent"},
        {"id": "gate", "name": "Manager sign-off", "agentId": "human-approval"},
        {"id": "after", "name": "After", "agentId": "demo-echo-agent"},
    )


def rollback_flow(close_tool: str = "close_ticket", release_tool: str = "release_room"):
    """The seed's worked example with a second compensating step: create-ticket and
    reserve-room both undo themselves; close-out is denied by policy, so the run unwinds
    reserve-room first, then create-ticket."""
    compensation = {
        "enabled": True,
        "trigger": {"mode": "on_terminal_failure", "minCompletedNodes": 1},
        "onFailure": "stop",
    }
    ticket = {"ticketId": "${output.ticketId}", "reason": "workflow rolled back"}
    return chain(
        f"rollback-{close_tool}-{release_tool}",
        {
            "id": "create-ticket",
            "name": "Create ticket",
            "agentId": "ticketing-agent",
            "compensation": {"tool": close_tool, "args": ticket, "sideEffecting": True},
        },
        {
            "id": "reserve-room",
            "name": "Reserve room",
            "agentId": "room-agent",
            "compensation": {
                "tool": release_tool,
                "args": {"roomId": "${output.roomId}"},
                "sideEffecting": True,
            },
        },
        {"id": "close-out", "name": "Close out", "agentId": "reconciliation-agent"},
        compensation=compensation,
        governance={"denyAgents": ["reconciliation-agent"]},
    )


def approved_run(workspace: Workspace, workflow: Workflow) -> ExecutionRecord:
    """A gated run that waited, was approved by ana with a comment, and finished."""
    runner = workspace.runner()
    waiting = asyncio.run(runner.execute(workflow.id, {"order": 7}))
    assert waiting.status == "waiting"
    runner.decide(waiting.execution_id, "gate", approved=True, by="ana", comment="fine by me")
    return asyncio.run(runner.run(waiting.execution_id))


def interrupted_run(workspace: Workspace, workflow: Workflow) -> ExecutionRecord:
    """A run marked running whose runner went away before doing anything (no owner)."""
    record = workspace.runner().start(workflow.id, {"message": "stopped"})
    workspace.executions.set_execution_status(record.execution_id, "running", "execution.started")
    return workspace.executions.get(record.execution_id)
