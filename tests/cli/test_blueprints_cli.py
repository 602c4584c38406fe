"""``studio blueprints list|show|import|save`` from a terminal, as real subprocesses on a
SQLite file: an import with placeholders left exits 1 and lists them, one with every slot
mapped makes '<name> (Copy)' in the app, and a saved file joins the catalog."""

import json
from pathlib import Path

import pytest

from tests.cli_runner import REPO_ROOT, run_studio

ROUTER_MAP = [
    "--map",
    "placeholder-classifier=demo-echo-agent",
    "--map",
    "placeholder-fulfiller=demo-echo-agent",
    "--map",
    "placeholder-responder=human-approval",
]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "studio.db")


@pytest.fixture
def app_id(db: str) -> str:
    result = run_studio("apps", "create", "Support", "--json", "--db", db)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["id"]


def test_show_lists_nodes_agents_and_placeholders(db: str) -> None:
    result = run_studio("blueprints", "show", "Conditional Router", "--db", db)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Conditional Router (conditional-router): routing"
    assert "  classify  placeholder-classifier  Classify request" in lines
    assert lines[-4] == "placeholders (3):"
    assert [line.split()[0] for line in lines[-3:]] == [
        "placeholder-classifier",
        "placeholder-fulfiller",
        "placeholder-responder",
    ]


def test_import_with_placeholders_left_exits_1_listing_them(db: str, app_id: str) -> None:
    mapped = ["--map", "placeholder-classifier=demo-echo-agent"]
    result = run_studio(
        "blueprints", "import", "conditional-router", "--app", app_id, *mapped, "--db", db
    )
    assert (result.returncode, result.stdout) == (1, "")
    listed = [line.split()[0] for line in result.stderr.splitlines()[1:]]
    assert listed == ["placeholder-fulfiller", "placeholder-responder"]
    workflows = run_studio("workflows", "list", "--json", "--db", db)
    assert json.loads(workflows.stdout) == []


def test_import_with_every_slot_mapped_makes_a_copy_in_the_app(db: str, app_id: str) -> None:
    result = run_studio(
        "blueprints",
        "import",
        "conditional-router",
        "--app",
        app_id[:6],
        *ROUTER_MAP,
        "--json",
        "--db",
        db,
    )
    assert result.returncode == 0, result.stderr
    copy = json.loads(result.stdout)
    assert (copy["name"], copy["status"], copy["appId"]) == (
        "Conditional Router (Copy)",
        "DRAFT",
        app_id,
    )
    assert (copy["blueprintId"], copy["blueprintVersion"]) == ("conditional-router", 1)
    assert {node["agentId"] for node in copy["nodes"]} == {"demo-echo-agent", "human-approval"}
    shown = json.loads(run_studio("apps", "show", app_id, "--json", "--db", db).stdout)
    assert shown["workflowIds"] == [copy["id"]]


def test_draft_keeps_the_placeholders_and_a_second_copy_is_copy_2(db: str, app_id: str) -> None:
    first = run_studio(
        "blueprints", "import", "conditional-router", "--app", app_id, "--draft", "--db", db
    )
    assert first.returncode == 0, first.stderr
    second = run_studio(
        "blueprints",
        "import",
        "conditional-router",
        "--app",
        app_id,
        "--draft",
        "--json",
        "--db",
        db,
    )
    copy = json.loads(second.stdout)
    assert copy["name"] == "Conditional Router (Copy 2)"
    assert copy["nodes"][0]["agentId"] == "placeholder-classifier"


def test_a_mapped_agent_not_in_the_registry_is_refused_with_a_suggestion(
    db: str, app_id: str
) -> None:
    result = run_studio(
        "blueprints",
        "import",
        "conditional-router",
        "--app",
        app_id,
        "--map",
        "placeholder-classifier=demo-echo",
        "--db",
        db,
    )
    assert result.returncode == 1
    assert result.stderr == (
        "studio: agent 'demo-echo' is not in the agent registry; did you mean 'demo-echo-agent'?\n"
    )


def test_a_map_for_no_slot_is_refused_naming_it(db: str, app_id: str) -> None:
    result = run_studio(
        "blueprints",
        "import",
        "conditional-router",
        "--app",
        app_id,
        *ROUTER_MAP,
        "--map",
        "placeholder-ghost=demo-echo-agent",
        "--db",
        db,
    )
    assert result.returncode == 2
    assert result.stderr == "studio: the blueprint has no placeholder 'placeholder-ghost'\n"


def test_import_into_an_unknown_app_is_refused(db: str, app_id: str) -> None:
    result = run_studio(
        "blueprints", "import", "conditional-router", "--app", "ffffffff", "--db", db
    )
    assert (result.returncode, result.stderr) == (2, "studio: no app 'ffffffff' in this database\n")


def test_save_publishes_a_file_into_the_catalog_read_only(db: str, tmp_path: Path) -> None:
    source = REPO_ROOT / "blueprints" / "parallel-fan-out.yaml"
    target = tmp_path / "team-fan-out.yaml"
    target.write_text(source.read_text("utf-8").replace("Parallel Fan-Out", "Team fan-out"))
    saved = run_studio(
        "blueprints", "save", str(target), "--category", "team", "--json", "--db", db
    )
    assert saved.returncode == 0, saved.stderr
    blueprint = json.loads(saved.stdout)
    assert (blueprint["status"], blueprint["isBlueprint"], blueprint["category"]) == (
        "PUBLISHED",
        True,
        "team",
    )
    listed = json.loads(run_studio("blueprints", "list", "--json", "--db", db).stdout)
    entry = next(entry for entry in listed if entry["name"] == "Team fan-out")
    assert (entry["slug"], entry["file"], entry["category"]) == (blueprint["id"], None, "team")
    assert len(listed) == 6


def test_saving_a_changed_file_again_publishes_the_next_version(db: str, tmp_path: Path) -> None:
    source = REPO_ROOT / "blueprints" / "parallel-fan-out.yaml"
    target = tmp_path / "team-fan-out.yaml"
    target.write_text(source.read_text("utf-8").replace("Parallel Fan-Out", "Team fan-out"))
    first = json.loads(run_studio("blueprints", "save", str(target), "--json", "--db", db).stdout)
    target.write_text(target.read_text("utf-8").replace("category: parallel", "category: x"))

    again = run_studio("blueprints", "save", str(target), "--db", db)

    assert again.returncode == 0, again.stderr
    version = first["version"] + 1
    assert again.stdout.strip() == (
        f"saved Team fan-out to the catalog as {first['id']} v{version} (published, read-only)"
    )
    listed = json.loads(run_studio("blueprints", "list", "--json", "--db", db).stdout)
    assert [entry["category"] for entry in listed if entry["name"] == "Team fan-out"] == ["x"]


def test_save_of_a_file_that_cannot_publish_exits_1(db: str, tmp_path: Path) -> None:
    broken = tmp_path / "lonely.yaml"
    broken.write_text("name: Lonely\nnodes:\n- id: a\n  agentId: x\n- id: b\n  agentId: y\n")
    result = run_studio("blueprints", "save", str(broken), "--db", db)
    assert result.returncode == 1
    assert "is not connected to any other" in result.stdout
    assert len(json.loads(run_studio("blueprints", "list", "--json", "--db", db).stdout)) == 5
