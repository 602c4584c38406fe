"""Agent kinds and helpers for the governance tests: a recording forward kind, a recording
"undo" kind for compensations, a kind whose failure is chosen by its input, and a harness
that knows them all."""

import random
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from studio.engine.agent_kinds.base import AgentCall, AgentError, AgentKind
from studio.engine.events import EventBus
from studio.engine.runner import RunnerSettings, StepRunner
from studio.model import AgentDefinition
from studio.model.governance import GovernanceSettings
from tests.engine.runner_harness import (
    INVOCATIONS,
    Harness,
    default_registry_with_test_kinds,
    make_harness,
)

UNDONE: list[tuple[str, str, Any]] = []
"""Every call of an ``undo`` agent, in call order: (execution id, #comp node id, input)."""

APPROVALS: dict[tuple[str, str], Any] = {}
"""(execution id, node id) → the approval decision a ``recording`` call was given."""


class RecordingKind(AgentKind):
    """Counts each invocation and outputs ``{"node": <its node id>}``."""

    name = "recording"

    async def run(self, call: AgentCall) -> Any:
        INVOCATIONS[(call.execution_id, call.node_id)] += 1
        APPROVALS[(call.execution_id, call.node_id)] = call.approval
        return {"node": call.node_id}


class UndoKind(AgentKind):
    """A compensation tool that records what it was asked to undo."""

    name = "undo"

    async def run(self, call: AgentCall) -> Any:
        INVOCATIONS[(call.execution_id, call.node_id)] += 1
        UNDONE.append((call.execution_id, call.node_id, call.input))
        return {"undone": call.input}


class SwitchKind(AgentKind):
    """Fails with ``Boom`` when its input says ``{"fail": true}``, else succeeds."""

    name = "switch"

    async def run(self, call: AgentCall) -> Any:
        INVOCATIONS[(call.execution_id, call.node_id)] += 1
        if isinstance(call.input, dict) and call.input.get("fail"):
            raise AgentError("Boom", "told to fail")
        return {"ok": True}


GOVERNANCE_KINDS = (RecordingKind, UndoKind, SwitchKind)
GOVERNANCE_AGENTS = [
    AgentDefinition(id="recorder", name="Recorder", kind="recording"),
    AgentDefinition(id="undo", name="Undo", kind="undo"),
    AgentDefinition(id="flaky", name="Flaky", kind="switch"),
    AgentDefinition(id="broken-undo", name="Broken undo", kind="failing"),
    AgentDefinition(id="gate", name="Gate", kind="approval"),
]


def add_kinds(runner: StepRunner) -> StepRunner:
    """Register the governance test kinds on a runner's own kind registry."""
    kinds = runner.node_runner.dispatcher.kinds
    for kind in GOVERNANCE_KINDS:
        kinds.register(kind)
    return runner


def governed_harness(tmp_path: Path, **settings: Any) -> Harness:
    """make_harness plus the governance agents and kinds."""
    harness = make_harness(tmp_path, **settings)
    for definition in GOVERNANCE_AGENTS:
        harness.agents.add(definition)
    add_kinds(harness.runner)
    return harness


def another_runner(harness: Harness) -> StepRunner:
    """A second runner on the same file (another process), knowing the governance kinds."""
    return add_kinds(harness.another_runner())


def runner_with_policy(harness: Harness, policy: GovernanceSettings) -> StepRunner:
    """A runner built like make_harness builds one, with a workspace-level policy."""
    runner = StepRunner(
        harness.workflows,
        harness.executions,
        harness.agents,
        default_registry_with_test_kinds(),
        EventBus(),
        RunnerSettings(),
        random.Random(7),
        policy=policy,
    )
    return add_kinds(runner)


def undone_in(execution_id: str) -> list[str]:
    """The node ids whose compensation ran in one execution, in call order."""
    return [args["node"] for eid, _node, args in UNDONE if eid == execution_id]


def dead_owner() -> str:
    """The owner id of a runner process on this host that has exited."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return f"{socket.gethostname()}:{child.pid}:gone"
