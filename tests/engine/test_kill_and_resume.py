"""A `studio run` killed with SIGKILL mid-run resumes from the store and runs each node once.

Fifty shell nodes in a row; each sleeps, then appends its name to a ledger file and passes
its input on. The run is killed while a node is surely inside its sleep (before its ledger
line), so the ledger shows whether resume re-ran any node that had completed.
"""

import json
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studio.store import ExecutionRepository, open_database
from tests.cli_runner import REPO_ROOT

NODES = 50
SLEEP = 0.06
KILL_WINDOW = (0.015, 0.040)  # seconds into a node's run: inside its sleep, far from its write

AGENT = """\
id: ledger-writer
name: Ledger writer
kind: shell
settings:
  argv: ["sh", "-c", "sleep {sleep}; printf '%s\\\\n' \\"$NODE\\" >> \\"$LEDGER\\"; cat"]
  env:
    NODE: "${{parameters.node}}"
    LEDGER: "${{parameters.ledger}}"
"""


def write_case(folder: Path) -> tuple[Path, Path, Path]:
    """The agent folder, the workflow file and the ledger path."""
    agents = folder / "agents"
    agents.mkdir()
    (agents / "ledger-writer.yaml").write_text(AGENT.format(sleep=SLEEP), encoding="utf-8")
    ledger = folder / "ledger.txt"
    nodes = [
        {
            "id": f"n{i:02d}",
            "agentId": "ledger-writer",
            "configuration": {"parameters": {"node": f"n{i:02d}", "ledger": str(ledger)}},
        }
        for i in range(NODES)
    ]
    edges = [{"source": f"n{i:02d}", "target": f"n{i + 1:02d}"} for i in range(NODES - 1)]
    workflow = folder / "ledger-chain.json"
    workflow.write_text(json.dumps({"name": "ledger chain", "nodes": nodes, "edges": edges}))
    return agents, workflow, ledger


def studio(*args: str) -> list[str]:
    return [sys.executable, "-m", "studio", *args]


def kill_inside_a_node(process: subprocess.Popen, database: Path) -> str:
    """Wait until a node past the first few is inside its sleep, then SIGKILL the run."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if database.exists():
            target = _node_mid_sleep(database)
            if target is not None:
                process.send_signal(signal.SIGKILL)
                process.wait(timeout=10)
                return target
        time.sleep(0.003)
    process.kill()
    pytest.fail("the run never reached a node to interrupt")


_REPOSITORIES: dict[Path, ExecutionRepository] = {}


def _node_mid_sleep(database: Path) -> str | None:
    repository = _REPOSITORIES.setdefault(database, ExecutionRepository(open_database(database)))
    records = repository.find()
    if not records:
        return None
    record = repository.get(records[0].execution_id)
    completed = sum(r.status == "completed" for r in record.node_results.values())
    for node_id, result in record.node_results.items():
        if result.status == "running" and result.started_at and completed >= 5:
            age = (datetime.now(UTC) - result.started_at).total_seconds()
            if KILL_WINDOW[0] <= age <= KILL_WINDOW[1]:
                return node_id
    return None


@pytest.mark.parametrize("attempt", range(10))
def test_a_killed_run_resumes_and_every_node_runs_exactly_once(
    tmp_path: Path, attempt: int
) -> None:
    agents, workflow, ledger = write_case(tmp_path)
    database = tmp_path / "studio.db"
    common = ["--db", str(database), "--agents", str(agents)]
    env = dict(os.environ)
    run = subprocess.Popen(
        studio("run", str(workflow), "--quiet", *common),
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    interrupted = kill_inside_a_node(run, database)
    assert run.returncode == -signal.SIGKILL
    execution_id = ExecutionRepository(open_database(database)).find()[0].execution_id
    resumed = subprocess.run(
        studio("resume", execution_id, "--json", "--quiet", *common),
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    record = json.loads(resumed.stdout)
    assert record["status"] == "completed"
    lines = ledger.read_text(encoding="utf-8").split()
    assert sorted(lines) == [f"n{i:02d}" for i in range(NODES)], f"interrupted {interrupted}"
    events = ExecutionRepository(open_database(database)).events(execution_id)
    assert any(e.type == "node.interrupted" and e.node_id == interrupted for e in events)
