"""A `studio run` killed with SIGKILL mid-run resumes from the store and runs each node once.

Fifty shell nodes in a row; each sleeps, then appends its name to a ledger file and passes
its input on. The run is killed while a node is surely inside its sleep (before its ledger
line), so the ledger shows whether resume re-ran any node that had completed.
"""

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from studio.store import ExecutionRepository, open_database
from tests.cli_runner import REPO_ROOT
from tests.engine.process_kills import kill_inside_a_node, studio

NODES = 50
SLEEP = 0.06

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


def write_case(
    folder: Path, nodes_count: int = NODES, constraints: dict | None = None
) -> tuple[Path, Path, Path]:
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
            "constraints": constraints or {},
        }
        for i in range(nodes_count)
    ]
    edges = [{"source": f"n{i:02d}", "target": f"n{i + 1:02d}"} for i in range(nodes_count - 1)]
    workflow = folder / "ledger-chain.json"
    workflow.write_text(json.dumps({"name": "ledger chain", "nodes": nodes, "edges": edges}))
    return agents, workflow, ledger


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
