"""Killing a `studio run` subprocess at a moment when a node is surely inside its work."""

import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studio.store import ExecutionRepository, open_database

KILL_WINDOW = (0.015, 0.040)  # seconds into a node's run: inside its sleep, far from its write


def studio(*args: str) -> list[str]:
    return [sys.executable, "-m", "studio", *args]


def kill_inside_a_node(process: subprocess.Popen, database: Path, min_completed: int = 5) -> str:
    """Wait until a node past the first few is inside its sleep, then SIGKILL the run."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if database.exists():
            target = _node_mid_sleep(database, min_completed)
            if target is not None:
                process.send_signal(signal.SIGKILL)
                process.wait(timeout=10)
                return target
        time.sleep(0.003)
    process.kill()
    pytest.fail("the run never reached a node to interrupt")


_REPOSITORIES: dict[Path, ExecutionRepository] = {}


def _node_mid_sleep(database: Path, min_completed: int) -> str | None:
    repository = _REPOSITORIES.setdefault(database, ExecutionRepository(open_database(database)))
    records = repository.find()
    if not records:
        return None
    record = repository.get(records[0].execution_id)
    completed = sum(r.status == "completed" for r in record.node_results.values())
    for node_id, result in record.node_results.items():
        if result.status == "running" and result.started_at and completed >= min_completed:
            age = (datetime.now(UTC) - result.started_at).total_seconds()
            if KILL_WINDOW[0] <= age <= KILL_WINDOW[1]:
                return node_id
    return None
