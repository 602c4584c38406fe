"""``studio agents …`` from a terminal, as real subprocesses on a SQLite file: list, fork,
an edit of the forked definition, versions, show and diff."""

import json
import os
import time
from pathlib import Path

import pytest

from tests.cli_runner import run_studio


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "studio.db")


def studio_json(*args: str) -> dict | list:
    """``studio ARGS --json``, which must succeed; its document."""
    result = run_studio(*args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def listed(db: str) -> dict[str, dict]:
    entries = studio_json("agents", "list", "--db", db)
    assert isinstance(entries, list)
    return {entry["agentId"]: entry for entry in entries}


def edit_own_file(data_dir: Path, agent_id: str, name: str) -> None:
    """Change a definition the way the agent editor does: its file in the agents folder."""
    folder = data_dir / "agents"
    folder.mkdir(exist_ok=True)
    path = folder / f"{agent_id}.yaml"
    path.write_text(f"id: {agent_id}\nname: {name}\nkind: approval\n", encoding="utf-8")
    later = time.time() + 2  # after the version it replaces, whatever the clock's grain
    os.utime(path, (later, later))


def test_fork_edit_and_compare_a_built_in_agent(db: str, studio_data_dir: Path) -> None:
    before = listed(db)
    assert before["human-approval"]["namespace"] == "SYSTEM"
    assert before["human-approval"]["shadows"] is None

    fork = studio_json("agents", "fork", "human-approval", "--db", db)
    assert (fork["namespace"], fork["version"]) == ("default", 1)
    after = listed(db)["human-approval"]
    assert after["namespace"] == "default"
    assert after["shadows"] == {"namespace": "SYSTEM", "version": 1}

    edit_own_file(studio_data_dir, "human-approval", "Sign-off")
    versions = studio_json("agents", "versions", "human-approval", "--db", db)
    assert [(v["namespace"], v["version"], v["name"]) for v in versions] == [
        ("default", 1, "Human approval"),
        ("default", 2, "Sign-off"),
    ]
    first = studio_json("agents", "show", "human-approval", "--version", "1", "--db", db)
    assert first["definition"]["name"] == "Human approval"
    original = studio_json("agents", "show", "human-approval", "--namespace", "SYSTEM", "--db", db)
    assert (original["namespace"], original["definition"]["name"]) == ("SYSTEM", "Human approval")

    diff = studio_json("agents", "diff", "human-approval", "1", "2", "--db", db)
    assert diff["same"] is False
    assert "-name: Human approval" in diff["diff"] and "+name: Sign-off" in diff["diff"]
    plain = run_studio("agents", "diff", "human-approval", "1", "2", "--db", db)
    assert plain.returncode == 0 and "+name: Sign-off" in plain.stdout.splitlines()


def test_plain_output_and_refusals(db: str) -> None:
    listing = run_studio("agents", "list", "--db", db)
    assert listing.returncode == 0, listing.stderr
    assert any(line.startswith("demo-echo-agent") for line in listing.stdout.splitlines())
    shown = run_studio("agents", "show", "demo-echo-agent", "--db", db)
    assert shown.stdout.startswith("# demo-echo-agent: SYSTEM version 1\nid: demo-echo-agent\n")

    twice = run_studio("agents", "fork", "demo-echo-agent", "--db", db)
    assert twice.returncode == 0, twice.stderr
    again = run_studio("agents", "fork", "demo-echo-agent", "--db", db)
    assert again.returncode == 2
    assert again.stderr == "studio: agent 'demo-echo-agent' is in default already\n"
    missing = run_studio("agents", "show", "ghost", "--db", db)
    assert missing.returncode == 2
    assert missing.stderr == "studio: Agent not found: 'ghost' is not in the library\n"
    version = run_studio("agents", "show", "demo-echo-agent", "--version", "9", "--db", db)
    assert version.stderr == (
        "studio: Agent not found: 'demo-echo-agent' has no version 9 in default\n"
    )
