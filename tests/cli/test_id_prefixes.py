"""Execution and workflow ids from a terminal: a unique prefix of at least six characters
stands for the whole id (the short ids the app shows included); an ambiguous prefix lists the
matches; a shorter one, or one that matches nothing, is refused. Exit 2 for each refusal."""

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.cli.main import main
from studio.workspace import Workspace
from tests.cli_runner import REPO_ROOT

ECHO_DEMO = REPO_ROOT / "blueprints" / "echo-demo-workflow.yaml"
SHORT_ID_LENGTH = 8
"""What the Runs panel shows of an execution id."""


def studio(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``studio ARGS`` in this process: the exit code, stdout and stderr."""
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_echo(capsys: pytest.CaptureFixture[str]) -> str:
    """Run the echo demo; its execution id."""
    code, _out, err = studio(capsys, "run", str(ECHO_DEMO), "--input", "{}", "--quiet")
    assert code == 0, err
    return Workspace().executions.find(limit=1)[0].execution_id


@pytest.fixture
def shared_prefix(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """New ids (executions and workflows alike) that all begin with the same ten characters."""
    counter = iter(range(1, 1000))
    prefix = "abcdef1234"
    monkeypatch.setattr(
        uuid,
        "uuid4",
        lambda: uuid.UUID(f"{prefix[:8]}-{prefix[8:]}00-4000-8000-{next(counter):012d}"),
    )
    yield prefix


def test_the_short_id_the_app_shows_finds_the_execution(capsys: pytest.CaptureFixture[str]) -> None:
    execution_id = run_echo(capsys)
    code, out, err = studio(capsys, "executions", "show", execution_id[:SHORT_ID_LENGTH])
    assert code == 0, err
    assert out.startswith(f"execution {execution_id}: Completed")


def test_six_characters_are_enough_for_cancel(capsys: pytest.CaptureFixture[str]) -> None:
    execution_id = run_echo(capsys)
    code, out, err = studio(capsys, "cancel", execution_id[:6])
    assert code == 0, err
    assert f"execution {execution_id}: Completed" in out


def test_a_prefix_under_six_characters_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    execution_id = run_echo(capsys)
    code, out, err = studio(capsys, "executions", "show", execution_id[:5])
    assert (code, out) == (2, "")
    assert err == (
        f"studio: '{execution_id[:5]}' is too short for an execution id: "
        "give at least 6 of its characters\n"
    )


def test_a_prefix_that_matches_nothing_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    run_echo(capsys)
    code, out, err = studio(capsys, "resume", "ffffffffff")
    assert (code, out) == (2, "")
    assert err == "studio: no execution 'ffffffffff' in this database\n"


def test_an_ambiguous_prefix_lists_the_matches(
    capsys: pytest.CaptureFixture[str], shared_prefix: str
) -> None:
    first, second = run_echo(capsys), run_echo(capsys)
    assert first != second and first.startswith(shared_prefix[:8])
    code, out, err = studio(capsys, "executions", "show", shared_prefix[:8])
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert lines[0] == (f"studio: '{shared_prefix[:8]}' matches 2 executions; give more of the id:")
    assert sorted(line.split()[0] for line in lines[1:]) == sorted([first, second])
    assert all("Completed" in line for line in lines[1:])


def test_approve_takes_a_prefix_too(capsys: pytest.CaptureFixture[str]) -> None:
    execution_id = run_echo(capsys)
    code, _out, err = studio(capsys, "approve", execution_id[:7], "say-hello")
    assert (code, err) == (2, "studio: node 'say-hello' does not wait for approval\n")
    code, _out, err = studio(capsys, "approve", "fedcba9", "say-hello")
    assert (code, err) == (2, "studio: no execution 'fedcba9' in this database\n")


def test_run_and_executions_list_take_a_workflow_prefix(
    capsys: pytest.CaptureFixture[str],
) -> None:
    run_echo(capsys)
    workflow_id = Workspace().workflows.find()[0].stored_id
    code, _out, err = studio(capsys, "run", workflow_id[:6], "--input", "{}", "--quiet")
    assert code == 0, err
    code, out, err = studio(capsys, "executions", "list", "--workflow", workflow_id[:6])
    assert code == 0, err
    assert len(out.splitlines()) == 2


def test_an_ambiguous_workflow_prefix_lists_the_workflows(
    capsys: pytest.CaptureFixture[str], shared_prefix: str, tmp_path: Path
) -> None:
    other = tmp_path / "other.yaml"
    other.write_text(ECHO_DEMO.read_text("utf-8").replace("Echo Demo", "Other Echo"), "utf-8")
    for file in (ECHO_DEMO, other):
        code, _out, err = studio(capsys, "run", str(file), "--input", "{}", "--quiet")
        assert code == 0, err
    code, out, err = studio(capsys, "run", shared_prefix[:6], "--quiet")
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert lines[0] == f"studio: '{shared_prefix[:6]}' matches 2 workflows; give more of the id:"
    assert {line.split("  ")[-1] for line in lines[1:]} == {
        "Echo Demo Workflow",
        "Other Echo Workflow",
    }
