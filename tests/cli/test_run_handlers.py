"""``studio run``, ``executions``, ``cancel``, ``--db`` and logs as a user runs them: real
subprocesses, real files, each test with its own data folder."""

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from studio.store.migrations import SCHEMA_VERSION
from tests.cli_runner import REPO_ROOT, run_studio

ECHO_DEMO = REPO_ROOT / "blueprints" / "echo-demo-workflow.yaml"
PLACEHOLDER = REPO_ROOT / "blueprints" / "parallel-fan-out.yaml"
ECHO_NODES = ("say-hello", "echo-back")


# --- helpers -------------------------------------------------------------------------------


def studio_json(*args: str, expect: int = 0, env: dict[str, str] | None = None) -> Any:
    """Run a ``--json`` command; its stdout must be exactly one JSON document."""
    result = run_studio(*args, "--json", env=env)
    assert result.returncode == expect, result.stdout + result.stderr
    return json.loads(result.stdout)


def write_yaml(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def shell_agent(folder: Path, agent_id: str, script: str) -> None:
    """A shell agent running ``sh -c SCRIPT``, in the ``--agents`` folder."""
    data = {
        "id": agent_id,
        "name": agent_id,
        "kind": "shell",
        "settings": {"argv": ["sh", "-c", script]},
    }
    write_yaml(folder / f"{agent_id}.yaml", data)


def workflow_file(path: Path, nodes: list[dict], edges: list[tuple[str, str]]) -> Path:
    data = {
        "name": path.stem,
        "nodes": nodes,
        "edges": [{"source": source, "target": target} for source, target in edges],
    }
    return write_yaml(path, data)


def seconds_between(start: str, end: str) -> float:
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def stored_workflow_count(data_dir: Path) -> int:
    database = data_dir / "studio.db"
    if not database.exists():
        return 0
    with contextlib.closing(sqlite3.connect(database)) as raw:
        return raw.execute("SELECT count(*) FROM workflows").fetchone()[0]


@pytest.fixture
def agents(tmp_path: Path) -> Path:
    folder = tmp_path / "agents"
    folder.mkdir()
    return folder


# --- studio run ----------------------------------------------------------------------------


def test_run_the_echo_demo_prints_one_json_document_and_progress_on_stderr() -> None:
    result = run_studio("run", str(ECHO_DEMO), "--input", '{"message":"hi"}', "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)  # the whole of stdout is one document
    assert document["status"] == "completed"
    assert document["input"] == {"message": "hi"}
    assert document["output"] == {"message": "hi"}
    assert list(document["nodeResults"]) == list(ECHO_NODES)
    for node_id in ECHO_NODES:
        node = document["nodeResults"][node_id]
        assert node["status"] == "completed"
        assert node["output"] == {"message": "hi"}
        assert node["input"] == {"message": "hi"}
        assert node["error"] is None
        assert node["retryCount"] == 0
    for node_id in ECHO_NODES:
        assert f"▶ {node_id}  started" in result.stderr
        assert f"✓ {node_id}  completed in" in result.stderr
    assert "▶" not in result.stdout and "✓" not in result.stdout
    assert f"execution {document['executionId']} started" in result.stderr
    assert "execution completed" in result.stderr


def test_input_can_come_from_a_file(tmp_path: Path) -> None:
    payload = {"message": "from a file", "list": [1, 2, {"ü": None}]}
    source = tmp_path / "input.json"
    source.write_text(json.dumps(payload), encoding="utf-8")
    document = studio_json("run", str(ECHO_DEMO), "--input", f"@{source}")
    assert document["status"] == "completed"
    assert document["output"] == payload


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ('{"message": ', "--input is not valid JSON: Expecting value at line 1, column 13"),
        ("@FILE", "FILE is not valid JSON: Expecting ',' delimiter at line 1, column 9"),
        ("@MISSING", "cannot read the input file MISSING: [Errno 2] No such file or directory"),
    ],
)
def test_bad_input_exits_2_naming_the_problem_and_stores_nothing(
    tmp_path: Path, studio_data_dir: Path, given: str, expected: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": 1 "b": 2}', encoding="utf-8")
    missing = tmp_path / "missing.json"

    def named(text: str) -> str:
        return text.replace("MISSING", str(missing)).replace("FILE", str(bad))

    result = run_studio("run", str(ECHO_DEMO), "--input", named(given), "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"studio: {named(expected)}")
    assert len(result.stderr.strip().splitlines()) == 1
    assert stored_workflow_count(studio_data_dir) == 0


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (
            "[" * 500 + "]" * 500,
            "--input: [0][0][0][0][0][0][0][0]…: nested deeper than 200 levels",
        ),
        ("[" * 5000 + "]" * 5000, "--input: nested deeper than 200 levels"),
        ('{"x": NaN}', "--input: x: numbers must be finite"),
        ('{"x": [Infinity]}', "--input: x[0]: numbers must be finite"),
        ("-Infinity", "--input: numbers must be finite"),
        (
            json.dumps({"text": "y" * 1_000_001}),
            "--input: text: a text of 1,000,001 characters; at most 1,000,000 are allowed",
        ),
    ],
    ids=["500-deep", "5000-deep", "nan", "infinity", "minus-infinity", "long-text"],
)
def test_input_over_the_limits_exits_2_in_one_line_and_starts_nothing(
    tmp_path: Path, studio_data_dir: Path, given: str, expected: str
) -> None:
    source = tmp_path / "input.json"
    source.write_text(given, encoding="utf-8")  # a long or deep input comes in a file
    result = run_studio("run", str(ECHO_DEMO), "--input", f"@{source}", "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == "studio: " + expected.replace("--input", str(source), 1) + "\n"
    assert stored_workflow_count(studio_data_dir) == 0
    assert studio_json("executions", "list") == []


def test_nan_given_on_the_command_line_is_refused_too(studio_data_dir: Path) -> None:
    result = run_studio("run", str(ECHO_DEMO), "--input", '{"message": NaN}')
    assert (result.returncode, result.stderr) == (
        2,
        "studio: --input: message: numbers must be finite\n",
    )
    assert studio_json("executions", "list") == []


def test_a_file_failing_publish_validation_exits_2_lists_problems_and_stores_nothing(
    studio_data_dir: Path,
) -> None:
    result = run_studio("run", str(PLACEHOLDER))
    assert result.returncode == 2
    assert result.stdout == ""
    for agent in ("placeholder-dispatcher", "placeholder-worker", "placeholder-aggregator"):
        assert f"placeholder agent '{agent}'" in result.stderr
    for node in ("dispatch", "worker-a", "worker-b", "worker-c", "aggregate"):
        assert f"{PLACEHOLDER}: error: node '{node}':" in result.stderr
    assert f"studio: {PLACEHOLDER} cannot run: it does not pass publish validation" in (
        result.stderr
    )
    assert stored_workflow_count(studio_data_dir) == 0
    assert studio_json("executions", "list") == []


def test_running_the_same_file_twice_reuses_the_stored_workflow(studio_data_dir: Path) -> None:
    first = studio_json("run", str(ECHO_DEMO), "--input", '{"n": 1}')
    second = studio_json("run", str(ECHO_DEMO), "--input", '{"n": 2}')
    assert first["workflowId"] == second["workflowId"]
    assert first["workflowVersion"] == second["workflowVersion"]
    assert first["executionId"] != second["executionId"]
    assert (first["output"], second["output"]) == ({"n": 1}, {"n": 2})
    assert stored_workflow_count(studio_data_dir) == 1


def test_a_failing_shell_node_fails_the_run_with_a_process_exit_error(
    tmp_path: Path, agents: Path
) -> None:
    shell_agent(agents, "fail-agent", "echo 'something broke' >&2; exit 1")
    flow = workflow_file(
        tmp_path / "failing.yaml",
        [{"id": "start", "agentId": "demo-echo-agent"}, {"id": "boom", "agentId": "fail-agent"}],
        [("start", "boom")],
    )
    document = studio_json("run", str(flow), "--agents", str(agents), expect=1)
    assert document["status"] == "failed"
    assert document["nodeResults"]["start"]["status"] == "completed"
    boom = document["nodeResults"]["boom"]
    assert boom["status"] == "failed"
    assert boom["error"]["type"] == "ProcessExit"
    assert "exited with code 1" in boom["error"]["message"]
    assert "something broke" in boom["error"]["message"]
    assert boom["retryCount"] == 0


def test_a_fan_out_of_three_sleeping_shell_nodes_runs_them_in_parallel(
    tmp_path: Path, agents: Path
) -> None:
    shell_agent(agents, "sleeper", "sleep 1; echo '{\"slept\": 1}'")
    sleepers = ("sleep-a", "sleep-b", "sleep-c")
    flow = workflow_file(
        tmp_path / "fan-out.yaml",
        [{"id": "split", "agentId": "demo-echo-agent"}]
        + [{"id": node_id, "agentId": "sleeper"} for node_id in sleepers],
        [("split", node_id) for node_id in sleepers],
    )
    document = studio_json("run", str(flow), "--agents", str(agents))
    assert document["status"] == "completed"
    results = document["nodeResults"]
    for node_id in sleepers:
        assert results[node_id]["output"] == {"slept": 1}
        assert seconds_between(results[node_id]["startedAt"], results[node_id]["completedAt"]) >= 1
    assert seconds_between(document["startedAt"], document["completedAt"]) < 2.5
    assert document["output"] == {node_id: {"slept": 1} for node_id in sleepers}


FLAKY_SCRIPT = (
    'n=$(cat "{counter}" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "{counter}"; '
    'if [ "$n" -le 2 ]; then echo "attempt $n: noise" >&2; '
    'echo "{{\\"errorType\\": \\"Transient\\", \\"message\\": \\"attempt $n failed\\"}}" >&2; '
    "exit 1; fi; "
    'echo "{{\\"attempts\\": $n}}"'
)


@pytest.mark.parametrize(
    ("max_retries", "retryable", "exit_code", "status", "retry_count", "attempts"),
    [
        (3, ["Transient"], 0, "completed", 2, 3),
        (1, ["Transient"], 1, "failed", 1, 2),
        (3, ["Other"], 1, "failed", 0, 1),
    ],
)
def test_a_flaky_shell_node_is_retried_by_its_policy(
    tmp_path: Path,
    agents: Path,
    max_retries: int,
    retryable: list[str],
    exit_code: int,
    status: str,
    retry_count: int,
    attempts: int,
) -> None:
    counter = tmp_path / "attempts.txt"
    shell_agent(agents, "flaky", FLAKY_SCRIPT.format(counter=counter))
    policy = {
        "maxRetries": max_retries,
        "backoffBase": 0.01,
        "backoffMax": 0.05,
        "retryableErrors": retryable,
    }
    flow = workflow_file(
        tmp_path / "flaky.yaml", [{"id": "flaky", "agentId": "flaky", "retryPolicy": policy}], []
    )
    document = studio_json("run", str(flow), "--agents", str(agents), expect=exit_code)
    node = document["nodeResults"]["flaky"]
    assert document["status"] == status
    assert node["status"] == status
    assert node["retryCount"] == retry_count
    assert counter.read_text().strip() == str(attempts)
    if status == "completed":
        assert node["output"] == {"attempts": attempts}
        assert node["error"] is None
    else:
        assert node["error"]["type"] == "Transient"
        assert node["error"]["message"] == f"attempt {attempts} failed"


# --- studio executions ---------------------------------------------------------------------


def test_executions_list_and_show_with_gap_free_events() -> None:
    run = studio_json("run", str(ECHO_DEMO), "--input", '{"message": "listed"}')
    listing = studio_json("executions", "list")
    assert len(listing) == 1
    summary = listing[0]
    assert summary["executionId"] == run["executionId"]
    assert summary["workflowId"] == run["workflowId"]
    assert summary["workflowVersion"] == run["workflowVersion"]
    assert summary["status"] == "completed"
    assert summary["startedAt"] == run["startedAt"]
    assert summary["completedAt"] == run["completedAt"]
    assert summary["durationSeconds"] == pytest.approx(
        seconds_between(run["startedAt"], run["completedAt"])
    )
    shown = studio_json("executions", "show", run["executionId"], "--events")
    events = shown.pop("events")
    assert shown == run
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1))
    assert events[0]["type"] == "execution.created"
    assert events[-1]["type"] == "execution.completed"
    assert {event["executionId"] for event in events} == {run["executionId"]}
    node_events = [(event["type"], event["nodeId"]) for event in events if event["nodeId"]]
    assert node_events == [
        ("node.started", "say-hello"),
        ("node.completed", "say-hello"),
        ("node.started", "echo-back"),
        ("node.completed", "echo-back"),
    ]


def test_resuming_a_finished_execution_changes_nothing() -> None:
    """P8: driving an execution again produces the same state and runs no node twice."""
    run = studio_json("run", str(ECHO_DEMO), "--input", '{"message": "once"}')
    assert studio_json("resume", run["executionId"]) == run
    shown = studio_json("executions", "show", run["executionId"], "--events")
    types = [event["type"] for event in shown.pop("events")]
    assert shown == run
    assert types.count("execution.started") == 1
    assert types.count("node.started") == 2
    assert "execution.resumed" not in types


def test_show_of_an_unknown_execution_exits_2() -> None:
    result = run_studio("executions", "show", "no-such-execution", "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip() == "studio: no execution 'no-such-execution' in this database"


# --- studio cancel -------------------------------------------------------------------------


def test_cancel_of_a_finished_execution_prints_it_unchanged() -> None:
    run = studio_json("run", str(ECHO_DEMO), "--input", '{"message": "done"}')
    cancelled = studio_json("cancel", run["executionId"])
    assert cancelled == run
    shown = studio_json("executions", "show", run["executionId"], "--events")
    assert shown["status"] == "completed"
    assert all("cancel" not in event["type"] for event in shown["events"])


def test_cancel_of_an_unknown_execution_exits_2() -> None:
    result = run_studio("cancel", "no-such-execution")
    assert result.returncode == 2
    assert result.stderr.strip() == "studio: no execution 'no-such-execution' in this database"


def wait_for_running(timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        running = [e for e in studio_json("executions", "list") if e["status"] == "running"]
        if running:
            return running[0]
        time.sleep(0.1)
    raise AssertionError("no execution reached running")


def process_is_gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return True
    return state == "Z"


def test_cancel_of_a_running_execution_stops_the_run(tmp_path: Path, agents: Path) -> None:
    pid_file = tmp_path / "sleeper.pid"
    shell_agent(agents, "long-sleep", f'echo $$ > "{pid_file}"; exec sleep 30')
    flow = workflow_file(
        tmp_path / "long.yaml",
        [{"id": "start", "agentId": "demo-echo-agent"}, {"id": "wait", "agentId": "long-sleep"}],
        [("start", "wait")],
    )
    command = [sys.executable, "-m", "studio", "run", str(flow), "--agents", str(agents), "--json"]
    run = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,
        env=dict(os.environ),
    )
    sleeper_pid: int | None = None
    try:
        execution = wait_for_running()
        deadline = time.monotonic() + 10
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        sleeper_pid = int(pid_file.read_text())
        cancelled_at = time.monotonic()
        cancelled = studio_json("cancel", execution["executionId"])
        assert cancelled["status"] == "cancelled"
        assert cancelled["nodeResults"]["wait"]["status"] == "cancelled"
        stdout, stderr = run.communicate(timeout=15)
        assert time.monotonic() - cancelled_at < 6
        assert run.returncode == 1, stderr
        final = json.loads(stdout)
        assert final["executionId"] == execution["executionId"]
        assert final["status"] == "cancelled"
        assert final["nodeResults"]["start"]["status"] == "completed"
        assert final["nodeResults"]["wait"]["status"] == "cancelled"
        shown = studio_json("executions", "show", execution["executionId"], "--events")
        assert shown["status"] == "cancelled"
        assert [event["seq"] for event in shown["events"]] == list(
            range(1, len(shown["events"]) + 1)
        )
        assert shown["events"][-1]["type"] == "execution.cancelled"
        deadline = time.monotonic() + 5
        while not process_is_gone(sleeper_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert process_is_gone(sleeper_pid), "the node's child process was left running"
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(10)
        if sleeper_pid is not None and not process_is_gone(sleeper_pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(sleeper_pid, signal.SIGKILL)


# --- where the database lives --------------------------------------------------------------


def test_db_option_puts_the_database_where_asked(tmp_path: Path, studio_data_dir: Path) -> None:
    target = tmp_path / "elsewhere" / "mine.db"
    run = studio_json("run", str(ECHO_DEMO), "--db", str(target))
    assert target.is_file()
    assert not (studio_data_dir / "studio.db").exists()
    listing = studio_json("executions", "list", "--db", f"sqlite:///{target}")
    assert [entry["executionId"] for entry in listing] == [run["executionId"]]


def test_studio_db_variable_puts_the_database_where_asked(
    tmp_path: Path, studio_data_dir: Path
) -> None:
    target = tmp_path / "from-env" / "env.db"
    run = studio_json("run", str(ECHO_DEMO), env={**os.environ, "STUDIO_DB": str(target)})
    assert target.is_file()
    assert not (studio_data_dir / "studio.db").exists()
    with contextlib.closing(sqlite3.connect(target)) as raw:
        ids = [row[0] for row in raw.execute("SELECT id FROM executions")]
    assert ids == [run["executionId"]]


# --- structured logs -----------------------------------------------------------------------


def test_structured_json_logs_go_to_the_log_file_and_with_log_json_to_stderr(
    studio_data_dir: Path,
) -> None:
    result = run_studio("run", str(ECHO_DEMO), "--json", "--quiet", "--log-json")
    assert result.returncode == 0, result.stderr
    execution_id = json.loads(result.stdout)["executionId"]
    log_file = studio_data_dir / "logs" / "studio.log"
    assert log_file.is_file()
    file_entries = [json.loads(line) for line in log_file.read_text().splitlines()]
    stderr_entries = [json.loads(line) for line in result.stderr.splitlines()]
    assert file_entries
    assert stderr_entries == file_entries
    for entry in file_entries:
        assert {"level", "component", "executionId", "action", "timestamp"} <= set(entry)
        assert entry["executionId"] == execution_id
        assert entry["timestamp"].endswith("Z")
        datetime.fromisoformat(entry["timestamp"])
    actions = [entry["action"] for entry in file_entries]
    assert actions.count("invoke_node") == 2
    assert actions.count("node_completed") == 2
    assert "execution_completed" in actions
    invoked = [entry for entry in file_entries if entry["action"] == "invoke_node"]
    assert [entry["nodeId"] for entry in invoked] == list(ECHO_NODES)
    assert {entry["agentId"] for entry in invoked} == {"demo-echo-agent"}


def test_without_log_json_stderr_has_progress_but_the_file_still_gets_the_logs(
    studio_data_dir: Path,
) -> None:
    result = run_studio("run", str(ECHO_DEMO))
    assert result.returncode == 0, result.stderr
    assert not any(line.startswith("{") for line in result.stderr.splitlines())
    assert "Completed" in result.stdout
    lines = (studio_data_dir / "logs" / "studio.log").read_text().splitlines()
    assert lines and all("executionId" in json.loads(line) for line in lines)


# --- databases Studio cannot use -----------------------------------------------------------


def test_a_database_from_a_newer_studio_is_refused_in_one_line(tmp_path: Path) -> None:
    target = tmp_path / "newer.db"
    assert studio_json("executions", "list", "--db", str(target)) == []
    with contextlib.closing(sqlite3.connect(target)) as raw, raw:
        raw.execute("UPDATE schema_info SET version = 99")
    result = run_studio("executions", "list", "--db", str(target), "--json")
    assert "Traceback" not in result.stderr
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("studio: ")
    assert "schema version 99" in lines[0] and f"up to {SCHEMA_VERSION}" in lines[0]


def test_a_file_that_is_not_a_database_is_refused_in_one_line(tmp_path: Path) -> None:
    target = tmp_path / "junk.db"
    target.write_bytes(bytes(range(256)) * 32)
    result = run_studio("executions", "list", "--db", str(target), "--json")
    assert "Traceback" not in result.stderr
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("studio: ") and str(target) in lines[0]


def test_parallel_runs_of_one_file_store_one_workflow(tmp_path: Path) -> None:
    database = tmp_path / "studio.db"
    assert run_studio("executions", "list", "--db", str(database)).returncode == 0
    command = [sys.executable, "-m", "studio", "run", str(ECHO_DEMO), "--db", str(database)]
    runs = [
        subprocess.Popen([*command, "--json", "--quiet"], stdout=subprocess.PIPE, text=True)
        for _ in range(6)
    ]
    records = [json.loads(run.communicate(timeout=120)[0]) for run in runs]
    assert [run.returncode for run in runs] == [0] * len(runs)
    assert len({record["workflowId"] for record in records}) == 1
    with contextlib.closing(sqlite3.connect(database)) as connection:
        assert connection.execute("SELECT count(*) FROM workflows").fetchone() == (1,)
