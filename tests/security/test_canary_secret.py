"""A canary credential goes out to where it is meant to go and is written down nowhere else.

``STUDIO_CANARY_KEY`` holds a unique value for real ``studio run`` subprocesses. The workflow
maps ``api: "env:STUDIO_CANARY_KEY"`` and uses ``${credentials.api}`` in an http header (the
server echoes the headers back, so the node output would hold the key), in a shell agent's
environment (printed on stdout, as a value and as a key) and in shell agents that fail with the
key in their stderr. A compensation tool prints the key too. The runs log JSON to stderr as
well. Afterwards the canary must not be in the database file, its ``-wal`` and ``-shm`` files,
the log file, any other file under the test's folders, the runs' stdout and stderr,
``studio executions show --json --events``, or an export of the stored workflow, and the
workflow file must be unchanged. The server must have received the key, and the stored outputs
and errors must show ``[redacted]`` where it was.
"""

import json
import os
import re
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from studio.engine.credentials import REDACTED
from studio.model import AgentDefinition, export_text
from studio.store import WorkflowRepository, open_database
from tests.cli_runner import run_studio
from tests.engine.runner_harness import make_harness
from tests.security.local_server import PROXY_VARIABLES, Received, recording_server

CANARY_VARIABLE = "STUDIO_CANARY_KEY"
STARTED = re.compile(r"^execution (\S+) started$", re.MULTILINE)

SHELL_TOKEN_SCRIPT = 'printf \'{"token": "%s", "%s": "as a key"}\' "$TOKEN" "$TOKEN"'
STDERR_FAIL_SCRIPT = 'printf "the token is %s\\n" "$TOKEN" >&2; exit 1'
REPORTED_FAIL_SCRIPT = (
    'printf \'{"errorType": "LeakyError", "message": "bad token %s"}\\n\' "$TOKEN" >&2; exit 1'
)
UNDO_SCRIPT = 'cat > /dev/null; printf \'{"undone": "with %s"}\' "$TOKEN"'


@dataclass
class LeakRun:
    """Everything two ``studio run`` subprocesses left behind."""

    canary: str
    root: Path
    data_dir: Path
    database: Path
    workflow_file: Path
    workflow_bytes: bytes
    runs: list[subprocess.CompletedProcess]
    shows: list[subprocess.CompletedProcess]
    execution_ids: list[str]
    requests: list[Received]

    @property
    def documents(self) -> list[dict[str, Any]]:
        """``executions show ID --json --events`` of each run."""
        return [json.loads(show.stdout) for show in self.shows]


def write_yaml(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def shell_agent(folder: Path, agent_id: str, script: str) -> None:
    """A shell agent whose TOKEN variable is the ``api`` credential."""
    settings = {"argv": ["sh", "-c", script], "env": {"TOKEN": "${credentials.api}"}}
    write_yaml(
        folder / f"{agent_id}.yaml",
        {"id": agent_id, "name": agent_id, "kind": "shell", "settings": settings},
    )


def write_agents(folder: Path, server_url: str) -> None:
    http_settings = {
        "method": "POST",
        "url": f"{server_url}/echo",
        "headers": {"Authorization": "Bearer ${credentials.api}"},
        "body": {"hello": "world"},
    }
    write_yaml(
        folder / "canary-http.yaml",
        {"id": "canary-http", "name": "canary http", "kind": "http", "settings": http_settings},
    )
    shell_agent(folder, "canary-shell", SHELL_TOKEN_SCRIPT)
    shell_agent(folder, "canary-stderr", STDERR_FAIL_SCRIPT)
    shell_agent(folder, "canary-reported", REPORTED_FAIL_SCRIPT)
    shell_agent(folder, "canary-undo", UNDO_SCRIPT)


def write_workflow(path: Path) -> Path:
    no_wait_retry = {"maxRetries": 1, "backoffBase": 0, "backoffMax": 0}
    return write_yaml(
        path,
        {
            "name": "canary secret",
            "configuration": {
                "credentials": {"api": f"env:{CANARY_VARIABLE}"},
                "compensation": {"enabled": True},
            },
            "nodes": [
                {
                    "id": "call-api",
                    "agentId": "canary-http",
                    "compensation": {
                        "tool": "canary-undo",
                        "args": {"auth": "${output.headers.Authorization}"},
                    },
                },
                {"id": "print-token", "agentId": "canary-shell"},
                {"id": "fail-stderr", "agentId": "canary-stderr", "retryPolicy": no_wait_retry},
                {"id": "fail-reported", "agentId": "canary-reported"},
            ],
            "edges": [
                {"source": "call-api", "target": "print-token"},
                {"source": "print-token", "target": "fail-stderr"},
                {"source": "print-token", "target": "fail-reported"},
            ],
        },
    )


def child_environment(data_dir: Path, canary: str) -> dict[str, str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in PROXY_VARIABLES and name != "STUDIO_DB"
    }
    env.update({"STUDIO_DATA_DIR": str(data_dir), CANARY_VARIABLE: canary})
    return env


@pytest.fixture(scope="module")
def leak_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LeakRun]:
    """Two runs (``--json --log-json`` and human output with ``--log-json``) and their shows."""
    canary = f"canary-{uuid.uuid4().hex}"
    assert canary not in os.environ.values()
    root = tmp_path_factory.mktemp("canary-secret")
    data_dir, agents = root / "data", root / "agents"
    database = root / "db" / "studio.db"
    database.parent.mkdir()
    env = child_environment(data_dir, canary)
    with recording_server() as server:
        write_agents(agents, server.url)
        workflow_file = write_workflow(root / "canary-secret.yaml")
        workflow_bytes = workflow_file.read_bytes()
        common = ("--agents", str(agents), "--db", str(database), "--log-json")
        runs = [
            run_studio("run", str(workflow_file), *common, "--json", env=env),
            run_studio("run", str(workflow_file), *common, env=env),
        ]
        requests = list(server.requests)
    execution_ids = [json.loads(runs[0].stdout)["executionId"]]
    execution_ids += STARTED.findall(runs[1].stderr)
    assert len(execution_ids) == 2, runs[1].stderr
    shows = [
        run_studio("executions", "show", eid, "--json", "--events", "--db", str(database), env=env)
        for eid in execution_ids
    ]
    yield LeakRun(
        canary,
        root,
        data_dir,
        database,
        workflow_file,
        workflow_bytes,
        runs,
        shows,
        execution_ids,
        requests,
    )


# --- the runs did what they should ----------------------------------------------------------


def test_both_runs_ran_every_node_and_failed_as_designed(leak_run: LeakRun) -> None:
    for run in leak_run.runs:
        assert run.returncode == 1, run.stdout + run.stderr
    for show in leak_run.shows:
        assert show.returncode == 0, show.stderr
    for document in leak_run.documents:
        results = document["nodeResults"]
        assert document["status"] == "failed"
        assert results["call-api"]["status"] == "completed"
        assert results["print-token"]["status"] == "completed"
        assert results["fail-stderr"]["status"] == "failed"
        assert results["fail-stderr"]["retryCount"] == 1
        assert results["fail-reported"]["status"] == "failed"
        assert document["compensationStatus"] == "completed", document["compensationSummary"]
        assert any(event["type"] == "node.retrying" for event in document["events"])
    assert '"action": "node_failed"' in leak_run.runs[0].stderr  # --log-json reached stderr


def test_the_server_received_the_canary_as_a_bearer_token(leak_run: LeakRun) -> None:
    assert len(leak_run.requests) == 2
    for request in leak_run.requests:
        assert request.headers["Authorization"] == f"Bearer {leak_run.canary}"


def test_stored_outputs_and_errors_show_redacted_where_the_key_was(leak_run: LeakRun) -> None:
    for document in leak_run.documents:
        results = document["nodeResults"]
        echoed = results["call-api"]["output"]["headers"]
        assert echoed["Authorization"] == f"Bearer {REDACTED}"
        assert results["print-token"]["output"] == {"token": REDACTED, REDACTED: "as a key"}
        assert results["print-token"]["input"]["headers"]["Authorization"] == f"Bearer {REDACTED}"
        assert results["fail-stderr"]["error"]["type"] == "ProcessExit"
        assert f"the token is {REDACTED}" in results["fail-stderr"]["error"]["message"]
        assert results["fail-reported"]["error"] == {
            "type": "LeakyError",
            "message": f"bad token {REDACTED}",
            "details": {"exitCode": 1},
            "failureClass": "AGENT_ERROR",
            "recommendedAction": "manual_review_required",
        }
        undo = results["call-api#comp"]
        assert undo["output"] == {"undone": f"with {REDACTED}"}
        assert undo["input"] == {"auth": f"Bearer {REDACTED}"}


# --- and the canary is written down nowhere -------------------------------------------------


def test_the_canary_is_not_in_the_database_or_its_wal_and_shm_files(leak_run: LeakRun) -> None:
    canary = leak_run.canary.encode("utf-8")
    files = [
        Path(f"{leak_run.database}{suffix}")
        for suffix in ("", "-wal", "-shm")
        if Path(f"{leak_run.database}{suffix}").exists()
    ]
    assert leak_run.database in files
    everything = b"".join(path.read_bytes() for path in files)
    # The raw bytes do hold what was stored: the redaction marker, the execution ids.
    assert REDACTED.encode("utf-8") in everything
    assert all(eid.encode("ascii") in everything for eid in leak_run.execution_ids)
    for path in files:
        assert canary not in path.read_bytes(), path


def test_the_canary_is_not_in_the_log_file(leak_run: LeakRun) -> None:
    log_file = leak_run.data_dir / "logs" / "studio.log"
    text = log_file.read_text(encoding="utf-8")
    assert leak_run.execution_ids[0] in text and "node_failed" in text
    assert leak_run.canary not in text


def test_the_canary_is_in_no_file_under_the_test_folders(leak_run: LeakRun) -> None:
    canary = leak_run.canary.encode("utf-8")
    files = [path for path in leak_run.root.rglob("*") if path.is_file()]
    assert len(files) >= 8  # agents, workflow, database, log
    assert [path for path in files if canary in path.read_bytes()] == []


def test_the_canary_is_not_in_the_runs_stdout_or_stderr(leak_run: LeakRun) -> None:
    assert REDACTED in leak_run.runs[0].stdout  # the --json document holds the outputs
    assert f"the token is {REDACTED}" in leak_run.runs[1].stdout  # the human summary
    for run in leak_run.runs:
        assert leak_run.canary not in run.stdout
        assert leak_run.canary not in run.stderr


def test_the_canary_is_not_in_executions_show_with_events(leak_run: LeakRun) -> None:
    for show in leak_run.shows:
        assert REDACTED in show.stdout
        assert leak_run.canary not in show.stdout
        assert leak_run.canary not in show.stderr


def test_the_canary_is_not_in_an_export_and_the_workflow_file_is_unchanged(
    leak_run: LeakRun,
) -> None:
    stored = WorkflowRepository(open_database(leak_run.database)).find()
    assert len(stored) == 1
    for fmt in ("yaml", "json"):
        exported = export_text(stored[0], fmt)
        assert f"env:{CANARY_VARIABLE}" in exported  # the reference, never the value
        assert leak_run.canary not in exported
    assert leak_run.workflow_file.read_bytes() == leak_run.workflow_bytes


# --- a secret cut in half by a truncated message --------------------------------------------


@pytest.fixture
def canary(monkeypatch: pytest.MonkeyPatch) -> str:
    value = f"canary-{uuid.uuid4().hex}"
    monkeypatch.setenv(CANARY_VARIABLE, value)
    for variable in PROXY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    return value


def run_failing_node(tmp_path: Path, agent: AgentDefinition) -> dict[str, Any]:
    """Run one node using the ``api`` credential; return its stored error."""
    harness = make_harness(tmp_path)
    harness.agents.add(agent)
    workflow = harness.publish(
        {
            "name": "truncated secret",
            "configuration": {"credentials": {"api": f"env:{CANARY_VARIABLE}"}},
            "nodes": [{"id": "leaky", "agentId": agent.id}],
            "edges": [],
        }
    )
    record = harness.execute(workflow, {})
    error = harness.executions.get(record.execution_id).node_results["leaky"].error
    assert error is not None
    return error


def secret_pieces(secret: str, size: int = 12) -> list[str]:
    """Every run of ``size`` characters of the secret: none may be written down."""
    return [secret[start : start + size] for start in range(len(secret) - size + 1)]


def test_a_secret_cut_by_the_stderr_tail_is_not_stored_in_part(tmp_path: Path, canary: str) -> None:
    # The secret, then 1980 filler characters: the 2000-character tail keeps the secret's end.
    script = 'printf %s "$TOKEN" >&2; head -c 1980 /dev/zero | tr "\\0" x >&2; exit 1'
    agent = AgentDefinition(
        id="tail-leak",
        name="tail leak",
        kind="shell",
        settings={"argv": ["sh", "-c", script], "env": {"TOKEN": "${credentials.api}"}},
    )
    message = run_failing_node(tmp_path, agent)["message"]
    assert message.startswith("sh exited with code 1: ")
    leaked = [piece for piece in secret_pieces(canary) if piece in message]
    assert leaked == []


def test_a_secret_cut_by_the_http_error_text_is_not_stored_in_part(
    tmp_path: Path, canary: str
) -> None:
    with recording_server() as server:
        # The 404 answer is the request body: the secret starts about 25 characters before
        # the 500th, so the first half of it is in the kept text.
        agent = AgentDefinition(
            id="http-leak",
            name="http leak",
            kind="http",
            settings={
                "method": "POST",
                "url": f"{server.url}/status/404",
                "body": {"pad": "x" * 456, "token": "${credentials.api}"},
            },
        )
        error = run_failing_node(tmp_path, agent)
    message = error["message"]
    assert "HTTP 404" in message
    leaked = [piece for piece in secret_pieces(canary) if piece in message]
    assert leaked == []
