"""A call that finished is stored as completed whatever stops the run next: a storage fault
raised by another node, the app closing (``stop_all``), the workflow's deadline. And once the
deadline has passed, no node is reserved any more.

Each test runs a real runner on a real SQLite file, then, where the run stopped early, a
fresh runner on the same file resumes it: a completion kept in memory only would show there
as an interrupted call (a side-effecting node) or as its side effect made twice."""

import asyncio
import random
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest

from studio.engine.agent_kinds.base import AgentCall, AgentKind
from studio.engine.events import EventBus
from studio.engine.runner import RunnerSettings, StepRunner
from studio.model import AgentDefinition, AgentRegistry, Workflow
from studio.model.execution import ExecutionRecord
from studio.store import Database, ExecutionRepository, WorkflowRepository, open_database
from studio.store.errors import StorageFaultError
from tests.engine.runner_harness import default_registry_with_test_kinds

SIDE_EFFECTS: Counter[str] = Counter()
"""node id → how often its call changed the outside world."""


class Gate:
    """Holds calls back until the start node's call opens it."""

    opened: ClassVar[asyncio.Event | None] = None

    @classmethod
    async def wait(cls) -> None:
        assert cls.opened is not None
        await cls.opened.wait()


class OpenLaterKind(AgentKind):
    """Opens the gate a moment after it returns, so the nodes after it wake up together."""

    name = "open-later"

    async def run(self, call: AgentCall) -> Any:
        assert Gate.opened is not None
        asyncio.get_running_loop().call_later(0.05, Gate.opened.set)
        return {}


class EffectKind(AgentKind):
    """Changes the outside world once the gate opens, then returns."""

    name = "effect"
    then: ClassVar[Callable[[], object] | None] = None
    """What happens right after a call has returned (the app closing, a heartbeat failing)."""

    async def run(self, call: AgentCall) -> Any:
        await Gate.wait()
        SIDE_EFFECTS[call.node_id] += 1
        if EffectKind.then is not None:
            asyncio.get_running_loop().call_soon(EffectKind.then)
        return {"done": call.node_id}


class FaultKind(AgentKind):
    """Raises a storage fault once the gate opens, while ``faulty`` is set."""

    name = "fault"
    faulty: ClassVar[bool] = True

    async def run(self, call: AgentCall) -> Any:
        await Gate.wait()
        if FaultKind.faulty:
            raise StorageFaultError("studio.db", "write to", "disk I/O error")
        return {}


class BlockingKind(AgentKind):
    """Blocks the event loop for ``block`` seconds (past a deadline), then returns."""

    name = "blocking"

    async def run(self, call: AgentCall) -> Any:
        SIDE_EFFECTS[call.node_id] += 1
        time.sleep(float(call.parameters.get("block", 0)))
        return {}


AGENTS = {"S": OpenLaterKind, "E": EffectKind, "F": FaultKind, "B": BlockingKind}


def make_runner(database: Database) -> StepRunner:
    """A runner on the file, with the kinds above."""
    kinds = default_registry_with_test_kinds()
    for kind in AGENTS.values():
        kinds.register(kind)
    return StepRunner(
        WorkflowRepository(database),
        ExecutionRepository(database),
        agents(),
        kinds,
        EventBus(),
        RunnerSettings(concurrency=4),
        random.Random(1),
    )


def agents() -> AgentRegistry:
    registry = AgentRegistry()
    for agent_id, kind in AGENTS.items():
        registry.add(AgentDefinition(id=agent_id, name=agent_id, kind=kind.name))
    return registry


def publish(database: Database, data: dict[str, Any]) -> str:
    workflows = WorkflowRepository(database)
    published, problems = workflows.publish(
        workflows.create(Workflow.model_validate(data)).id, agents()
    )
    assert published.status == "PUBLISHED", problems
    assert published.id is not None
    return published.id


def resume(database_file: Path, execution_id: str) -> ExecutionRecord:
    """Resume the execution with a fresh runner on the file, every call let through."""
    database = open_database(database_file)
    try:

        async def drive() -> ExecutionRecord:
            Gate.opened = asyncio.Event()
            Gate.opened.set()
            return await make_runner(database).run(execution_id)

        return asyncio.run(drive())
    finally:
        database.close()


def stored_status(database: Database, execution_id: str, node_id: str) -> str:
    return ExecutionRepository(database).get(execution_id).node_results[node_id].status


@pytest.fixture(autouse=True)
def fresh_kinds() -> None:
    SIDE_EFFECTS.clear()
    FaultKind.faulty = True
    EffectKind.then = None


def constraints(side_effecting: bool) -> dict[str, Any]:
    return {"sideEffecting": True} if side_effecting else {}


@pytest.mark.parametrize("side_effecting", [True, False])
def test_a_completion_is_stored_when_another_node_raises_a_storage_fault(
    tmp_path: Path, side_effecting: bool
) -> None:
    database = open_database(tmp_path / "studio.db")
    workflow_id = publish(
        database,
        {
            "name": "fault beside an effect",
            "nodes": [
                {"id": "s", "agentId": "S"},
                {"id": "effect", "agentId": "E", "constraints": constraints(side_effecting)},
                {"id": "other", "agentId": "F"},
            ],
            "edges": [{"source": "s", "target": "effect"}, {"source": "s", "target": "other"}],
        },
    )
    runner = make_runner(database)
    execution_id = runner.start(workflow_id).execution_id

    async def first_run() -> None:
        Gate.opened = asyncio.Event()
        with pytest.raises(StorageFaultError):
            await runner.run(execution_id)

    asyncio.run(first_run())
    assert SIDE_EFFECTS["effect"] == 1
    assert stored_status(database, execution_id, "effect") == "completed"
    database.close()

    FaultKind.faulty = False
    record = resume(tmp_path / "studio.db", execution_id)
    assert record.status == "completed"
    assert record.node_results["effect"].status == "completed"
    assert SIDE_EFFECTS["effect"] == 1


def stop_right_after_b(tmp_path: Path, side_effecting: bool, how: str) -> str:
    """Run s then b; right after b's call returns, stop the run ``how``: ``close`` (the app
    closes: ``stop_all``) or ``fault`` (the heartbeat found the store failing). The
    execution's id, once the run stopped as it should."""
    database = open_database(tmp_path / "studio.db")
    workflow_id = publish(
        database,
        {
            "name": "stopped after b",
            "nodes": [
                {"id": "s", "agentId": "S"},
                {"id": "b", "agentId": "E", "constraints": constraints(side_effecting)},
            ],
            "edges": [{"source": "s", "target": "b"}],
        },
    )
    runner = make_runner(database)
    execution_id = runner.start(workflow_id).execution_id
    fault = StorageFaultError("studio.db", "write to", "disk I/O error")
    if how == "close":
        EffectKind.then = runner.stop_all
    else:
        EffectKind.then = lambda: runner._runs[execution_id].stop_for(fault)

    async def first_run() -> None:
        Gate.opened = asyncio.Event()
        expected = asyncio.CancelledError if how == "close" else StorageFaultError
        with pytest.raises(expected):
            await runner.run(execution_id)

    asyncio.run(first_run())
    EffectKind.then = None
    assert SIDE_EFFECTS["b"] == 1
    assert stored_status(database, execution_id, "b") == "completed"
    database.close()
    return execution_id


@pytest.mark.parametrize("how", ["close", "fault"])
@pytest.mark.parametrize("side_effecting", [True, False])
def test_a_completion_is_stored_when_the_run_stops_right_after_the_call(
    tmp_path: Path, side_effecting: bool, how: str
) -> None:
    execution_id = stop_right_after_b(tmp_path, side_effecting, how)
    record = resume(tmp_path / "studio.db", execution_id)
    assert record.status == "completed"
    assert record.node_results["b"].status == "completed"
    assert SIDE_EFFECTS["b"] == 1


def test_no_node_is_reserved_once_the_workflow_deadline_has_passed(tmp_path: Path) -> None:
    database = open_database(tmp_path / "studio.db")
    workflow_id = publish(
        database,
        {
            "name": "past its deadline",
            "timeout": 0.3,
            "nodes": [
                {"id": "a", "agentId": "B", "configuration": {"parameters": {"block": 0.5}}},
                {"id": "b", "agentId": "B", "constraints": {"sideEffecting": True}},
            ],
            "edges": [{"source": "a", "target": "b"}],
        },
    )
    record = asyncio.run(make_runner(database).execute(workflow_id))
    events = ExecutionRepository(database).events(record.execution_id)
    database.close()
    assert record.status == "failed"
    assert record.error is not None and record.error["type"] == "WorkflowTimeout"
    assert record.node_results["a"].status == "completed"
    assert SIDE_EFFECTS["b"] == 0
    assert [e.type for e in events if e.node_id == "b"] == ["node.failed"]
    b = record.node_results["b"]
    assert b.status == "failed" and b.error is not None and b.error["type"] == "WorkflowTimeout"
