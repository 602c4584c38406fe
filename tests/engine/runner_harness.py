"""A real step runner over a real SQLite file, with a few agent kinds made for tests."""

import asyncio
import itertools
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.engine.agent_kinds.base import AgentCall, AgentError, AgentKind
from studio.engine.agent_kinds.registry import default_kind_registry
from studio.engine.events import EventBus
from studio.engine.runner import RunnerSettings, StepRunner
from studio.model import AgentDefinition, AgentRegistry, Workflow
from studio.model.execution import ExecutionEvent
from studio.store import ExecutionRepository, WorkflowRepository, open_database

INVOCATIONS: Counter = Counter()
"""(execution id, node id) → how often a ``counting`` node was invoked."""


class CountingKind(AgentKind):
    """Counts each invocation, optionally sleeps, then echoes its input."""

    name = "counting"

    async def run(self, call: AgentCall) -> Any:
        INVOCATIONS[(call.execution_id, call.node_id)] += 1
        await asyncio.sleep(float(call.parameters.get("sleep", 0)))
        return call.input


class FailingKind(AgentKind):
    """Fails ``failures`` times per node with ``errorType``, then returns ``{"ok": true}``."""

    name = "failing"

    async def run(self, call: AgentCall) -> Any:
        key = (call.execution_id, call.node_id)
        INVOCATIONS[key] += 1
        if INVOCATIONS[key] <= int(call.parameters.get("failures", 10**9)):
            raise AgentError(call.parameters.get("errorType", "Boom"), "it failed on purpose")
        return {"ok": True}


@dataclass
class Harness:
    """Repositories, registries and a runner sharing one SQLite file."""

    target: str
    workflows: WorkflowRepository
    executions: ExecutionRepository
    agents: AgentRegistry
    runner: StepRunner
    bus: EventBus
    events: list[ExecutionEvent] = field(default_factory=list)

    def publish(self, data: dict[str, Any]) -> Workflow:
        """Store and publish a workflow given as file data."""
        stored = self.workflows.create(Workflow.model_validate(data))
        published, problems = self.workflows.publish(stored.id, self.agents)
        assert published.status == "PUBLISHED", problems
        return published

    def execute(self, workflow: Workflow, execution_input: Any = None):
        """Start and drive an execution to its end."""
        return asyncio.run(self.runner.execute(workflow.id, execution_input))

    def run_and_cancel_when_running(self, workflow: Workflow, node_id: str, timeout: float = 10):
        """Start a run, cancel it once ``node_id`` is running, and return the final record."""

        async def scenario():
            record = self.runner.start(workflow.id)
            task = asyncio.ensure_future(self.runner.run(record.execution_id))
            while (
                self.executions.get(record.execution_id).node_results[node_id].status != "running"
            ):
                await asyncio.sleep(0.02)
            self.runner.cancel(record.execution_id)
            return await asyncio.wait_for(task, timeout)

        return asyncio.run(scenario())

    def another_runner(self, **settings: Any) -> StepRunner:
        """A second runner on its own connection to the same file, as another process would be."""
        database = open_database(self.target)
        return StepRunner(
            WorkflowRepository(database),
            ExecutionRepository(database),
            self.agents,
            default_registry_with_test_kinds(),
            EventBus(),
            RunnerSettings(**settings),
        )


def default_registry_with_test_kinds():
    """The built-in kinds plus the test kinds above."""
    kinds = default_kind_registry()
    kinds.register(CountingKind)
    kinds.register(FailingKind)
    return kinds


TEST_AGENTS = [
    AgentDefinition(id="echo", name="Echo", kind="echo"),
    AgentDefinition(id="counter", name="Counter", kind="counting"),
    AgentDefinition(id="failing", name="Failing", kind="failing"),
    AgentDefinition(
        id="sleep",
        name="Sleep",
        kind="shell",
        settings={"argv": ["sh", "-c", "sleep ${parameters.seconds}; echo '{}'"]},
    ),
]


def make_harness(tmp_path: Path, database: str | None = None, **settings: Any) -> Harness:
    """A harness on ``tmp_path/studio.db`` (or on ``database``), recording announced events."""
    target = database or str(tmp_path / "studio.db")
    opened = open_database(target)
    agents = AgentRegistry()
    for definition in TEST_AGENTS:
        agents.add(definition)
    bus = EventBus()
    workflows, executions = WorkflowRepository(opened), ExecutionRepository(opened)
    runner = StepRunner(
        workflows,
        executions,
        agents,
        default_registry_with_test_kinds(),
        bus,
        RunnerSettings(**settings),
        random.Random(7),
    )
    harness = Harness(target, workflows, executions, agents, runner, bus)
    bus.subscribe(harness.events.append)
    return harness


def chain(*node_ids: str, agent: str = "counter") -> dict[str, Any]:
    """Workflow data: the nodes in a row."""
    return {
        "name": "chain",
        "nodes": [{"id": node_id, "agentId": agent} for node_id in node_ids],
        "edges": [{"source": a, "target": b} for a, b in itertools.pairwise(node_ids)],
    }
