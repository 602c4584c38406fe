"""The SQLite hot path writes exactly what the SQLAlchemy path writes."""

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy import select

from studio.model import Workflow
from studio.store import ExecutionRepository, WorkflowRepository, open_database
from studio.store.driver_statements import compile_for_driver
from studio.store.node_transitions import _node_update
from studio.store.schema import execution_events, node_results


def test_a_compiled_update_converts_json_and_timestamps_like_sqlalchemy(tmp_path: Path) -> None:
    database = open_database(tmp_path / "studio.db")
    workflow = WorkflowRepository(database).create(
        Workflow.model_validate({"nodes": [{"id": "a", "agentId": "x"}]})
    )
    record, _ = ExecutionRepository(database).create(workflow, None)
    moment = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
    statement = compile_for_driver(
        _node_update("running", ("input", "started_at", "status")), database.engine.dialect
    )
    values = {
        "input": {"nested": [1, "two", None]},
        "started_at": moment,
        "status": "running",
        "where_execution_id": record.execution_id,
        "where_node_id": "a",
    }
    with database.write() as connection:
        assert statement.execute(connection, values).rowcount == 1
    with database.read() as connection:
        row = connection.execute(select(node_results)).one()
    assert row.input == {"nested": [1, "two", None]}
    assert row.started_at == moment
    assert row.status == "running"


def test_a_refused_transition_changes_no_row(tmp_path: Path) -> None:
    database = open_database(tmp_path / "studio.db")
    workflow = WorkflowRepository(database).create(
        Workflow.model_validate({"nodes": [{"id": "a", "agentId": "x"}]})
    )
    repository = ExecutionRepository(database)
    record, _ = repository.create(workflow, None)
    assert (
        repository.set_node_status(record.execution_id, "a", "completed", "node.completed") is None
    )
    assert repository.get(record.execution_id).node_results["a"].status == "pending"


def test_moments_written_in_turn_through_any_column_each_keep_their_own_text() -> None:
    started, created = node_results.c.started_at.type, execution_events.c.created_at.type
    first = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
    second = datetime(2026, 1, 2, 3, 4, 5, 678902, tzinfo=UTC)
    local = datetime(2026, 1, 2, 4, 4, 5, 678901, tzinfo=timezone(timedelta(hours=1)))
    written = [
        started.process_bind_param(first, None),
        created.process_bind_param(first, None),
        created.process_bind_param(second, None),
        started.process_bind_param(first, None),
        started.process_bind_param(local, None),
        started.process_bind_param(datetime(999, 1, 1, tzinfo=UTC), None),
    ]
    assert written == [
        "2026-01-02T03:04:05.678901Z",
        "2026-01-02T03:04:05.678901Z",
        "2026-01-02T03:04:05.678902Z",
        "2026-01-02T03:04:05.678901Z",
        "2026-01-02T03:04:05.678901Z",
        "999-01-01T00:00:00.000000Z",  # as strftime has always written it
    ]
