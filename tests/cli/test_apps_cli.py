"""``studio apps …`` from a terminal, as real subprocesses on a SQLite file: create, list,
show, rename, bind, unbind, archive and delete, by whole ids and by 6-character prefixes."""

import json
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


def created_app(db: str, name: str = "Support desk") -> dict:
    app = studio_json("apps", "create", name, "--description", "tickets", "--db", db)
    assert isinstance(app, dict)
    return app


def stored_workflow(db: str, tmp_path: Path) -> str:
    """A workflow saved through ``blueprints import --draft``; its id."""
    app = created_app(db, "Holder")
    copy = studio_json(
        "blueprints", "import", "conditional-router", "--app", app["id"], "--draft", "--db", db
    )
    assert isinstance(copy, dict)
    unbound = run_studio("apps", "unbind", app["id"], copy["id"], "--db", db)
    assert unbound.returncode == 0, unbound.stderr
    return copy["id"]


def test_create_then_list_shows_the_app(db: str) -> None:
    app = created_app(db)
    assert (app["name"], app["status"], app["version"], app["orgId"]) == (
        "Support desk",
        "ACTIVE",
        1,
        "local",
    )
    result = run_studio("apps", "list", "--db", db)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{app['id']}  ACTIVE    v1    0 workflow(s)  Support desk\n"


def test_list_of_no_apps_says_so(db: str) -> None:
    result = run_studio("apps", "list", "--db", db)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "no apps yet\n")


def test_bind_show_and_unbind_by_short_ids(db: str, tmp_path: Path) -> None:
    workflow_id = stored_workflow(db, tmp_path)
    app = created_app(db)
    bound = run_studio("apps", "bind", app["id"][:6], workflow_id[:6], "--db", db)
    assert bound.returncode == 0, bound.stderr
    shown = run_studio("apps", "show", app["id"][:8], "--db", db)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == f"Support desk ({app['id']}): ACTIVE, version 2"
    assert lines[2:] == [
        "workflows (1):",
        f"  {workflow_id}  DRAFT      Conditional Router (Copy)",
    ]
    unbound = studio_json("apps", "unbind", app["id"][:6], workflow_id, "--db", db)
    assert isinstance(unbound, dict)
    assert (unbound["workflowIds"], unbound["version"]) == ([], 3)


def test_binding_a_workflow_of_another_app_exits_2_with_the_resolver_text(
    db: str, tmp_path: Path
) -> None:
    workflow_id = stored_workflow(db, tmp_path)
    first, second = created_app(db, "First"), created_app(db, "Second")
    assert run_studio("apps", "bind", first["id"], workflow_id, "--db", db).returncode == 0
    refused = run_studio("apps", "bind", second["id"], workflow_id, "--db", db)
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == "studio: Workflow is already bound to another app\n"
    assert studio_json("apps", "show", second["id"], "--db", db)["workflowIds"] == []


def test_rename_archive_and_delete(db: str, tmp_path: Path) -> None:
    workflow_id = stored_workflow(db, tmp_path)
    app = created_app(db)
    renamed = run_studio("apps", "rename", app["id"][:6], "Help desk", "--db", db)
    assert renamed.stdout == f"renamed app Support desk to Help desk ({app['id']})\n"
    assert run_studio("apps", "bind", app["id"], workflow_id, "--db", db).returncode == 0
    archived = studio_json("apps", "archive", app["id"], "--db", db)
    assert isinstance(archived, dict) and archived["status"] == "ARCHIVED"
    assert [a["name"] for a in studio_json("apps", "list", "--db", db)] == ["Holder"]
    deleted = run_studio("apps", "delete", app["id"], "--db", db)
    assert deleted.stdout == (
        f"deleted app Help desk ({app['id']}); its 1 workflow(s) are kept, unbound\n"
    )
    kept = run_studio("workflows", "show", workflow_id, "--db", db)
    assert kept.returncode == 0, kept.stderr


def test_an_unknown_app_id_is_refused(db: str) -> None:
    created_app(db)
    result = run_studio("apps", "show", "ffffffff", "--db", db)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "studio: no app 'ffffffff' in this database\n"


def test_a_blank_name_is_refused(db: str) -> None:
    result = run_studio("apps", "create", "  ", "--db", db)
    assert (result.returncode, result.stderr) == (2, "studio: An app needs a name\n")
