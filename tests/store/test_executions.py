"""The execution repository on a real SQLite file: state machines, gap-free event sequence
numbers under concurrency, cancelling, and the runner's claim on an execution."""

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from studio.model import Workflow
from studio.model.errors import EXECUTION_NOT_FOUND, NotFoundError
from studio.model.execution import NODE_STATUSES, NODE_TRANSITIONS
from studio.store import ExecutionRepository, WorkflowRepository, open_database

AGENTS = frozenset({"echo"})


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "studio.db"


@pytest.fixture
def database(db_path: Path):
    opened = open_database(db_path)
    yield opened
    opened.close()


@pytest.fixture
def executions(database) -> ExecutionRepository:
    return ExecutionRepository(database)


def publish(database, *node_ids: str) -> Workflow:
    data = {
        "name": "store test",
        "nodes": [{"id": node_id, "agentId": "echo"} for node_id in node_ids],
        "edges": [{"source": node_ids[0], "target": other} for other in node_ids[1:]],
    }
    repo = WorkflowRepository(database)
    published, problems = repo.publish(repo.create(Workflow.model_validate(data)).id, AGENTS)
    assert published.status == "PUBLISHED", problems
    return published


def seqs(executions: ExecutionRepository, execution_id: str) -> list[int]:
    return [event.seq for event in executions.events(execution_id)]


@pytest.fixture
def started(database, executions: ExecutionRepository) -> str:
    """A running execution of a -> (b, c): a completed, b running, c pending."""
    workflow = publish(database, "a", "b", "c")
    record, _ = executions.create(workflow, {"x": 1})
    execution_id = record.execution_id
    assert executions.set_execution_status(execution_id, "running", "execution.started")
    assert executions.set_node_status(execution_id, "a", "running", "node.started")
    assert executions.set_node_status(
        execution_id, "a", "completed", "node.completed", output={"y": 2}
    )
    assert executions.set_node_status(execution_id, "b", "running", "node.started")
    return execution_id


# --- create and get ------------------------------------------------------------------------


def test_create_is_pending_with_every_node_pending_and_event_1(
    database, executions: ExecutionRepository
) -> None:
    workflow = publish(database, "a", "b", "c")
    before = datetime.now(UTC)
    record, event = executions.create(workflow, {"message": "hi"})
    assert record.status == "pending"
    assert record.workflow_id == workflow.id
    assert record.workflow_version == workflow.version
    assert record.input == {"message": "hi"}
    assert record.output is None and record.error is None
    assert record.started_at is None and record.completed_at is None
    assert before <= record.created_at <= datetime.now(UTC)
    assert list(record.node_results) == ["a", "b", "c"]
    for result in record.node_results.values():
        assert result.status == "pending"
        assert result.retry_count == 0
        assert result.started_at is None
    assert event.seq == 1
    assert event.type == "execution.created"
    assert event.node_id is None
    assert event.payload == {"workflowId": workflow.id, "workflowVersion": workflow.version}
    assert executions.events(record.execution_id) == [event]
    assert executions.get(record.execution_id) == record


def test_each_execution_has_its_own_id_and_sequence(
    database, executions: ExecutionRepository
) -> None:
    workflow = publish(database, "a", "b")
    first, first_event = executions.create(workflow, None)
    second, second_event = executions.create(workflow, None)
    assert first.execution_id != second.execution_id
    assert first_event.seq == second_event.seq == 1


def test_an_unknown_execution_is_execution_not_found(executions: ExecutionRepository) -> None:
    for operation in (executions.get, executions.owner_of, executions.cancel):
        with pytest.raises(NotFoundError) as missing:
            operation("no-such-execution")
        assert str(missing.value) == EXECUTION_NOT_FOUND == "Execution not found"
    assert executions.events("no-such-execution") == []
    assert executions.set_node_status("no-such-execution", "a", "running", "node.started") is None
    assert executions.set_execution_status("no-such-execution", "running", "x") is None
    assert executions.heartbeat("no-such-execution", "me") is None


def test_find_lists_newest_first_and_filters(database, executions: ExecutionRepository) -> None:
    workflow, other = publish(database, "a", "b"), publish(database, "a", "b")
    first, _ = executions.create(workflow, 1)
    second, _ = executions.create(workflow, 2)
    third, _ = executions.create(other, 3)
    executions.set_execution_status(second.execution_id, "running", "execution.started")
    assert [r.execution_id for r in executions.find()] == [
        third.execution_id,
        second.execution_id,
        first.execution_id,
    ]
    assert [r.execution_id for r in executions.find(workflow_id=workflow.id)] == [
        second.execution_id,
        first.execution_id,
    ]
    assert [r.execution_id for r in executions.find(status="running")] == [second.execution_id]
    assert len(executions.find(limit=2)) == 2
    assert all(record.node_results == {} for record in executions.find())
    short = third.execution_id[:8]
    assert [r.execution_id for r in executions.find(id_prefix=short)] == [third.execution_id]
    assert executions.find(id_prefix="%") == [] and executions.find(id_prefix="_") == []


# --- state machines ------------------------------------------------------------------------


def test_node_transitions_follow_the_allowed_from_states(
    started: str, executions: ExecutionRepository
) -> None:
    last = seqs(executions, started)[-1]
    # a is completed: it may not run again, fail or be skipped.
    for status in ("running", "failed", "skipped", "pending", "retrying"):
        assert executions.set_node_status(started, "a", status, f"node.{status}") is None
    assert executions.get(started).node_results["a"].status == "completed"
    assert executions.get(started).node_results["a"].output == {"y": 2}
    assert seqs(executions, started)[-1] == last
    # b is running: it may complete; the event gets the next number.
    event = executions.set_node_status(started, "b", "completed", "node.completed", {"k": 1})
    assert event is not None
    assert (event.seq, event.type, event.node_id, event.payload) == (
        last + 1,
        "node.completed",
        "b",
        {"k": 1},
    )
    result = executions.get(started).node_results["b"]
    assert result.status == "completed"
    assert result.completed_at is not None and result.started_at is not None


@pytest.mark.parametrize("target", NODE_STATUSES)
@pytest.mark.parametrize("source", NODE_STATUSES)
def test_every_node_transition_is_decided_by_the_table(
    database, executions: ExecutionRepository, source: str, target: str
) -> None:
    workflow = publish(database, "n")
    record, _ = executions.create(workflow, None)
    execution_id = record.execution_id
    if source != "pending":  # put the node in ``source`` directly, as a resumed store would be
        with database.write() as connection:
            connection.exec_driver_sql(
                "UPDATE node_results SET status = ? WHERE execution_id = ?",
                (source, execution_id),
            )
    event = executions.set_node_status(execution_id, "n", target, f"node.{target}")
    allowed = source in NODE_TRANSITIONS[target]
    assert (event is not None) == allowed
    assert executions.get(execution_id).node_results["n"].status == (target if allowed else source)
    assert seqs(executions, execution_id) == ([1, 2] if allowed else [1])


def test_execution_transitions_follow_the_allowed_from_states(
    database, executions: ExecutionRepository
) -> None:
    workflow = publish(database, "a", "b")
    record, _ = executions.create(workflow, None)
    execution_id = record.execution_id
    assert executions.set_execution_status(execution_id, "completed", "execution.completed") is None
    started = executions.set_execution_status(execution_id, "running", "execution.started")
    assert started is not None and started.seq == 2
    first_start = executions.get(execution_id).started_at
    resumed = executions.set_execution_status(execution_id, "running", "execution.resumed")
    assert resumed is not None and resumed.seq == 3
    assert executions.get(execution_id).started_at == first_start  # kept on resume
    done = executions.set_execution_status(
        execution_id, "completed", "execution.completed", {"n": 1}, output={"out": True}
    )
    assert done is not None and done.seq == 4
    finished = executions.get(execution_id)
    assert finished.status == "completed"
    assert finished.output == {"out": True}
    assert finished.completed_at is not None and finished.is_finished
    for status in ("running", "failed", "cancelled", "completed"):
        assert executions.set_execution_status(execution_id, status, f"execution.{status}") is None
    assert seqs(executions, execution_id) == [1, 2, 3, 4]
    assert executions.get(execution_id) == finished


def test_sequence_numbers_have_no_gaps_with_concurrent_writers(
    db_path: Path, database, executions: ExecutionRepository
) -> None:
    threads_count, transitions = 4, 50
    node_ids = [f"n{index}" for index in range(threads_count)]
    workflow = publish(database, "root", *node_ids)
    record, _ = executions.create(workflow, None)
    execution_id = record.execution_id
    barrier = threading.Barrier(threads_count)
    returned: dict[str, list[int]] = {node_id: [] for node_id in node_ids}
    failures: list[BaseException] = []

    def flip(node_id: str) -> None:
        own = open_database(db_path)  # another Database, as another process would have
        repo = ExecutionRepository(own)
        try:
            barrier.wait(10)
            for index in range(transitions):
                status = "running" if index % 2 == 0 else "pending"
                event = repo.set_node_status(execution_id, node_id, status, f"node.{status}")
                assert event is not None
                returned[node_id].append(event.seq)
        except BaseException as failure:  # reported in the main thread
            failures.append(failure)
        finally:
            own.close()

    workers = [threading.Thread(target=flip, args=(node_id,)) for node_id in node_ids]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    assert not failures, failures
    total = 1 + threads_count * transitions
    history = executions.events(execution_id)
    assert [event.seq for event in history] == list(range(1, total + 1))
    all_returned = sorted(seq for numbers in returned.values() for seq in numbers)
    assert all_returned == list(range(2, total + 1))
    for node_id in node_ids:
        assert returned[node_id] == sorted(returned[node_id])
        mine = [event for event in history if event.node_id == node_id]
        assert [event.seq for event in mine] == returned[node_id]
        assert [event.type for event in mine] == ["node.running", "node.pending"] * (
            transitions // 2
        )


# --- cancel --------------------------------------------------------------------------------


def test_cancel_of_a_running_execution_cancels_its_unfinished_nodes(
    started: str, executions: ExecutionRepository
) -> None:
    last = seqs(executions, started)[-1]
    record, events = executions.cancel(started)
    assert record.status == "cancelled"
    assert record.is_finished and record.completed_at is not None
    assert record.error == {"type": "Cancelled", "message": "the execution was cancelled"}
    statuses = {node_id: result.status for node_id, result in record.node_results.items()}
    assert statuses == {"a": "completed", "b": "cancelled", "c": "cancelled"}
    assert record.node_results["a"].error is None
    assert record.node_results["b"].error["type"] == "Cancelled"
    assert [(e.seq, e.type, e.node_id) for e in events] == [
        (last + 1, "node.cancelled", "b"),
        (last + 2, "node.cancelled", "c"),
        (last + 3, "execution.cancelled", None),
    ]
    assert executions.events(started, after_seq=last) == events
    assert executions.get(started) == record


def test_cancel_of_a_pending_execution_cancels_every_node(
    database, executions: ExecutionRepository
) -> None:
    record, _ = executions.create(publish(database, "a", "b"), None)
    cancelled, events = executions.cancel(record.execution_id)
    assert cancelled.status == "cancelled"
    assert {r.status for r in cancelled.node_results.values()} == {"cancelled"}
    assert [e.seq for e in events] == [2, 3, 4]


@pytest.mark.parametrize("final", ["completed", "failed", "cancelled"])
def test_cancel_of_a_finished_execution_returns_it_unchanged_without_events(
    started: str, executions: ExecutionRepository, final: str
) -> None:
    if final == "cancelled":
        executions.cancel(started)
    else:
        assert executions.set_execution_status(started, final, f"execution.{final}")
    before, history = executions.get(started), executions.events(started)
    record, events = executions.cancel(started)
    assert events == []
    assert record == before
    assert record.status == final
    assert executions.events(started) == history


# --- claims --------------------------------------------------------------------------------


def now() -> datetime:
    return datetime.now(UTC)


def stale_limit(seconds: float = 15.0) -> datetime:
    return now() - timedelta(seconds=seconds)


def test_a_live_claim_blocks_another_owner(database, executions: ExecutionRepository) -> None:
    record, _ = executions.create(publish(database, "a", "b"), None)
    execution_id = record.execution_id
    assert executions.owner_of(execution_id) == (None, None)
    assert executions.claim(execution_id, "runner-a", None, stale_limit())
    owner, heartbeat = executions.owner_of(execution_id)
    assert owner == "runner-a"
    assert now() - heartbeat < timedelta(seconds=5)
    assert not executions.claim(execution_id, "runner-b", None, stale_limit())
    assert not executions.claim(execution_id, "runner-b", "someone-else", stale_limit())
    assert executions.owner_of(execution_id)[0] == "runner-a"
    # The owner itself may claim again only through the same rules: its claim is live.
    assert executions.heartbeat(execution_id, "runner-a") == "pending"


def test_a_stale_heartbeat_lets_another_owner_take_over(
    database, executions: ExecutionRepository
) -> None:
    record, _ = executions.create(publish(database, "a", "b"), None)
    execution_id = record.execution_id
    assert executions.claim(execution_id, "runner-a", None, stale_limit())
    # Everything older than a moment from now counts as stale.
    assert executions.claim(execution_id, "runner-b", None, now() + timedelta(seconds=1))
    assert executions.owner_of(execution_id)[0] == "runner-b"
    assert executions.heartbeat(execution_id, "runner-a") is None
    assert executions.heartbeat(execution_id, "runner-b") == "pending"


def test_replacing_a_known_dead_owner_takes_over(database, executions: ExecutionRepository) -> None:
    record, _ = executions.create(publish(database, "a", "b"), None)
    execution_id = record.execution_id
    assert executions.claim(execution_id, "runner-a", None, stale_limit())
    assert executions.claim(execution_id, "runner-b", "runner-a", stale_limit())
    assert executions.owner_of(execution_id)[0] == "runner-b"
    assert executions.heartbeat(execution_id, "runner-a") is None


def test_heartbeat_returns_the_status_and_renews_the_claim(
    started: str, executions: ExecutionRepository
) -> None:
    assert executions.claim(started, "runner-a", None, stale_limit())
    first = executions.owner_of(started)[1]
    assert executions.heartbeat(started, "runner-a") == "running"
    assert executions.owner_of(started)[1] >= first
    executions.cancel(started)
    assert executions.heartbeat(started, "runner-a") == "cancelled"


def test_release_frees_the_claim_only_for_its_owner(
    database, executions: ExecutionRepository
) -> None:
    record, _ = executions.create(publish(database, "a", "b"), None)
    execution_id = record.execution_id
    assert executions.claim(execution_id, "runner-a", None, stale_limit())
    executions.release(execution_id, "runner-b")
    assert executions.owner_of(execution_id)[0] == "runner-a"
    executions.release(execution_id, "runner-a")
    assert executions.owner_of(execution_id) == (None, None)
    assert executions.heartbeat(execution_id, "runner-a") is None
    assert executions.claim(execution_id, "runner-c", None, stale_limit())


def test_a_finished_execution_cannot_be_claimed(
    started: str, executions: ExecutionRepository
) -> None:
    executions.set_execution_status(started, "completed", "execution.completed")
    assert not executions.claim(started, "runner-a", None, stale_limit())
    assert executions.owner_of(started) == (None, None)


def test_claims_write_no_events(started: str, executions: ExecutionRepository) -> None:
    history: list[Any] = executions.events(started)
    executions.claim(started, "runner-a", None, stale_limit())
    executions.heartbeat(started, "runner-a")
    executions.release(started, "runner-a")
    assert executions.events(started) == history
