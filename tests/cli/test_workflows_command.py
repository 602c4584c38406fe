"""``studio workflows list|show|export|delete``: the workflows stored in the workspace's
database, from a terminal. ``delete`` asks nothing but refuses what it cannot find."""

import json
from pathlib import Path

import pytest
import yaml

from studio.cli.main import main
from studio.workspace import Workspace
from tests.cli.test_id_prefixes import ECHO_DEMO, studio


@pytest.fixture
def stored(capsys: pytest.CaptureFixture[str]) -> str:
    """The echo demo, stored (published) by running it once; its workflow id."""
    code, _out, err = studio(capsys, "run", str(ECHO_DEMO), "--input", "{}", "--quiet")
    assert code == 0, err
    return Workspace().workflows.find()[0].stored_id


def test_list_shows_each_stored_workflow(capsys: pytest.CaptureFixture[str], stored: str) -> None:
    code, out, err = studio(capsys, "workflows", "list")
    assert code == 0, err
    assert out.split() == [stored, "PUBLISHED", "v2", "Echo", "Demo", "Workflow"]


def test_list_of_an_empty_database_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = studio(capsys, "workflows", "list")
    assert (code, out) == (0, "")
    assert err == "no workflows stored yet\n"


def test_list_as_json(capsys: pytest.CaptureFixture[str], stored: str) -> None:
    code, out, _err = studio(capsys, "workflows", "list", "--json")
    assert code == 0
    [entry] = json.loads(out)
    assert entry == entry | {"id": stored, "name": "Echo Demo Workflow", "status": "PUBLISHED"}
    assert entry["nodes"] == 2 and entry["version"] == 2


def test_show_by_a_short_id_lists_the_nodes_and_edges(
    capsys: pytest.CaptureFixture[str], stored: str
) -> None:
    code, out, err = studio(capsys, "workflows", "show", stored[:8])
    assert code == 0, err
    assert out.splitlines()[0] == f"Echo Demo Workflow ({stored}): PUBLISHED, version 2"
    assert "  say-hello  demo-echo-agent  Say hello" in out
    assert "  say-hello -> echo-back" in out


def test_export_to_stdout_is_the_workflow_file(
    capsys: pytest.CaptureFixture[str], stored: str
) -> None:
    code, out, err = studio(capsys, "workflows", "export", stored[:6])
    assert code == 0, err
    data = yaml.safe_load(out)
    assert data["name"] == "Echo Demo Workflow"
    assert [node["id"] for node in data["nodes"]] == ["say-hello", "echo-back"]
    assert "id" not in data and "status" not in data


def test_export_to_a_json_file_reimports(
    capsys: pytest.CaptureFixture[str], stored: str, tmp_path: Path
) -> None:
    target = tmp_path / "echo.json"
    code, out, err = studio(capsys, "workflows", "export", stored, str(target))
    assert code == 0, err
    assert out == f"wrote {target}\n"
    assert json.loads(target.read_text("utf-8"))["name"] == "Echo Demo Workflow"
    assert studio(capsys, "validate", str(target), "--publish")[0] == 0


def test_export_to_a_file_of_unknown_type_is_refused(
    capsys: pytest.CaptureFixture[str], stored: str, tmp_path: Path
) -> None:
    target = tmp_path / "echo.txt"
    code, out, err = studio(capsys, "workflows", "export", stored, str(target))
    assert (code, out) == (2, "")
    assert err.startswith(f"studio: {target}: unknown file type '.txt'")
    assert not target.exists()


def test_delete_asks_nothing_and_removes_a_draft(
    capsys: pytest.CaptureFixture[str], stored: str
) -> None:
    Workspace().workflows.unpublish(stored)
    code, out, err = studio(capsys, "workflows", "delete", stored[:6])
    assert code == 0, err
    assert out == f"deleted Echo Demo Workflow ({stored}) and its 1 run(s)\n"
    assert Workspace().workflows.find() == []


def test_delete_of_a_published_workflow_needs_force(
    capsys: pytest.CaptureFixture[str], stored: str
) -> None:
    code, out, err = studio(capsys, "workflows", "delete", stored)
    assert (code, out) == (1, "")
    assert err == (
        f"studio: Echo Demo Workflow ({stored}) is published; "
        "add --force to unpublish and delete it\n"
    )
    assert len(Workspace().workflows.find()) == 1
    code, out, err = studio(capsys, "workflows", "delete", stored, "--force")
    assert code == 0, err
    assert Workspace().workflows.find() == []


def test_delete_of_an_unknown_id_is_refused(
    capsys: pytest.CaptureFixture[str], stored: str
) -> None:
    code, out, err = studio(capsys, "workflows", "delete", "0000000000")
    assert (code, out) == (2, "")
    assert err == "studio: no workflow '0000000000' in this database\n"
    assert len(Workspace().workflows.find()) == 1


def test_delete_with_a_short_prefix_is_refused(
    capsys: pytest.CaptureFixture[str], stored: str
) -> None:
    code, _out, err = studio(capsys, "workflows", "delete", stored[:3])
    assert code == 2
    assert "too short for a workflow id" in err
    assert len(Workspace().workflows.find()) == 1


def test_workflows_without_an_action_shows_the_actions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["workflows"])
    assert exited.value.code == 2
    assert "list,show,export,delete" in capsys.readouterr().err
