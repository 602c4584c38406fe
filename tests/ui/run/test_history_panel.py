"""The run history panel over a real workspace, real runs and the real ``studio`` command: what
the list shows, filtering, the detail below it, the intents it emits and the Retry on failure."""

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QPushButton, QToolButton

from studio.model import Workflow
from studio.model.execution import ExecutionRecord
from studio.store.errors import DatabaseError
from studio.ui.run.history_panel import NO_MATCHES, NO_RUNS, NO_WORKFLOW, RunHistoryPanel
from studio.ui.run.run_list import DURATION, RUN, STARTED, STATUS, VERSION
from studio.ui.run.time_text import local_time_text
from studio.workspace import Workspace
from tests.cli_runner import run_studio
from tests.ui.pixels import assert_cell_text, assert_shows_text, picture
from tests.ui.run.history_scenarios import (
    ECHO_DEMO,
    execute,
    interrupted_run,
    picky_flow,
    publish,
    workspace_with_agents,
)


@pytest.fixture
def workspace(studio_data_dir: Path, tmp_path: Path) -> Iterator[Workspace]:
    opened = workspace_with_agents(studio_data_dir, tmp_path)
    yield opened
    opened.close()


@pytest.fixture
def picky(workspace: Workspace, tmp_path: Path) -> Workflow:
    return publish(workspace, tmp_path, picky_flow())


@pytest.fixture
def three_runs(workspace: Workspace, picky: Workflow) -> list[ExecutionRecord]:
    """Oldest first: completed, failed, interrupted."""
    return [
        execute(workspace, picky, {"note": "all good"}),
        execute(workspace, picky, {"note": "please fail"}),
        interrupted_run(workspace, picky),
    ]


def open_panel(qtbot, workspace: Workspace, workflow_id: str | None) -> RunHistoryPanel:
    panel = RunHistoryPanel(workspace)
    qtbot.addWidget(panel)
    panel.resize(900, 800)
    panel.show()
    qtbot.waitExposed(panel)
    panel.show_workflow(workflow_id)
    settle(qtbot, panel)
    return panel


def settle(qtbot, panel: RunHistoryPanel) -> None:
    """Wait until the store has answered every read the panel asked for."""
    qtbot.waitUntil(lambda: not panel.is_loading())


def rows(panel: RunHistoryPanel, column: int = STATUS) -> list[str]:
    """The text of ``column`` in every row a person can see, top to bottom."""
    tree = panel.tree
    items = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    return [item.text(column) for item in items if not item.isHidden()]


def click_row(qtbot, panel: RunHistoryPanel, row: int, modifier=Qt.KeyboardModifier.NoModifier):
    rect = panel.tree.visualItemRect(panel.tree.topLevelItem(row))
    qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())
    settle(qtbot, panel)


def button(panel: RunHistoryPanel, name: str) -> QToolButton:
    found = panel.findChild(QToolButton, name)
    assert found is not None, name
    return found


def test_runs_are_listed_newest_first_with_status_started_duration_and_version(
    qtbot, workspace: Workspace, picky: Workflow, three_runs: list[ExecutionRecord]
) -> None:
    panel = open_panel(qtbot, workspace, picky.id)
    newest_first = three_runs[::-1]
    assert rows(panel) == ["Interrupted", "Failed", "Completed"]
    assert rows(panel, VERSION) == [f"v{picky.version}"] * 3
    assert rows(panel, RUN) == [run.execution_id[:8] for run in newest_first]
    assert rows(panel, STARTED) == [local_time_text(run.started_at) for run in newest_first]
    moment = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"
    assert all(re.fullmatch(moment, text) for text in rows(panel, STARTED))
    durations = rows(panel, DURATION)
    assert durations[0] == "—"  # still unfinished
    assert all(re.fullmatch(r"\d+ ms|\d+(\.\d+)? s", text) for text in durations[1:])
    assert panel.findChild(QLabel, "historySummary").text() == "3 runs"
    assert panel.tree.topLevelItem(0).toolTip(RUN) == newest_first[0].execution_id


def test_a_workflow_without_runs_says_how_to_make_one(
    qtbot, workspace: Workspace, picky: Workflow
) -> None:
    panel = open_panel(qtbot, workspace, picky.id)
    message = panel.findChild(QLabel, "historyMessage")
    assert message.isVisible() and message.text() == NO_RUNS
    assert not panel.findChild(QPushButton, "retryButton").isVisible()
    assert not panel.tree.isVisible()
    panel.show_workflow(None)
    assert message.text() == NO_WORKFLOW


def test_the_filter_matches_id_prefix_status_and_version_and_the_status_choice(
    qtbot, workspace: Workspace, picky: Workflow, three_runs: list[ExecutionRecord]
) -> None:
    panel = open_panel(qtbot, workspace, picky.id)
    box = panel.findChild(QLineEdit, "historyFilter")
    summary = panel.findChild(QLabel, "historySummary")
    qtbot.keyClicks(box, "fail")
    assert rows(panel) == ["Failed"]
    assert summary.text() == "1 of 3 runs"
    box.clear()
    qtbot.keyClicks(box, three_runs[0].execution_id[:5])
    assert rows(panel, RUN) == [three_runs[0].execution_id[:8]]
    box.clear()
    qtbot.keyClicks(box, f"v{picky.version} resumable")
    assert rows(panel) == ["Interrupted"]
    box.clear()
    panel.status_filter.setCurrentText("Completed")
    assert rows(panel) == ["Completed"]
    panel.status_filter.setCurrentText("Interrupted")
    assert rows(panel) == ["Interrupted"]
    qtbot.keyClicks(box, "fail")
    assert rows(panel) == []
    assert summary.text() == NO_MATCHES


def test_clicking_a_run_shows_it_below_and_emits_its_id(
    qtbot, workspace: Workspace, picky: Workflow, three_runs: list[ExecutionRecord]
) -> None:
    panel = open_panel(qtbot, workspace, picky.id)
    failed = three_runs[1]
    with qtbot.waitSignal(panel.executionSelected) as selected:
        click_row(qtbot, panel, 1)
    assert selected.args == [failed.execution_id]
    assert panel.detail.execution_id == failed.execution_id
    assert panel.detail.findChild(QLabel, "statusBadge").text() == "Failed"
    steps = panel.detail.steps_tree.topLevelItem(0)
    assert (steps.text(0), steps.text(1)) == ("Check", "Failed")
    assert button(panel, "showOnCanvasButton").isEnabled()
    assert not button(panel, "resumeRunButton").isEnabled()
    assert not button(panel, "compareButton").isEnabled()


def test_when_the_store_fails_the_error_is_shown_and_retry_brings_the_list_back(
    qtbot, workspace: Workspace, picky: Workflow, three_runs, monkeypatch
) -> None:
    real_find = workspace.executions.find
    calls = []

    def failing_once(**kwargs):
        calls.append(kwargs)
        if len(calls) == 1:
            raise DatabaseError("cannot read the database: disk I/O error")
        return real_find(**kwargs)

    monkeypatch.setattr(workspace.executions, "find", failing_once)
    panel = open_panel(qtbot, workspace, picky.id)
    message = panel.findChild(QLabel, "historyMessage")
    retry = panel.findChild(QPushButton, "retryButton")
    assert message.text() == "Could not load the runs: cannot read the database: disk I/O error"
    assert retry.isVisible() and not panel.tree.isVisible()
    qtbot.mouseClick(retry, Qt.MouseButton.LeftButton)
    settle(qtbot, panel)
    assert panel.tree.isVisible() and not retry.isVisible()
    assert rows(panel) == ["Interrupted", "Failed", "Completed"]


def test_a_run_that_cannot_be_read_offers_retry_and_then_shows_it(
    qtbot, workspace: Workspace, picky: Workflow, three_runs, monkeypatch
) -> None:
    panel = open_panel(qtbot, workspace, picky.id)
    real_get = workspace.executions.get
    failures = [DatabaseError("the database is locked")]

    def get(execution_id: str):
        if failures:
            raise failures.pop()
        return real_get(execution_id)

    monkeypatch.setattr(workspace.executions, "get", get)
    click_row(qtbot, panel, 2)
    retry = panel.findChild(QPushButton, "retryButton")
    assert retry.isVisible()
    assert "the database is locked" in panel.findChild(QLabel, "historyMessage").text()
    qtbot.mouseClick(retry, Qt.MouseButton.LeftButton)
    settle(qtbot, panel)
    assert panel.detail.isVisible()
    assert panel.detail.execution_id == three_runs[0].execution_id
    assert panel.selected_ids() == [three_runs[0].execution_id]


def test_a_run_made_by_the_studio_command_is_listed_with_its_steps(
    qtbot, studio_data_dir: Path
) -> None:
    result = run_studio("run", str(ECHO_DEMO), "--input", '{"message": "from the cli"}', "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    workspace = Workspace()
    try:
        panel = open_panel(qtbot, workspace, document["workflowId"])
        assert rows(panel) == ["Completed"]
        assert rows(panel, RUN) == [document["executionId"][:8]]
        click_row(qtbot, panel, 0)
        steps = panel.detail.steps_tree
        assert [steps.topLevelItem(i).text(0) for i in range(2)] == ["Say hello", "Echo back"]
        steps.setCurrentItem(steps.topLevelItem(1))
        assert '"message": "from the cli"' in panel.detail.inspector.output_view.json_text()
    finally:
        workspace.close()


def test_refresh_picks_up_a_run_from_the_command_line_and_keeps_the_selection(
    qtbot, workspace: Workspace
) -> None:
    workflow = workspace.import_and_publish(ECHO_DEMO)
    first = execute(workspace, workflow, {"message": "hi"})
    panel = open_panel(qtbot, workspace, workflow.id)
    click_row(qtbot, panel, 0)
    result = run_studio("run", str(ECHO_DEMO), "--input", '{"message": "later"}', "--json")
    assert result.returncode == 0, result.stderr
    later = json.loads(result.stdout)["executionId"]
    panel.refresh()
    settle(qtbot, panel)
    assert rows(panel, RUN) == [later[:8], first.execution_id[:8]]
    assert panel.selected_ids() == [first.execution_id]
    assert panel.detail.execution_id == first.execution_id


def test_two_selected_runs_can_be_compared_older_first(
    qtbot, workspace: Workspace, picky: Workflow, three_runs: list[ExecutionRecord]
) -> None:
    panel = open_panel(qtbot, workspace, picky.id)
    compare = button(panel, "compareButton")
    click_row(qtbot, panel, 0)
    assert not compare.isEnabled()
    click_row(qtbot, panel, 2, Qt.KeyboardModifier.ControlModifier)
    assert compare.isEnabled()
    assert not button(panel, "replayButton").isEnabled()
    with qtbot.waitSignal(panel.compareRequested) as compared:
        qtbot.mouseClick(compare, Qt.MouseButton.LeftButton)
    assert compared.args == [three_runs[0].execution_id, three_runs[2].execution_id]
    click_row(qtbot, panel, 1, Qt.KeyboardModifier.ControlModifier)
    assert not compare.isEnabled()


def test_enter_shows_the_run_on_the_canvas_and_the_buttons_emit_their_intents(
    qtbot, workspace: Workspace, picky: Workflow, three_runs: list[ExecutionRecord]
) -> None:
    panel = open_panel(qtbot, workspace, picky.id)
    failed = three_runs[1].execution_id
    click_row(qtbot, panel, 1)
    with qtbot.waitSignal(panel.showOnCanvasRequested) as shown:
        qtbot.keyClick(panel.tree, Qt.Key.Key_Return)
    assert shown.args == [failed]
    for name, signal in (
        ("showOnCanvasButton", panel.showOnCanvasRequested),
        ("replayButton", panel.replayRequested),
        ("rerunButton", panel.rerunRequested),
        ("showArtifactsButton", panel.artifactsRequested),
    ):
        with qtbot.waitSignal(signal) as emitted:
            qtbot.mouseClick(button(panel, name), Qt.MouseButton.LeftButton)
        assert emitted.args == [failed], name
    assert [a.text() for a in panel.context_menu().actions()] == [
        "Show on canvas",
        "Replay",
        "Re-run",
        "Show artifacts",
    ]


def test_an_interrupted_run_reads_resumable_and_can_be_resumed(
    qtbot, workspace: Workspace, picky: Workflow, three_runs: list[ExecutionRecord]
) -> None:
    panel = open_panel(qtbot, workspace, picky.id)
    interrupted = three_runs[2].execution_id
    click_row(qtbot, panel, 0)
    resume = button(panel, "resumeRunButton")
    assert resume.isEnabled()
    assert "Resume" in [a.text() for a in panel.context_menu().actions()]
    with qtbot.waitSignal(panel.resumeRequested) as resumed:
        qtbot.mouseClick(resume, Qt.MouseButton.LeftButton)
    assert resumed.args == [interrupted]
    assert panel.detail.findChild(QLabel, "statusBadge").text() == "Interrupted"
    banner_resume = panel.detail.findChild(QPushButton, "resumeButton")
    assert banner_resume.isVisible()
    with qtbot.waitSignal(panel.resumeRequested) as resumed:
        qtbot.mouseClick(banner_resume, Qt.MouseButton.LeftButton)
    assert resumed.args == [interrupted]


def test_select_execution_finds_the_run_through_its_workflow_and_the_filter(
    qtbot, workspace: Workspace, picky: Workflow, three_runs: list[ExecutionRecord]
) -> None:
    echo = workspace.import_and_publish(ECHO_DEMO)
    panel = open_panel(qtbot, workspace, echo.id)
    assert panel.findChild(QLabel, "historyMessage").text() == NO_RUNS
    failed = three_runs[1].execution_id
    with qtbot.waitSignal(panel.executionSelected) as selected:
        assert not panel.select_execution(failed)  # its workflow's runs are read first
    settle(qtbot, panel)
    assert selected.args == [failed]
    assert panel.workflow_id == picky.id
    assert panel.selected_ids() == [failed]
    qtbot.keyClicks(panel.findChild(QLineEdit, "historyFilter"), "completed")
    assert panel.select_execution(three_runs[2].execution_id)
    assert panel.findChild(QLineEdit, "historyFilter").text() == ""
    assert rows(panel)[0] == "Interrupted"
    assert not panel.select_execution("no-such-execution")
    settle(qtbot, panel)
    assert panel.selected_ids() == [three_runs[2].execution_id]


def test_the_panel_paints_its_list_and_the_selected_run(
    qtbot, workspace: Workspace, picky: Workflow, three_runs, tmp_path: Path
) -> None:
    panel = open_panel(qtbot, workspace, picky.id)
    click_row(qtbot, panel, 1)
    image = picture(panel)
    tree = panel.tree
    for row in range(tree.topLevelItemCount()):
        for column in (STATUS, STARTED, DURATION, VERSION):
            if tree.topLevelItem(row).text(column) != "—":  # no duration: a thin dash
                assert_cell_text(image, tree, tree.model().index(row, column), panel)
    assert tree.topLevelItem(1).text(STATUS)
    assert_shows_text(image, panel, panel.detail.title, "the selected run's title")
