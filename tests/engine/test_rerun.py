"""Run from here: a node and what depends on it run again; everything else keeps its results."""

import asyncio

import pytest

from studio.engine.interruption import is_interrupted
from studio.model.errors import NotAllowedError
from studio.model.run_view import RunView
from studio.store.schema import utc_now
from tests.engine.runner_harness import INVOCATIONS, make_harness


def diamond() -> dict:
    """start → (left, right) → join, all counting nodes."""
    nodes = [
        {"id": node_id, "agentId": "counter", "name": node_id}
        for node_id in ("start", "left", "right", "join")
    ]
    edges = [
        {"source": "start", "target": "left"},
        {"source": "start", "target": "right"},
        {"source": "left", "target": "join"},
        {"source": "right", "target": "join"},
    ]
    return {"name": "diamond", "nodes": nodes, "edges": edges}


def test_run_from_a_node_reruns_it_and_its_dependants_only(tmp_path) -> None:
    harness = make_harness(tmp_path)
    workflow = harness.publish(diamond())
    first = harness.execute(workflow, {"order": 1})
    assert first.status == "completed"

    record = harness.runner.start_from(first.execution_id, "left")
    second = asyncio.run(harness.runner.run(record.execution_id))

    assert second.status == "completed"
    assert second.input == {"order": 1}
    assert second.workflow_version == first.workflow_version
    ran = {
        node for (execution, node), count in INVOCATIONS.items() if execution == second.execution_id
    }
    assert ran == {"left", "join"}
    for reused in ("start", "right"):
        assert second.node_results[reused].output == first.node_results[reused].output
    assert second.output == first.output
    events = harness.executions.events(second.execution_id)
    created = events[0]
    assert created.payload["rerunOf"] == first.execution_id
    assert created.payload["fromNode"] == "left"
    reused = {e.node_id for e in events if e.type == "node.reused"}
    assert reused == {"start", "right"}
    view = RunView.folded(
        second.execution_id, harness.executions.node_ids(second.execution_id), events
    )
    assert view.nodes["start"].reused and not view.nodes["left"].reused


def test_run_from_a_node_whose_upstream_failed_is_refused_and_names_it(tmp_path) -> None:
    harness = make_harness(tmp_path)
    data = diamond()
    data["nodes"][1] = {"id": "left", "agentId": "failing", "name": "left"}
    workflow = harness.publish(data)
    failed = harness.execute(workflow)
    assert failed.status == "failed"
    before = len(harness.executions.find())
    with pytest.raises(NotAllowedError, match=r"upstream 'left' \(failed\)"):
        harness.runner.start_from(failed.execution_id, "join")
    with pytest.raises(NotAllowedError, match="'nowhere' is not in version"):
        harness.runner.start_from(failed.execution_id, "nowhere")
    assert len(harness.executions.find()) == before  # nothing was created
    # Running from the failed node itself is what a person would do.
    retried = harness.runner.start_from(failed.execution_id, "left")
    assert retried.node_results["start"].status == "completed"


def test_an_unfinished_run_without_a_runner_is_interrupted(tmp_path) -> None:
    harness = make_harness(tmp_path)
    workflow = harness.publish(diamond())
    record = harness.runner.start(workflow.id)
    assert not is_interrupted(harness.executions.get(record.execution_id), utc_now(), 15)
    harness.executions.set_execution_status(record.execution_id, "running", "execution.started")
    assert is_interrupted(harness.executions.get(record.execution_id), utc_now(), 15)
    finished = harness.execute(workflow)
    assert not is_interrupted(finished, utc_now(), 15)
