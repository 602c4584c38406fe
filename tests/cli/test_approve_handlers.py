"""`studio approve` and `studio approvals` through real subprocesses."""

import json
from pathlib import Path

import yaml

from tests.cli_runner import run_studio

GATED = {
    "name": "gated",
    "nodes": [
        {"id": "prepare", "agentId": "demo-echo-agent"},
        {"id": "gate", "agentId": "human-approval"},
        {"id": "after", "agentId": "demo-echo-agent"},
    ],
    "edges": [{"source": "prepare", "target": "gate"}, {"source": "gate", "target": "after"}],
}


def start_gated_run(tmp_path: Path) -> tuple[str, Path]:
    workflow = tmp_path / "gated.yaml"
    workflow.write_text(yaml.safe_dump(GATED))
    run = run_studio("run", str(workflow), "--input", '{"order": 7}', "--json", "--quiet")
    assert run.returncode == 3, run.stderr
    record = json.loads(run.stdout)
    assert record["status"] == "waiting"
    assert f"studio approve {record['executionId']} gate" in run.stderr
    return record["executionId"], workflow


def test_a_waiting_run_is_listed_then_approved_and_completes(tmp_path: Path) -> None:
    execution_id, _ = start_gated_run(tmp_path)
    waiting = json.loads(run_studio("approvals", "--json").stdout)
    assert [(t["executionId"], t["nodeId"]) for t in waiting] == [(execution_id, "gate")]
    assert waiting[0]["input"] == {"order": 7}
    approved = run_studio(
        "approve", execution_id, "gate", "--comment", "fine", "--by", "ana", "--json", "--quiet"
    )
    assert approved.returncode == 0, approved.stderr
    record = json.loads(approved.stdout)
    assert record["status"] == "completed"
    assert record["output"] == {"order": 7}
    assert json.loads(run_studio("approvals", "--json").stdout) == []
    shown = json.loads(run_studio("executions", "show", execution_id, "--events", "--json").stdout)
    decided = [e for e in shown["events"] if e["type"] == "approval.decided"]
    assert decided[0]["payload"] == {"decision": "approved", "by": "ana", "comment": "fine"}


def test_a_rejection_fails_the_node_with_the_comment(tmp_path: Path) -> None:
    execution_id, _ = start_gated_run(tmp_path)
    rejected = run_studio(
        "approve", execution_id, "gate", "--reject", "--comment", "not today", "--json", "--quiet"
    )
    assert rejected.returncode == 1
    record = json.loads(rejected.stdout)
    assert record["status"] == "failed"
    error = record["nodeResults"]["gate"]["error"]
    assert error["type"] == "ApprovalRejected" and "not today" in error["message"]
    assert record["nodeResults"]["after"]["status"] == "failed"


def test_a_node_that_needs_no_approval_is_refused(tmp_path: Path) -> None:
    execution_id, _ = start_gated_run(tmp_path)
    refused = run_studio("approve", execution_id, "prepare")
    assert refused.returncode == 2
    assert "does not wait for approval" in refused.stderr
    unknown = run_studio("approve", execution_id, "nope")
    assert unknown.returncode == 2 and "'nope' is not in the workflow" in unknown.stderr


def test_a_second_decision_does_not_overwrite_the_first(tmp_path: Path) -> None:
    execution_id, _ = start_gated_run(tmp_path)
    assert run_studio("approve", execution_id, "gate", "--quiet").returncode == 0
    again = run_studio("approve", execution_id, "gate", "--reject")
    assert again.returncode == 1
    assert "already approved" in again.stderr


def test_deciding_again_the_same_way_logs_the_decision_once(tmp_path: Path) -> None:
    execution_id, _ = start_gated_run(tmp_path)
    assert run_studio("approve", execution_id, "gate", "--by", "ana", "--quiet").returncode == 0
    again = run_studio("approve", execution_id, "gate", "--by", "bo", "--quiet")
    assert again.returncode == 0, again.stderr
    shown = json.loads(run_studio("executions", "show", execution_id, "--events", "--json").stdout)
    decided = [e["payload"] for e in shown["events"] if e["type"] == "approval.decided"]
    assert decided == [{"decision": "approved", "by": "ana", "comment": None}]


def test_a_workspace_policy_denies_an_agent(tmp_path: Path, studio_data_dir: Path) -> None:
    (studio_data_dir / "settings.yaml").write_text("governance:\n  denyAgents: [demo-echo-agent]\n")
    run = run_studio("run", "blueprints/echo-demo-workflow.yaml", "--json", "--quiet")
    assert run.returncode == 1
    error = json.loads(run.stdout)["nodeResults"]["say-hello"]["error"]
    assert error["failureClass"] == "POLICY_DENIED"
    assert error["recommendedAction"] == "escalate_to_human"


def test_a_broken_settings_file_is_reported_in_one_line(
    tmp_path: Path, studio_data_dir: Path
) -> None:
    (studio_data_dir / "settings.yaml").write_text("governance:\n  denyAgents: [unclosed\n")
    run = run_studio("run", "blueprints/echo-demo-workflow.yaml", "--quiet")
    assert run.returncode == 2
    assert "settings.yaml" in run.stderr and "Traceback" not in run.stderr
