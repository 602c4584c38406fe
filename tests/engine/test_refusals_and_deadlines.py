"""What a run decides from a completion the store refused is refused with it or not decided
at all, a run whose execution another runner took over does not settle it, and nothing is
called once a write has carried the run past its deadline."""

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from studio.engine.agent_kinds.base import AgentCall, AgentKind
from studio.model import AgentDefinition
from studio.store import ExecutionRepository, open_database
from studio.store.schema import utc_now
from tests.engine.runner_harness import INVOCATIONS, Harness, make_harness


class TakenAwayKind(AgentKind):
    """While the call runs, another runner sets the node back to pending: its completion
    will be refused."""

    name = "taken-away-during-call"
    database = ""

    async def run(self, call: AgentCall) -> Any:
        other = open_database(TakenAwayKind.database)
        try:
            repository = ExecutionRepository(other)
            repository.set_node_status(
                call.execution_id, call.node_id, "pending", "node.interrupted"
            )
        finally:
            other.close()
        return {"from": call.node_id}


class LocksAsItReturnsKind(AgentKind):
    """Another program takes the write lock for 0.6 s as this call returns."""

    name = "locks-as-it-returns"
    database = ""

    async def run(self, call: AgentCall) -> Any:
        taken = threading.Event()

        def hold() -> None:
            other = sqlite3.connect(LocksAsItReturnsKind.database, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            taken.set()
            time.sleep(0.6)
            other.execute("COMMIT")
            other.close()

        threading.Thread(target=hold, daemon=True).start()
        taken.wait()
        return {}


def _harness(tmp_path: Path, kind: type[AgentKind], agent_id: str, concurrency: int = 4) -> Harness:
    harness = make_harness(tmp_path, concurrency=concurrency)
    harness.runner.node_runner.dispatcher.kinds.register(kind)
    harness.agents.add(AgentDefinition(id=agent_id, name=agent_id, kind=kind.name))
    kind.database = harness.target  # type: ignore[attr-defined]
    return harness


def test_a_skip_decided_from_a_refused_completion_is_not_stored(tmp_path: Path) -> None:
    harness = _harness(tmp_path, TakenAwayKind, "taken")
    never = {"field": "from", "operator": "equals", "value": "nobody"}
    workflow = harness.publish(
        {
            "name": "skip after a refused completion",
            "nodes": [{"id": "a", "agentId": "taken"}, {"id": "c", "agentId": "counter"}],
            "edges": [{"source": "a", "target": "c", "condition": never}],
        }
    )

    record = harness.execute(workflow)

    stored = harness.executions.get(record.execution_id).node_results
    assert stored["a"].status == "pending"
    assert stored["c"].status == "pending"  # not skipped on the strength of a's output
    assert INVOCATIONS[(record.execution_id, "c")] == 0


def test_no_call_is_made_when_a_write_outlasts_the_deadline(tmp_path: Path) -> None:
    harness = _harness(tmp_path, LocksAsItReturnsKind, "locker")
    workflow = harness.publish(
        {
            "name": "a write past the deadline",
            "timeout": 0.3,
            "nodes": [{"id": "a", "agentId": "locker"}, {"id": "b", "agentId": "counter"}],
            "edges": [{"source": "a", "target": "b"}],
        }
    )

    record = harness.execute(workflow)

    assert INVOCATIONS[(record.execution_id, "b")] == 0
    assert record.status == "failed"
    assert record.node_results["b"].status == "failed"
    assert record.node_results["b"].error["type"] == "WorkflowTimeout"


def test_a_node_that_reserves_itself_does_not_start_after_a_refused_completion(
    tmp_path: Path,
) -> None:
    harness = _harness(tmp_path, TakenAwayKind, "taken")
    workflow = harness.publish(
        {
            "name": "an approval after a refused completion",
            "nodes": [
                {"id": "a", "agentId": "taken"},
                {"id": "b", "agentId": "counter", "requiresApproval": True},
            ],
            "edges": [{"source": "a", "target": "b"}],
        }
    )

    record = harness.execute(workflow)

    stored = harness.executions.get(record.execution_id).node_results
    assert stored["a"].status == "pending"
    assert stored["b"].status == "pending"  # neither reserved nor waiting for a person
    human_tasks = harness.runner.node_runner.dispatcher.human_tasks
    assert human_tasks.get(record.execution_id, "b") is None
    assert INVOCATIONS[(record.execution_id, "b")] == 0


class TakenOverKind(AgentKind):
    """While the call runs, another runner takes the execution over (as it does from one
    that stopped sending heartbeats) and sets the node back to pending to run it again."""

    name = "taken-over-during-call"
    database = ""

    async def run(self, call: AgentCall) -> Any:
        other = open_database(TakenOverKind.database)
        try:
            repository = ExecutionRepository(other)
            owner, _ = repository.owner_of(call.execution_id)
            assert repository.claim(call.execution_id, "the-other-runner", owner, utc_now())
            repository.set_node_status(
                call.execution_id, call.node_id, "pending", "node.interrupted"
            )
        finally:
            other.close()
        return {"from": call.node_id}


def test_a_run_whose_execution_was_taken_over_does_not_settle_it(tmp_path: Path) -> None:
    harness = _harness(tmp_path, TakenOverKind, "taken-over")
    workflow = harness.publish(
        {
            "name": "taken over while a call ran",
            "nodes": [{"id": "a", "agentId": "taken-over"}, {"id": "b", "agentId": "counter"}],
            "edges": [{"source": "a", "target": "b"}],
        }
    )

    record = harness.execute(workflow)

    assert record.status == "running"  # the other runner's to finish
    assert harness.executions.owner_of(record.execution_id)[0] == "the-other-runner"
    types = [event.type for event in harness.executions.events(record.execution_id)]
    assert not [kind for kind in types if kind in ("execution.completed", "execution.failed")]
    assert record.node_results["a"].status == "pending"
    assert INVOCATIONS[(record.execution_id, "b")] == 0


SLOW = {"parameters": {"sleep": 0.3}}
"""A counting node that runs while the taken-over call returns and is refused."""


def test_a_node_waiting_for_a_slot_is_not_called_after_a_refused_completion(
    tmp_path: Path,
) -> None:
    harness = _harness(tmp_path, TakenOverKind, "taken-over", concurrency=2)
    workflow = harness.publish(
        {
            "name": "a slot frees after a refused completion",
            "nodes": [
                {"id": "a", "agentId": "taken-over"},
                {"id": "d", "agentId": "counter", "configuration": SLOW},
                {"id": "b", "agentId": "counter"},
                {"id": "c", "agentId": "counter"},
                {"id": "e", "agentId": "counter"},
            ],
            "edges": [
                {"source": "a", "target": "b"},
                {"source": "a", "target": "c"},
                {"source": "d", "target": "e"},
            ],
        }
    )

    record = harness.execute(workflow)

    assert harness.executions.owner_of(record.execution_id)[0] == "the-other-runner"
    assert INVOCATIONS[(record.execution_id, "c")] == 0
    assert record.node_results["c"].status == "pending"


def test_nothing_after_a_node_the_run_could_not_start_is_decided_by_it(tmp_path: Path) -> None:
    harness = _harness(tmp_path, TakenOverKind, "taken-over")
    workflow = harness.publish(
        {
            "name": "what follows a node that was not started",
            "nodes": [
                {"id": "a", "agentId": "taken-over"},
                {"id": "b", "agentId": "counter", "requiresApproval": True},
                {"id": "c", "agentId": "counter"},
                {"id": "d", "agentId": "counter", "configuration": SLOW},
            ],
            "edges": [
                {"source": "a", "target": "b"},
                {"source": "b", "target": "c"},
                {"source": "d", "target": "c"},
            ],
        }
    )

    record = harness.execute(workflow)

    assert record.node_results["b"].status == "pending"
    assert record.node_results["c"].status == "pending"  # not failed as "upstream of b"
