"""Several node transitions in one commit, on a real SQLite file: each guarded on its own,
events numbered in order, nothing written by a refused one; and the records ``create`` and
``status`` return agree with what is stored."""

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import event

from studio.model import Workflow
from studio.model.execution import COMPLETED
from studio.store import Database, ExecutionRepository, WorkflowRepository, open_database
from studio.store.node_transitions import NodeTransition


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    opened = open_database(tmp_path / "studio.db")
    yield opened
    opened.close()


@pytest.fixture
def executions(database: Database) -> ExecutionRepository:
    return ExecutionRepository(database)


def publish(database: Database, *node_ids: str) -> Workflow:
    """Node ids in a row, published."""
    data = {
        "name": "transitions",
        "nodes": [{"id": node_id, "agentId": "echo"} for node_id in node_ids],
        "edges": [{"source": a, "target": b} for a, b in itertools.pairwise(node_ids)],
    }
    workflows = WorkflowRepository(database)
    published, problems = workflows.publish(
        workflows.create(Workflow.model_validate(data)).id, frozenset({"echo"})
    )
    assert published.status == "PUBLISHED", problems
    return published


def count_commits(database: Database) -> list[int]:
    """A one-item list counting the database's commits from now on."""
    commits = [0]

    def counted(_connection: object) -> None:
        commits[0] += 1

    event.listen(database.engine, "commit", counted)
    return commits


def test_transitions_recorded_together_share_one_commit_and_number_their_events_in_order(
    database: Database, executions: ExecutionRepository
) -> None:
    record, _ = executions.create(publish(database, "a", "b"), {"x": 1})
    execution_id = record.execution_id
    assert executions.set_node_status(execution_id, "a", "running", "node.started")
    commits = count_commits(database)
    events = executions.record_transitions(
        execution_id,
        [
            NodeTransition("a", COMPLETED, "node.completed", {"items": 1}, {"output": {"y": 2}}),
            NodeTransition("b", "running", "node.started", {"attempt": 1}, {"input": {"y": 2}}),
        ],
    )
    assert commits == [1]
    assert [(e.seq, e.type, e.node_id) for e in events if e is not None] == [
        (3, "node.completed", "a"),
        (4, "node.started", "b"),
    ]
    stored = executions.get(execution_id).node_results
    assert (stored["a"].status, stored["a"].output) == ("completed", {"y": 2})
    assert (stored["b"].status, stored["b"].input) == ("running", {"y": 2})
    assert stored["b"].started_at is not None and stored["a"].completed_at is not None


def test_a_refused_transition_writes_nothing_and_the_others_still_apply(
    database: Database, executions: ExecutionRepository
) -> None:
    record, _ = executions.create(publish(database, "a", "b"), None)
    execution_id = record.execution_id
    events = executions.record_transitions(
        execution_id,
        [
            NodeTransition("a", COMPLETED, "node.completed", {}),  # pending may not complete
            NodeTransition("b", "running", "node.started", {}),
        ],
    )
    assert events[0] is None
    assert events[1] is not None and events[1].seq == 2
    stored = executions.get(execution_id).node_results
    assert (stored["a"].status, stored["b"].status) == ("pending", "running")
    stored_types = [e.type for e in executions.events(execution_id)]
    assert stored_types == ["execution.created", "node.started"]


def test_a_transition_that_requires_a_refused_one_is_refused_with_it(
    database: Database, executions: ExecutionRepository
) -> None:
    record, _ = executions.create(publish(database, "a", "b", "c"), None)
    execution_id = record.execution_id
    assert executions.set_node_status(execution_id, "c", "running", "node.started")
    events = executions.record_transitions(
        execution_id,
        [
            NodeTransition("a", COMPLETED, "node.completed", {}),  # pending may not complete
            NodeTransition("b", "running", "node.started", {}, requires=("a",)),
            NodeTransition("c", COMPLETED, "node.completed", {}),
            NodeTransition("a", "running", "node.started", {}, requires=("c",)),
        ],
    )
    assert [e is not None for e in events] == [False, False, True, True]
    stored = executions.get(execution_id).node_results
    assert (stored["a"].status, stored["b"].status, stored["c"].status) == (
        "running",
        "pending",
        "completed",
    )
    stored_types = [(e.type, e.node_id) for e in executions.events(execution_id)]
    assert stored_types[-2:] == [("node.completed", "c"), ("node.started", "a")]
    assert ("node.started", "b") not in stored_types


def test_no_transitions_write_nothing(database: Database, executions: ExecutionRepository) -> None:
    record, _ = executions.create(publish(database, "a"), None)
    commits = count_commits(database)
    assert executions.record_transitions(record.execution_id, []) == []
    assert commits == [0]


def test_status_reads_the_execution_status_alone(
    database: Database, executions: ExecutionRepository
) -> None:
    record, _ = executions.create(publish(database, "a"), None)
    assert executions.status(record.execution_id) == "pending"
    executions.set_execution_status(record.execution_id, "running", "execution.started")
    assert executions.status(record.execution_id) == "running"


def test_the_record_create_returns_is_the_stored_one(
    database: Database, executions: ExecutionRepository
) -> None:
    workflow = publish(database, "a", "b", "c")
    record, _ = executions.create(workflow, {"x": [1, 2], "y": None})
    assert record == executions.get(record.execution_id)
    source = record.execution_id
    executions.set_node_status(source, "a", "running", "node.started", input={"x": [1, 2]})
    executions.set_node_status(source, "a", "completed", "node.completed", output={"z": 3})
    reused = {"a": executions.get(source).node_results["a"]}
    rerun, _ = executions.create(workflow, {"x": [1, 2]}, reused, {"rerunOf": source})
    assert rerun == executions.get(rerun.execution_id)
