"""The same schema, repositories and runner on a real PostgreSQL server."""

import threading
from pathlib import Path

import pytest
from sqlalchemy import text

from studio.model import Workflow
from studio.model.errors import WORKFLOW_CONFLICT, ConflictError
from studio.store import ExecutionRepository, WorkflowRepository, open_database
from studio.store.migrations import SCHEMA_VERSION, current_version
from tests.engine.runner_harness import INVOCATIONS, chain, make_harness


def test_the_schema_is_created_and_versioned(postgres_url: str) -> None:
    database = open_database(postgres_url)
    assert database.engine.dialect.name == "postgresql"
    with database.read() as connection:
        assert current_version(connection) == SCHEMA_VERSION
        tables = connection.execute(
            text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        ).scalars()
        assert {
            "workflows",
            "workflow_versions",
            "executions",
            "node_results",
            "execution_events",
            "apps",
        } <= set(tables)


def test_optimistic_locking_refuses_a_stale_update(postgres_url: str) -> None:
    workflows = WorkflowRepository(open_database(postgres_url))
    stored = workflows.create(Workflow.model_validate(chain("a", "b")))
    updated = workflows.update(stored.model_copy(update={"name": "renamed"}), stored.version)
    with pytest.raises(ConflictError, match=WORKFLOW_CONFLICT):
        workflows.update(stored.model_copy(update={"name": "stale"}), stored.version)
    assert workflows.get(stored.id).name == "renamed"
    assert workflows.get_version(stored.id, stored.version).name == stored.name
    assert updated.version == stored.version + 1


def test_event_numbers_stay_gapless_with_concurrent_writers(postgres_url: str) -> None:
    workflows = WorkflowRepository(open_database(postgres_url))
    workflow = workflows.create(Workflow.model_validate(chain(*[f"n{i}" for i in range(8)])))
    record, _ = ExecutionRepository(open_database(postgres_url)).create(workflow, None)

    def move_nodes(node_ids: list[str]) -> None:
        repository = ExecutionRepository(open_database(postgres_url))
        for node_id in node_ids:
            for status in ("running", "retrying", "running", "completed"):
                repository.set_node_status(record.execution_id, node_id, status, f"node.{status}")

    threads = [
        threading.Thread(target=move_nodes, args=([f"n{i}", f"n{i + 4}"],)) for i in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    sequence = [
        e.seq for e in ExecutionRepository(open_database(postgres_url)).events(record.execution_id)
    ]
    assert sequence == list(range(1, 8 * 4 + 2))


def test_the_runner_runs_a_branching_workflow_on_postgres(
    postgres_url: str, tmp_path: Path
) -> None:
    harness = make_harness(tmp_path, database=postgres_url)
    data = {
        "nodes": [{"id": n, "agentId": "counter"} for n in ("route", "yes", "no", "after")],
        "edges": [
            {
                "source": "route",
                "target": "yes",
                "condition": {"field": "go", "operator": "equals", "value": True},
            },
            {
                "source": "route",
                "target": "no",
                "condition": {"field": "go", "operator": "equals", "value": False},
            },
            {"source": "yes", "target": "after"},
        ],
    }
    record = harness.execute(harness.publish(data), {"go": True})
    assert record.status == "completed"
    assert {n: r.status for n, r in record.node_results.items()} == {
        "route": "completed",
        "yes": "completed",
        "no": "skipped",
        "after": "completed",
    }
    assert INVOCATIONS[(record.execution_id, "no")] == 0
    sequence = [e.seq for e in harness.executions.events(record.execution_id)]
    assert sequence == list(range(1, len(sequence) + 1))


def test_cancel_on_postgres(postgres_url: str, tmp_path: Path) -> None:
    harness = make_harness(tmp_path, database=postgres_url)
    workflow = harness.publish(
        {
            "nodes": [
                {"id": "slow", "agentId": "sleep", "configuration": {"parameters": {"seconds": 30}}}
            ]
        }
    )

    assert harness.run_and_cancel_when_running(workflow, "slow").status == "cancelled"
