"""A side-effecting call interrupted after its reservation is reported, never silently repeated.

A chain of side-effecting shell nodes is killed with SIGKILL while one node's call has
started (its running record is the reservation) but has not finished (no completed record).
On resume the finalized calls are not made again and the interrupted one is reported.
"""

import json
import os
import signal
import subprocess
from pathlib import Path

from studio.store import ExecutionRepository, open_database
from tests.cli_runner import REPO_ROOT
from tests.engine.process_kills import kill_inside_a_node, studio
from tests.engine.test_kill_and_resume import write_case

NODES = 12


def kill_then_resume(tmp_path: Path, constraints: dict) -> tuple[dict, str, list[str], list]:
    agents, workflow, ledger = write_case(tmp_path, NODES, constraints)
    database = tmp_path / "studio.db"
    common = ["--db", str(database), "--agents", str(agents)]
    run = subprocess.Popen(
        studio("run", str(workflow), "--quiet", *common),
        cwd=REPO_ROOT,
        env=dict(os.environ),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    interrupted = kill_inside_a_node(run, database, min_completed=3)
    assert run.returncode == -signal.SIGKILL
    execution_id = ExecutionRepository(open_database(database)).find()[0].execution_id
    resumed = subprocess.run(
        studio("resume", execution_id, "--json", "--quiet", *common),
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    record = json.loads(resumed.stdout)
    events = ExecutionRepository(open_database(database)).events(execution_id)
    return record, interrupted, ledger.read_text().split(), events


def test_an_interrupted_side_effecting_call_is_reported_and_not_repeated(tmp_path: Path) -> None:
    record, interrupted, ledger, events = kill_then_resume(tmp_path, {"sideEffecting": True})
    results = record["nodeResults"]
    completed = [node for node, result in results.items() if result["status"] == "completed"]
    assert sorted(ledger) == sorted(completed), "a finalized call ran again, or one was lost"
    assert interrupted not in ledger
    assert results[interrupted]["status"] == "failed"
    error = results[interrupted]["error"]
    assert error["type"] == "Interrupted"
    assert error["failureClass"] == "INTERRUPTED"
    assert error["recommendedAction"] == "manual_review_required"
    assert "may have run" in error["message"]
    assert record["status"] == "failed"
    reported = [e for e in events if e.type == "node.interrupted" and e.node_id == interrupted]
    assert reported and reported[0].payload["mayHaveRun"] is True


def test_a_node_whose_policy_allows_it_runs_the_interrupted_call_again(tmp_path: Path) -> None:
    record, interrupted, ledger, _ = kill_then_resume(
        tmp_path, {"sideEffecting": True, "onInterrupted": "retry"}
    )
    assert record["status"] == "completed"
    assert sorted(ledger) == [f"n{i:02d}" for i in range(NODES)]
    assert interrupted in ledger
