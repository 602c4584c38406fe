"""Storage faults as a user meets them from the terminal: a full 600 KB tmpfs, a read-only
file, a read-only file system, a file damaged past its header. Every command that uses the
database says so in one line naming the database and exits 2, changing nothing; a run the
fault stops is left resumable and finishes once the fault is gone; ``studio doctor`` checks."""

import contextlib
import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.test_run_handlers import shell_agent, workflow_file, write_yaml
from tests.cli_runner import REPO_ROOT, run_studio
from tests.store.storage_faults import (
    copied_into,
    damage,
    fill,
    make_database_with_runs_and_knowledge,
    page_offset_of,
    read_only_file,
    remount_read_only,
    small_disk,
    stored_counts,
)

NEW_ARTIFACT = """---
id: glossary
kind: glossary
subject: checkout-redesign
title: Glossary
created_at: 2026-09-12T08:00:00Z
---
# Glossary

## Basket

What a shopper is about to buy.
"""


def every_command(execution_id: str, artifact: Path) -> list[tuple[str, ...]]:
    """The commands the issue names, each of which must read or write the database."""
    return [
        ("run", str(REPO_ROOT / "blueprints" / "echo-demo-workflow.yaml"), "--input", "{}"),
        ("resume", execution_id),
        ("executions", "list"),
        ("executions", "show", execution_id),
        ("kg", "land", str(artifact)),
        ("kg", "show"),
        ("kg", "search", "checkout"),
    ]


def assert_refused_in_one_line(file: Path, execution_id: str, artifact: Path, reason: str) -> None:
    for command in every_command(execution_id, artifact):
        result = run_studio(*command, "--db", str(file))
        said = result.stderr.strip().splitlines()
        assert result.returncode == 2, (command, result.stderr)
        assert result.stdout == "", command
        assert len(said) == 1, (command, result.stderr)
        assert said[0].startswith("studio: cannot "), (command, said)
        assert f"the database {file}: {reason}" in said[0], (command, said)


@pytest.fixture
def agents(tmp_path: Path) -> Path:
    folder = tmp_path / "agents"
    folder.mkdir()
    return folder


@pytest.fixture
def artifact(tmp_path: Path) -> Path:
    path = tmp_path / "2026-09-12-glossary.md"
    path.write_text(NEW_ARTIFACT, encoding="utf-8")
    return path


def test_a_full_disk_refuses_every_command_in_one_line_and_changes_nothing(
    tmp_path: Path, studio_data_dir: Path, artifact: Path
) -> None:
    made = tmp_path / "studio.db"
    ids = make_database_with_runs_and_knowledge(made, studio_data_dir)
    with small_disk(tmp_path / "disk") as disk:
        file = copied_into(made, disk)
        before = stored_counts(file)
        filler = fill(disk)
        assert_refused_in_one_line(file, ids[0], artifact, "the disk is full")
        filler.unlink()
        assert stored_counts(file) == before


def test_a_read_only_file_refuses_every_command_in_one_line(
    tmp_path: Path, studio_data_dir: Path, artifact: Path
) -> None:
    file = tmp_path / "studio.db"
    ids = make_database_with_runs_and_knowledge(file, studio_data_dir)
    before = file.read_bytes()
    with read_only_file(file):
        assert_refused_in_one_line(file, ids[0], artifact, "the file is read-only")
    assert file.read_bytes() == before


def test_a_read_only_file_system_refuses_every_command_in_one_line(
    tmp_path: Path, studio_data_dir: Path, artifact: Path
) -> None:
    made = tmp_path / "studio.db"
    ids = make_database_with_runs_and_knowledge(made, studio_data_dir)
    with small_disk(tmp_path / "disk") as disk:
        file = copied_into(made, disk)
        remount_read_only(disk)
        assert_refused_in_one_line(file, ids[0], artifact, "the file system is read-only")


def test_a_file_damaged_past_its_header_refuses_every_command_and_is_not_written(
    tmp_path: Path, studio_data_dir: Path, artifact: Path
) -> None:
    file = tmp_path / "studio.db"
    ids = make_database_with_runs_and_knowledge(file, studio_data_dir)
    damage(file)  # random bytes at offset 40,000
    damaged = file.read_bytes()
    assert_refused_in_one_line(file, ids[0], artifact, "the file is damaged (")
    assert file.read_bytes() == damaged


# --- a fault in the middle of a run ---------------------------------------------------------


def gated_workflow(tmp_path: Path, agents: Path) -> tuple[Path, Path, Path]:
    """first → gate → last; gate waits for a 'go' file. Each node notes itself in a log
    when it really runs, so a node run twice shows twice."""
    log, started, go = tmp_path / "ran.log", tmp_path / "gate-started", tmp_path / "go"
    shell_agent(agents, "note", f"echo first >> {log}; echo '{{\"first\": 1}}'")
    shell_agent(
        agents,
        "gate",
        f"touch {started}; while [ ! -f {go} ]; do sleep 0.05; done; "
        f"echo gate >> {log}; echo '{{\"gate\": 1}}'",
    )
    shell_agent(agents, "last", f"echo last >> {log}; echo '{{\"last\": 1}}'")
    flow = workflow_file(
        tmp_path / "gated.yaml",
        [
            {"id": "first", "agentId": "note"},
            {"id": "gate", "agentId": "gate"},
            {"id": "last", "agentId": "last"},
        ],
        [("first", "gate"), ("gate", "last")],
    )
    return flow, started, go


@contextlib.contextmanager
def started_run(
    flow: Path, agents: Path, file: Path, run_input: object = None
) -> Iterator[subprocess.Popen]:
    """``studio run`` in the background; killed if the test ends before it does."""
    command = ["run", str(flow), "--agents", str(agents), "--db", str(file)]
    command += ["--input", json.dumps(run_input)]
    process = subprocess.Popen(
        [sys.executable, "-m", "studio", *command],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()


def wait_for(path: Path, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)


def stored_run(file: Path, execution_id: str) -> tuple[str, list[int]]:
    with contextlib.closing(sqlite3.connect(file)) as raw:
        (status,) = raw.execute(
            "SELECT status FROM executions WHERE id = ?", (execution_id,)
        ).fetchone()
        seqs = [
            seq
            for (seq,) in raw.execute(
                "SELECT seq FROM execution_events WHERE execution_id = ? ORDER BY seq",
                (execution_id,),
            )
        ]
    return status, seqs


def test_a_run_the_disk_fills_under_stops_resumable_and_resumes_once_there_is_room(
    tmp_path: Path, agents: Path
) -> None:
    flow, started, go = gated_workflow(tmp_path, agents)
    with small_disk(tmp_path / "disk") as disk:
        file = disk / "studio.db"
        with started_run(flow, agents, file) as run:
            wait_for(started, run)
            filler = fill(disk)
            _out, err = run.communicate(timeout=60)
        said = err.strip().splitlines()
        assert run.returncode == 2, err
        assert "Traceback" not in err
        execution_id = said[0].split()[1]  # "execution ID started"
        assert said[-1] == (
            f"studio: cannot write to the database {file}: the disk is full. Execution "
            f"{execution_id} is left resumable: once that is fixed, "
            f"`studio resume {execution_id}` finishes it"
        )
        filler.unlink()
        assert stored_run(file, execution_id)[0] == "running"
        go.touch()
        resumed = run_studio(
            "resume", execution_id, "--agents", str(agents), "--db", str(file), "--json"
        )
        assert resumed.returncode == 0, resumed.stderr
        document = json.loads(resumed.stdout)
        assert document["status"] == "completed"
        assert {n: r["status"] for n, r in document["nodeResults"].items()} == {
            "first": "completed",
            "gate": "completed",
            "last": "completed",
        }
        status, seqs = stored_run(file, execution_id)
        assert status == "completed"
        assert seqs == list(range(1, len(seqs) + 1))  # no event lost or written twice
    assert (tmp_path / "ran.log").read_text().split() == ["first", "gate", "last"]


def test_a_run_whose_file_is_damaged_under_it_is_never_reported_completed(
    tmp_path: Path, agents: Path, studio_data_dir: Path
) -> None:
    flow, started, go = gated_workflow(tmp_path, agents)
    file = tmp_path / "studio.db"
    make_database_with_runs_and_knowledge(file, studio_data_dir)
    with started_run(flow, agents, file) as run:
        wait_for(started, run)
        damage(file, page_offset_of(file, "artifact_versions"), 256)  # pages it never writes
        go.touch()
        out, err = run.communicate(timeout=60)
    said = err.strip().splitlines()
    assert run.returncode == 2, err
    assert "completed" not in out and "execution completed" not in err
    assert said[-1].startswith(f"studio: cannot use the database {file}: the file is damaged (")
    execution_id = said[0].split()[1]
    assert stored_run(file, execution_id)[0] == "running"
    doctor = run_studio("doctor", "--db", str(file))
    assert doctor.returncode == 1


def test_a_run_whose_artifact_meets_a_damaged_store_stops_resumable_not_failed(
    tmp_path: Path, agents: Path, studio_data_dir: Path
) -> None:
    started, go = tmp_path / "gate-started", tmp_path / "go"
    script = f"touch {started}; while [ ! -f {go} ]; do sleep 0.05; done; cat"
    shell_agent(agents, "pass-gate", script)  # hands its input on once 'go' exists
    write_yaml(agents / "lander.yaml", {"id": "lander", "name": "Lander", "kind": "artifact"})
    lands = workflow_file(
        tmp_path / "lands.yaml",
        [{"id": "gate", "agentId": "pass-gate"}, {"id": "land", "agentId": "lander"}],
        [("gate", "land")],
    )
    file = tmp_path / "studio.db"
    make_database_with_runs_and_knowledge(file, studio_data_dir)
    with started_run(lands, agents, file, {"markdown": NEW_ARTIFACT}) as run:
        wait_for(started, run)
        damage(file, page_offset_of(file, "artifact_versions") - 16, 64)
        go.touch()
        _out, err = run.communicate(timeout=60)
    said = err.strip().splitlines()
    assert run.returncode == 2, err
    assert "ArtifactConflict" not in err and "✗" not in err  # not the node's failure
    assert f"the database {file}: the file is damaged (" in said[-1]
    assert said[-1].endswith(f"`studio resume {said[0].split()[1]}` finishes it")


# --- studio doctor --------------------------------------------------------------------------


def test_doctor_says_what_it_checked_and_exits_0_1_or_2(
    tmp_path: Path, studio_data_dir: Path
) -> None:
    file = tmp_path / "studio.db"
    make_database_with_runs_and_knowledge(file, studio_data_dir)
    sound = run_studio("doctor", "--db", str(file))
    assert sound.returncode == 0, sound.stderr
    assert sound.stdout.startswith(f"{file}: sound: quick_check found no problem in its ")
    assert "tables and indexes" in sound.stdout

    damage(file)
    damaged = run_studio("doctor", "--db", str(file))
    assert damaged.returncode == 1
    assert damaged.stdout.startswith(f"{file}: ")
    assert damaged.stderr.startswith(f"studio: the database {file} is damaged: quick_check found")

    missing = run_studio("doctor", "--db", str(tmp_path / "missing.db"))
    assert missing.returncode == 2
    assert missing.stderr == (
        f"studio: cannot check the database {tmp_path / 'missing.db'}: there is no such file\n"
    )
    assert not (tmp_path / "missing.db").exists()


def test_doctor_tells_of_a_studio_that_stopped_without_closing_the_file(
    tmp_path: Path, agents: Path
) -> None:
    flow, started, _go = gated_workflow(tmp_path, agents)
    file = tmp_path / "studio.db"
    with started_run(flow, agents, file) as run:
        wait_for(started, run)
        run.kill()
    result = run_studio("doctor", "--db", str(file))
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith("; 1 process(es) stopped without closing it")
    again = run_studio("doctor", "--db", str(file))  # the check settled it
    assert "stopped without closing" not in again.stdout
