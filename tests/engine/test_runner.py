"""The step runner on a real SQLite file: order, data flow, conditions, failures, timeouts."""

import asyncio
import contextlib
import itertools
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studio.engine.runner import ExecutionBusyError
from studio.model.errors import ONLY_PUBLISHED_RUN, NotAllowedError
from studio.model.workflow import Workflow
from studio.store import database as database_module
from tests.engine.runner_harness import INVOCATIONS, chain, make_harness


def test_the_echo_demo_carries_its_input_through_both_nodes(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    workflow = harness.publish(chain("first", "second", agent="echo"))
    record = harness.execute(workflow, {"message": "hi"})
    assert record.status == "completed"
    assert record.output == {"message": "hi"}
    assert record.node_results["second"].input == {"message": "hi"}


def test_only_published_workflows_start(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    draft = harness.workflows.create(Workflow.model_validate(chain("a")))
    with pytest.raises(NotAllowedError, match=ONLY_PUBLISHED_RUN):
        harness.runner.start(draft.id)


def test_an_input_over_the_limits_starts_nothing(tmp_path: Path) -> None:
    """Whoever starts the run (a terminal, the app's run dialog, a program)."""
    harness = make_harness(tmp_path)
    workflow = harness.publish(chain("a"))
    deep: object = "bottom"
    for _ in range(201):
        deep = [deep]
    for refused in (deep, {"ratio": float("nan")}, {"text": "x" * 1_000_001}):
        with pytest.raises(NotAllowedError, match="the input cannot be used"):
            harness.runner.start(workflow.id, refused)
    assert harness.executions.find() == []


def test_a_workflow_stored_with_a_node_id_outside_the_pattern_does_not_start(
    tmp_path: Path,
) -> None:
    harness = make_harness(tmp_path)
    workflow = harness.publish(chain("a", "b"))
    database = harness.workflows.database
    with database.write() as connection:  # as an older Studio could have stored it
        connection.exec_driver_sql(
            "UPDATE workflows SET definition = replace(definition, '\"b\"', '\"b#comp\"') "
            "WHERE id = ?",
            (workflow.id,),
        )
    assert [n.id for n in harness.workflows.get(workflow.id).nodes] == ["a", "b#comp"]
    with pytest.raises(NotAllowedError, match="'b#comp' is not a valid node id"):
        harness.runner.start(workflow.id)
    assert harness.executions.find() == []


def test_an_execution_starts_with_every_node_pending_and_pins_the_version(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    workflow = harness.publish(chain("a", "b"))
    record = harness.runner.start(workflow.id, {"x": 1})
    assert record.status == "pending"
    assert {r.status for r in record.node_results.values()} == {"pending"}
    edited = workflow.model_copy(update={"nodes": workflow.nodes[:1], "edges": []})
    harness.workflows.update(edited, workflow.version)
    finished = asyncio.run(harness.runner.run(record.execution_id))
    assert finished.workflow_version == workflow.version
    assert set(finished.node_results) == {"a", "b"}
    assert finished.status == "completed"


def test_a_convergence_node_gets_a_mapping_and_waits_for_every_branch(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    data = {
        "nodes": [{"id": n, "agentId": "counter"} for n in ("split", "left", "right", "join")],
        "edges": [
            {"source": "split", "target": "left"},
            {"source": "split", "target": "right"},
            {"source": "left", "target": "join"},
            {"source": "right", "target": "join"},
        ],
    }
    data["nodes"][1]["configuration"] = {"parameters": {"sleep": 0.05}}
    record = harness.execute(harness.publish(data), {"v": 1})
    assert record.node_results["join"].input == {"left": {"v": 1}, "right": {"v": 1}}
    assert record.node_results["join"].started_at >= record.node_results["left"].completed_at
    assert record.output == {"left": {"v": 1}, "right": {"v": 1}}


def test_a_false_condition_skips_the_branch_and_what_only_it_leads_to(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    data = {
        "nodes": [{"id": n, "agentId": "counter"} for n in ("route", "yes", "yes-after", "no")],
        "edges": [
            {
                "source": "route",
                "target": "yes",
                "condition": {"field": "result.status", "operator": "equals", "value": "approved"},
            },
            {"source": "yes", "target": "yes-after"},
            {
                "source": "route",
                "target": "no",
                "condition": {"field": "result.status", "operator": "equals", "value": "rejected"},
            },
        ],
    }
    record = harness.execute(harness.publish(data), {"result": {"status": "rejected"}})
    statuses = {nid: r.status for nid, r in record.node_results.items()}
    assert statuses == {
        "route": "completed",
        "yes": "skipped",
        "yes-after": "skipped",
        "no": "completed",
    }
    assert record.status == "completed"
    assert record.output == {"no": {"result": {"status": "rejected"}}}


def test_a_failed_branch_lets_the_other_finish_then_fails_the_run(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    data = {
        "nodes": [
            {"id": "start", "agentId": "counter"},
            {"id": "bad", "agentId": "failing"},
            {"id": "slow", "agentId": "counter", "configuration": {"parameters": {"sleep": 0.1}}},
            {"id": "after-slow", "agentId": "counter"},
            {"id": "join", "agentId": "counter"},
        ],
        "edges": [
            {"source": "start", "target": "bad"},
            {"source": "start", "target": "slow"},
            {"source": "slow", "target": "after-slow"},
            {"source": "bad", "target": "join"},
            {"source": "after-slow", "target": "join"},
        ],
    }
    record = harness.execute(harness.publish(data))
    results = record.node_results
    assert record.status == "failed"
    assert results["after-slow"].status == "completed"
    assert results["bad"].status == "failed"
    assert results["join"].status == "failed"
    assert results["join"].error["type"] == "UpstreamFailed"
    assert "'bad'" in record.error["message"]


def test_independent_branches_run_concurrently(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    data = {
        "nodes": [{"id": "start", "agentId": "echo"}]
        + [
            {"id": f"s{i}", "agentId": "sleep", "configuration": {"parameters": {"seconds": 1}}}
            for i in range(3)
        ],
        "edges": [{"source": "start", "target": f"s{i}"} for i in range(3)],
    }
    began = time.monotonic()
    record = harness.execute(harness.publish(data))
    elapsed = time.monotonic() - began
    assert record.status == "completed"
    assert elapsed < 2.5, f"three 1 s shell nodes in parallel took {elapsed:.2f} s"


def test_the_concurrency_limit_is_respected(tmp_path: Path) -> None:
    harness = make_harness(tmp_path, concurrency=1)
    data = {
        "nodes": [
            {"id": f"n{i}", "agentId": "counter", "configuration": {"parameters": {"sleep": 0.2}}}
            for i in range(3)
        ]
        + [{"id": "end", "agentId": "counter"}],
        "edges": [{"source": f"n{i}", "target": "end"} for i in range(3)],
    }
    record = harness.execute(harness.publish(data))
    spans = sorted(
        (r.started_at, r.completed_at) for nid, r in record.node_results.items() if nid != "end"
    )
    assert all(later[0] >= earlier[1] for earlier, later in itertools.pairwise(spans))


def test_an_unknown_agent_fails_the_node_with_a_clear_error(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    workflow = harness.publish(chain("a"))
    harness.agents._definitions.pop("counter")
    record = harness.execute(workflow)
    assert record.node_results["a"].error["type"] == "UnknownAgent"
    assert "agent not found" in record.node_results["a"].error["message"]


def test_a_node_timeout_fails_the_node_and_kills_its_process(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    data = {
        "nodes": [
            {
                "id": "slow",
                "agentId": "sleep",
                "timeout": 0.3,
                "configuration": {"parameters": {"seconds": 30}},
            }
        ]
    }
    began = time.monotonic()
    record = harness.execute(harness.publish(data))
    assert time.monotonic() - began < 5
    assert record.status == "failed"
    assert record.node_results["slow"].error["type"] == "Timeout"


def test_the_workflow_timeout_cancels_running_nodes_and_fails_the_run(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    data = {
        "timeout": 0.4,
        "nodes": [
            {"id": "slow", "agentId": "sleep", "configuration": {"parameters": {"seconds": 30}}}
        ],
    }
    began = time.monotonic()
    record = harness.execute(harness.publish(data))
    assert time.monotonic() - began < 5
    assert record.status == "failed"
    assert record.error["type"] == "WorkflowTimeout"
    assert record.node_results["slow"].status == "failed"


def test_every_transition_is_stored_before_it_is_announced(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    stored_at_announcement: list[bool] = []
    harness.bus.subscribe(
        lambda event: stored_at_announcement.append(
            any(
                e.seq == event.seq
                for e in harness.executions.events(event.execution_id, event.seq - 1)
            )
        )
    )
    record = harness.execute(harness.publish(chain("a", "b", "c")))
    assert stored_at_announcement and all(stored_at_announcement)
    sequence = [event.seq for event in harness.executions.events(record.execution_id)]
    assert sequence == list(range(1, len(sequence) + 1))
    types = [event.type for event in harness.executions.events(record.execution_id)]
    assert types[0] == "execution.created" and types[-1] == "execution.completed"


def test_cancel_stops_a_running_execution_and_a_second_cancel_changes_nothing(
    tmp_path: Path,
) -> None:
    harness = make_harness(tmp_path)
    workflow = harness.publish(
        {
            "nodes": [
                {"id": "slow", "agentId": "sleep", "configuration": {"parameters": {"seconds": 30}}}
            ]
        }
    )

    record = harness.run_and_cancel_when_running(workflow, "slow")
    assert record.status == "cancelled"
    assert record.node_results["slow"].status == "cancelled"
    again = harness.runner.cancel(record.execution_id)
    assert again.status == "cancelled" and again.completed_at == record.completed_at


def test_a_cancel_from_another_process_is_noticed(tmp_path: Path) -> None:
    harness = make_harness(tmp_path, heartbeat_interval=0.05)
    workflow = harness.publish(
        {
            "nodes": [
                {"id": "slow", "agentId": "sleep", "configuration": {"parameters": {"seconds": 30}}}
            ]
        }
    )
    other = harness.another_runner()

    async def run_and_cancel_elsewhere():
        record = harness.runner.start(workflow.id)
        task = asyncio.ensure_future(harness.runner.run(record.execution_id))
        while harness.executions.get(record.execution_id).node_results["slow"].status != "running":
            await asyncio.sleep(0.02)
        other.cancel(record.execution_id)
        began = time.monotonic()
        finished = await asyncio.wait_for(task, 5)
        return finished, time.monotonic() - began

    record, waited = asyncio.run(run_and_cancel_elsewhere())
    assert record.status == "cancelled"
    assert waited < 2


def test_resume_never_reruns_a_completed_node(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    workflow = harness.publish(chain("a", "b", "c"))
    record = harness.runner.start(workflow.id, {"n": 1})
    execution_id = record.execution_id
    # What a runner killed while "b" was running leaves behind:
    repo = harness.executions
    repo.set_execution_status(execution_id, "running", "execution.started")
    repo.set_node_status(execution_id, "a", "running", "node.started", input={"n": 1})
    repo.set_node_status(execution_id, "a", "completed", "node.completed", output={"n": 1})
    repo.set_node_status(execution_id, "b", "running", "node.started", input={"n": 1})
    repo.claim(execution_id, dead_owner(), None, record.created_at)
    finished = asyncio.run(harness.runner.run(execution_id))
    assert finished.status == "completed"
    assert INVOCATIONS[(execution_id, "a")] == 0
    assert INVOCATIONS[(execution_id, "b")] == 1
    types = [e.type for e in repo.events(execution_id)]
    assert "node.interrupted" in types and "execution.resumed" in types


def dead_owner() -> str:
    """The owner id of a runner process on this host that has exited."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return f"{socket.gethostname()}:{child.pid}:gone"


def test_an_execution_held_by_a_live_runner_elsewhere_is_not_taken_over(tmp_path: Path) -> None:
    harness = make_harness(tmp_path)
    record = harness.runner.start(harness.publish(chain("a")).id)
    assert harness.executions.claim(
        record.execution_id, "other-host:1:live", None, record.created_at
    )
    with pytest.raises(ExecutionBusyError, match="other-host:1:live"):
        asyncio.run(harness.runner.run(record.execution_id))
    assert harness.executions.get(record.execution_id).status == "pending"


def test_a_lock_held_past_the_busy_timeout_only_skips_heartbeats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program (a backup, the sqlite3 shell) holds the write lock for a while."""
    monkeypatch.setattr(database_module, "BUSY_TIMEOUT_MS", 200)
    harness = make_harness(tmp_path, heartbeat_interval=0.05)
    data = chain("slow", agent="counter")
    data["nodes"][0]["configuration"] = {"parameters": {"sleep": 1.5}}
    workflow = harness.publish(data)

    async def scenario():
        record = harness.runner.start(workflow.id)
        run = asyncio.ensure_future(harness.runner.run(record.execution_id))
        while harness.executions.get(record.execution_id).node_results["slow"].status != "running":
            await asyncio.sleep(0.02)
        with contextlib.closing(sqlite3.connect(harness.target, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            await asyncio.sleep(0.8)  # several heartbeats wait 200 ms each, then give up
            other.execute("ROLLBACK")
        return await asyncio.wait_for(run, 30)

    finished = asyncio.run(scenario())
    assert finished.status == "completed"
    assert INVOCATIONS[(finished.execution_id, "slow")] == 1
