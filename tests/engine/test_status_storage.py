"""Statuses are enums in code and the same plain strings in the database as before."""

import sqlite3

from studio.model.execution import (
    COMPLETED,
    FAILED,
    ExecutionStatus,
    NodeStatus,
    UnwindStatus,
)
from tests.engine.runner_harness import chain, make_harness

OLD_NODE_LITERALS = {
    "PENDING": "pending",
    "RUNNING": "running",
    "RETRYING": "retrying",
    "WAITING": "waiting",
    "COMPLETED": "completed",
    "FAILED": "failed",
    "SKIPPED": "skipped",
    "CANCELLED": "cancelled",
    "COMPENSATING": "compensating",
    "COMPENSATED": "compensated",
    "COMPENSATION_FAILED": "compensation_failed",
}


def test_every_status_keeps_its_old_literal():
    assert {status.name: status.value for status in NodeStatus} == OLD_NODE_LITERALS
    assert {status.value for status in ExecutionStatus} == {
        "pending",
        "running",
        "waiting",
        "completed",
        "failed",
        "cancelled",
    }
    assert [status.value for status in UnwindStatus] == ["running", "completed", "partial"]


def test_the_sqlite_file_holds_the_old_strings(tmp_path):
    harness = make_harness(tmp_path)
    data = chain("a", "b")
    data["nodes"][1] = {"id": "b", "agentId": "failing"}
    record = harness.execute(harness.publish(data))
    assert record.status is ExecutionStatus.FAILED
    assert record.node_results["a"].status is NodeStatus.COMPLETED

    with sqlite3.connect(harness.target) as raw:
        (execution_status,) = raw.execute(
            "SELECT status FROM executions WHERE id = ?", (record.execution_id,)
        ).fetchone()
        node_statuses = dict(
            raw.execute(
                "SELECT node_id, status FROM node_results WHERE execution_id = ?",
                (record.execution_id,),
            ).fetchall()
        )
    assert (type(execution_status), execution_status) == (str, "failed")
    assert node_statuses == {"a": "completed", "b": "failed"}
    assert node_statuses["a"] == COMPLETED and node_statuses["b"] == FAILED
