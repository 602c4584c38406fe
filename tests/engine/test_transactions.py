"""Fewer, larger transactions: a node's completion shares its commit with the reservations
of the nodes it makes ready, and nodes that become ready together are reserved in one
commit, before any of their calls is made. Each event is announced after the commit that
stored it, in the order it was stored."""

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import event

from studio.engine.agent_kinds.base import AgentCall, AgentKind
from studio.model import AgentDefinition
from studio.model.execution import ExecutionEvent
from studio.store import ExecutionRepository, open_database
from tests.engine.runner_harness import INVOCATIONS, Harness, chain, make_harness


def commit_numbers(harness: Harness) -> list[tuple[int, ExecutionEvent]]:
    """Every event announced from now on, with the number of write commits made before it."""
    commits = [0]
    seen: list[tuple[int, ExecutionEvent]] = []

    def counted(connection: Any) -> None:
        if connection.get_execution_options().get("studio_begin") == "IMMEDIATE":
            commits[0] += 1

    event.listen(harness.executions.database.engine, "commit", counted)
    harness.bus.subscribe(lambda announced: seen.append((commits[0], announced)))
    return seen


def commit_of(seen: list[tuple[int, ExecutionEvent]], event_type: str, node_id: str) -> int:
    """The commit that stored the node's event of that type."""
    found = [n for n, e in seen if e.type == event_type and e.node_id == node_id]
    assert len(found) == 1, (event_type, node_id, found)
    return found[0]


def test_a_chain_makes_one_commit_per_node_completion_and_next_reservation(
    tmp_path: Path,
) -> None:
    harness = make_harness(tmp_path)
    workflow = harness.publish(chain("a", "b", "c", "d"))
    seen = commit_numbers(harness)
    record = harness.execute(workflow)
    assert record.status == "completed"
    for earlier, later in (("a", "b"), ("b", "c"), ("c", "d")):
        assert commit_of(seen, "node.completed", earlier) == commit_of(seen, "node.started", later)
    assert commit_of(seen, "node.started", "a") < commit_of(seen, "node.completed", "a")
    # One a node, plus: create, claim, execution.started, the first reservation and
    # execution.completed.
    commits = seen[-1][0]
    assert commits == 4 + 5, f"{commits} commits for 4 nodes"


def test_nodes_that_become_ready_together_are_reserved_in_one_commit(tmp_path: Path) -> None:
    harness = make_harness(tmp_path, concurrency=3)
    workers = [f"w{i}" for i in range(5)]
    workflow = harness.publish(
        {
            "name": "fan-out",
            "nodes": [{"id": n, "agentId": "counter"} for n in ["split", *workers]],
            "edges": [{"source": "split", "target": w} for w in workers],
        }
    )
    seen = commit_numbers(harness)
    assert harness.execute(workflow).status == "completed"
    together = {commit_of(seen, "node.started", w) for w in workers[:3]}
    assert together == {commit_of(seen, "node.completed", "split")}
    # The other two wait for room: each is reserved as a worker before it completes.
    for later in workers[3:]:
        assert commit_of(seen, "node.started", later) > commit_of(seen, "node.started", "w0")


def test_events_are_announced_in_the_order_they_are_stored(tmp_path: Path) -> None:
    harness = make_harness(tmp_path, concurrency=2)
    workflow = harness.publish(
        {
            "name": "diamond",
            "nodes": [{"id": n, "agentId": "counter"} for n in ("a", "b", "c", "d")],
            "edges": [
                {"source": "a", "target": "b"},
                {"source": "a", "target": "c"},
                {"source": "b", "target": "d"},
                {"source": "c", "target": "d"},
            ],
        }
    )
    record = harness.execute(workflow)
    announced = [e.seq for e in harness.events if e.execution_id == record.execution_id]
    assert announced == list(range(1, len(announced) + 1))
    stored = harness.executions.events(record.execution_id)
    assert [e.seq for e in stored] == announced


class ReservationWitnessKind(AgentKind):
    """Looks, on a connection of its own, whether its node's reservation is committed."""

    name = "witness"
    database: Path | None = None
    seen: dict[str, str] = {}  # noqa: RUF012 - a test kind's record of what it saw

    async def run(self, call: AgentCall) -> Any:
        assert ReservationWitnessKind.database is not None
        with contextlib.closing(sqlite3.connect(ReservationWitnessKind.database)) as connection:
            row = connection.execute(
                "SELECT status FROM node_results WHERE execution_id = ? AND node_id = ?",
                (call.execution_id, call.node_id),
            ).fetchone()
        ReservationWitnessKind.seen[call.node_id] = row[0]
        return call.input


def test_every_call_is_made_after_its_reservation_is_committed(tmp_path: Path) -> None:
    harness = make_harness(tmp_path, concurrency=4)
    harness.runner.node_runner.dispatcher.kinds.register(ReservationWitnessKind)
    harness.agents.add(AgentDefinition(id="witness", name="Witness", kind="witness"))
    ReservationWitnessKind.database = Path(harness.target)
    ReservationWitnessKind.seen = {}
    workers = [f"w{i}" for i in range(6)]
    workflow = harness.publish(
        {
            "name": "witnessed",
            "nodes": [{"id": n, "agentId": "witness"} for n in ["split", *workers, "join"]],
            "edges": [{"source": "split", "target": w} for w in workers]
            + [{"source": w, "target": "join"} for w in workers],
        }
    )
    assert harness.execute(workflow).status == "completed"
    assert ReservationWitnessKind.seen == dict.fromkeys(["split", *workers, "join"], "running")


class TakenAwayKind(AgentKind):
    """While its call runs, another runner (its own connection to the file) takes the node
    back to pending, as a resume after a lost claim would: the completion is then refused."""

    name = "taken-away"
    database: Path | None = None

    async def run(self, call: AgentCall) -> Any:
        assert TakenAwayKind.database is not None
        other = open_database(TakenAwayKind.database)
        try:
            taken = ExecutionRepository(other).set_node_status(
                call.execution_id, call.node_id, "pending", "node.interrupted"
            )
            assert taken is not None
        finally:
            other.close()
        return {"from": call.node_id}


def test_nodes_made_ready_by_a_refused_completion_are_neither_reserved_nor_called(
    tmp_path: Path,
) -> None:
    harness = make_harness(tmp_path, concurrency=4)
    harness.runner.node_runner.dispatcher.kinds.register(TakenAwayKind)
    harness.agents.add(AgentDefinition(id="taken", name="Taken", kind="taken-away"))
    TakenAwayKind.database = Path(harness.target)
    workflow = harness.publish(
        {
            "name": "taken away",
            "nodes": [
                {"id": "a", "agentId": "taken"},
                {"id": "b", "agentId": "counter"},
                {"id": "c", "agentId": "counter"},
            ],
            "edges": [{"source": "a", "target": "b"}, {"source": "a", "target": "c"}],
        }
    )
    record = harness.execute(workflow)
    execution_id = record.execution_id
    assert INVOCATIONS[(execution_id, "b")] == INVOCATIONS[(execution_id, "c")] == 0
    events = harness.executions.events(execution_id)
    assert [e.node_id for e in events if e.type == "node.started"] == ["a"]
    stored = harness.executions.get(execution_id).node_results
    assert (stored["a"].status, stored["b"].status, stored["c"].status) == (
        "pending",
        "pending",
        "pending",
    )
