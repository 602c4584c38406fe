"""The approvals panel over a real workspace and the real engine: select a waiting task, type a
comment, decide, and see the run finish."""

import asyncio
import json
from collections.abc import Iterator
from concurrent.futures import Future
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QPushButton, QVBoxLayout, QWidget

from studio.engine.runner import StepRunner
from studio.model import Workflow
from studio.model.errors import StudioError
from studio.store.human_tasks import HumanTask
from studio.ui.run.approvals_panel import (
    EMPTY_TEXT,
    NODE,
    RUN,
    TITLE,
    WAITING,
    WORKFLOW,
    ApprovalsPanel,
)
from studio.ui.run.time_text import short_id, waited_text
from studio.workspace import Workspace
from tests.ui.pixels import assert_cell_text, assert_shows_text, picture

GATED = {
    "name": "Order intake",
    "nodes": [
        {"id": "prepare", "agentId": "demo-echo-agent"},
        {"id": "gate", "name": "Manager sign-off", "agentId": "human-approval"},
        {"id": "after", "agentId": "demo-echo-agent"},
    ],
    "edges": [{"source": "prepare", "target": "gate"}, {"source": "gate", "target": "after"}],
}
REFUND = {
    "name": "Refunds",
    "nodes": [{"id": "refund", "agentId": "demo-echo-agent", "requiresApproval": True}],
}


class Decider:
    """What the window passes to the panel: decide as "dana", then drive the run on."""

    def __init__(self, runner: StepRunner) -> None:
        self.runner = runner

    def __call__(
        self, execution_id: str, node_id: str, approved: bool, comment: str | None
    ) -> Future[HumanTask]:
        decision: Future[HumanTask] = Future()
        try:
            task = self.runner.decide(
                execution_id, node_id, approved=approved, by="dana", comment=comment
            )
        except StudioError as refused:
            decision.set_exception(refused)
            return decision
        asyncio.run(self.runner.run(execution_id))
        decision.set_result(task)
        return decision


@pytest.fixture
def workspace(studio_data_dir: Path) -> Iterator[Workspace]:
    opened = Workspace(studio_data_dir)
    yield opened
    opened.close()


@pytest.fixture
def runner(workspace: Workspace) -> StepRunner:
    return workspace.runner()


def publish(workspace: Workspace, data: dict[str, Any]) -> Workflow:
    stored = workspace.workflows.create(Workflow.model_validate(data))
    published, problems = workspace.workflows.publish(stored.id, workspace.agents)
    assert published.status == "PUBLISHED", problems
    return published


def start_waiting(runner: StepRunner, workflow: Workflow, execution_input: Any) -> str:
    record = asyncio.run(runner.execute(workflow.id, execution_input))
    assert record.status == "waiting"
    return record.execution_id


def open_panel(qtbot, workspace: Workspace, runner: StepRunner) -> ApprovalsPanel:
    """The panel shown as an active window, refreshed once, as the window would do."""
    panel = ApprovalsPanel(workspace, Decider(runner))
    qtbot.addWidget(panel)
    panel.resize(720, 520)
    panel.show()
    qtbot.waitExposed(panel)
    panel.activateWindow()
    qtbot.waitUntil(panel.isActiveWindow)
    with qtbot.waitSignal(panel.countChanged):
        panel.refresh()
    return panel


def rows(panel: ApprovalsPanel) -> list[tuple[str, str, str]]:
    items = [panel.list.topLevelItem(i) for i in range(panel.list.topLevelItemCount())]
    return [(item.text(WORKFLOW), item.text(NODE), item.text(TITLE)) for item in items]


def runs_listed(panel: ApprovalsPanel) -> list[str]:
    items = [panel.list.topLevelItem(i) for i in range(panel.list.topLevelItemCount())]
    return [item.text(RUN) for item in items]


def click_row(qtbot, panel: ApprovalsPanel, row: int) -> None:
    rect = panel.list.visualItemRect(panel.list.topLevelItem(row))
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def type_comment(qtbot, panel: ApprovalsPanel, text: str) -> None:
    qtbot.mouseClick(panel.comment, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(panel.comment.hasFocus)
    qtbot.keyClicks(panel.comment, text)


def test_approving_a_task_records_the_decision_and_the_run_completes(
    qtbot, workspace: Workspace, runner: StepRunner
) -> None:
    execution_id = start_waiting(runner, publish(workspace, GATED), {"order": 7})
    panel = open_panel(qtbot, workspace, runner)
    assert rows(panel) == [
        (
            "Order intake",
            "Manager sign-off",
            "Approve 'Manager sign-off' (Human approval) in 'Order intake'",
        )
    ]
    assert not panel.approve_button.isEnabled() and not panel.reject_button.isEnabled()
    assert panel.input_view.toPlainText() == ""

    click_row(qtbot, panel, 0)
    assert panel.selected_task() == (execution_id, "gate")
    assert json.loads(panel.input_view.toPlainText()) == {"order": 7}
    assert panel.input_view.toPlainText() == json.dumps({"order": 7}, indent=2)
    assert panel.approve_button.isEnabled() and panel.reject_button.isEnabled()
    type_comment(qtbot, panel, "fine by me")
    with (
        qtbot.waitSignal(panel.decided) as decided,
        qtbot.waitSignal(panel.countChanged) as counted,
    ):
        qtbot.mouseClick(panel.approve_button, Qt.MouseButton.LeftButton)

    assert decided.args == [execution_id, "gate", True]
    assert counted.args == [0]
    assert rows(panel) == []
    assert panel.comment.text() == ""
    assert panel.pages.currentWidget() is panel.empty_label
    assert panel.empty_label.isVisible() and panel.empty_label.text() == EMPTY_TEXT
    assert panel.message.text() == "Approved 'Manager sign-off'."
    assert panel.message.icon_name == "message_note"
    task = workspace.human_tasks.get(execution_id, "gate")
    assert (task.status, task.decided_by, task.comment) == ("approved", "dana", "fine by me")
    record = workspace.executions.get(execution_id)
    assert record.status == "completed" and record.output == {"order": 7}


def test_rejecting_a_task_fails_the_run_with_the_comment(
    qtbot, workspace: Workspace, runner: StepRunner
) -> None:
    execution_id = start_waiting(runner, publish(workspace, GATED), {"order": 8})
    panel = open_panel(qtbot, workspace, runner)
    click_row(qtbot, panel, 0)
    type_comment(qtbot, panel, "not today")
    with qtbot.waitSignal(panel.decided) as decided:
        qtbot.mouseClick(panel.reject_button, Qt.MouseButton.LeftButton)

    assert decided.args == [execution_id, "gate", False]
    assert rows(panel) == []
    task = workspace.human_tasks.get(execution_id, "gate")
    assert (task.status, task.decided_by, task.comment) == ("rejected", "dana", "not today")
    record = workspace.executions.get(execution_id)
    assert record.status == "failed"
    error = record.node_results["gate"].error
    assert error["type"] == "ApprovalRejected" and "not today" in error["message"]
    assert record.node_results["after"].status != "completed"


def test_ctrl_return_approves_and_ctrl_shift_return_rejects(
    qtbot, workspace: Workspace, runner: StepRunner
) -> None:
    gated = publish(workspace, GATED)
    first = start_waiting(runner, gated, {"order": 1})
    second = start_waiting(runner, gated, {"order": 2})
    panel = open_panel(qtbot, workspace, runner)
    assert panel.list.topLevelItemCount() == 2

    click_row(qtbot, panel, 1)
    type_comment(qtbot, panel, "second one is wrong")
    with qtbot.waitSignal(panel.decided) as decided:
        qtbot.keyClick(
            panel.comment,
            Qt.Key.Key_Return,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        )
    assert decided.args == [second, "gate", False]
    assert workspace.executions.get(second).status == "failed"

    click_row(qtbot, panel, 0)
    panel.list.setFocus()
    with qtbot.waitSignal(panel.decided) as decided:
        qtbot.keyClick(panel.list, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert decided.args == [first, "gate", True]
    assert workspace.human_tasks.get(first, "gate").comment is None
    assert workspace.executions.get(first).status == "completed"
    assert rows(panel) == []


def test_ctrl_return_with_nothing_selected_decides_nothing(
    qtbot, workspace: Workspace, runner: StepRunner
) -> None:
    execution_id = start_waiting(runner, publish(workspace, GATED), {"order": 3})
    panel = open_panel(qtbot, workspace, runner)
    type_comment(qtbot, panel, "who?")
    with qtbot.assertNotEmitted(panel.decided):
        qtbot.keyClick(panel.comment, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert workspace.human_tasks.get(execution_id, "gate").status == "pending"
    assert panel.comment.text() == "who?"


def test_ctrl_return_outside_the_panel_decides_nothing(
    qtbot, workspace: Workspace, runner: StepRunner
) -> None:
    execution_id = start_waiting(runner, publish(workspace, GATED), {"order": 5})
    window = QWidget()
    elsewhere = QLineEdit(window)
    panel = ApprovalsPanel(workspace, Decider(runner), window)
    layout = QVBoxLayout(window)
    layout.addWidget(elsewhere)
    layout.addWidget(panel)
    qtbot.addWidget(window)
    window.resize(720, 560)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    with qtbot.waitSignal(panel.countChanged):
        panel.refresh()
    click_row(qtbot, panel, 0)
    elsewhere.setFocus()
    qtbot.waitUntil(elsewhere.hasFocus)
    with qtbot.assertNotEmitted(panel.decided):
        qtbot.keyClick(elsewhere, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert workspace.human_tasks.get(execution_id, "gate").status == "pending"


def test_tasks_of_two_workflows_are_listed_together_oldest_first(
    qtbot, workspace: Workspace, runner: StepRunner
) -> None:
    orders = start_waiting(runner, publish(workspace, GATED), {"order": 9})
    refunds = start_waiting(runner, publish(workspace, REFUND), {"amount": 12.5})
    panel = open_panel(qtbot, workspace, runner)
    assert [row[:2] for row in rows(panel)] == [
        ("Order intake", "Manager sign-off"),
        ("Refunds", "refund"),
    ]
    assert runs_listed(panel) == [short_id(orders), short_id(refunds)]
    item = panel.list.topLevelItem(1)
    assert item.text(WAITING) == "just now"
    created = workspace.human_tasks.get(refunds, "refund").created_at.astimezone()
    assert created.strftime("%Y-%m-%d %H:%M:%S") in item.toolTip(WAITING)

    click_row(qtbot, panel, 1)
    assert json.loads(panel.input_view.toPlainText()) == {"amount": 12.5}
    with qtbot.waitSignal(panel.countChanged) as counted:
        panel.refresh()  # the selection survives a refresh while the task still waits
    assert counted.args == [2]
    assert panel.selected_task() == (refunds, "refund")

    with qtbot.waitSignal(panel.decided):
        qtbot.mouseClick(panel.approve_button, Qt.MouseButton.LeftButton)
    assert workspace.executions.get(refunds).status == "completed"
    assert rows(panel)[0][:2] == ("Order intake", "Manager sign-off")
    assert panel.selected_task() is None and not panel.approve_button.isEnabled()
    assert workspace.human_tasks.get(orders, "gate").status == "pending"


def test_a_decision_made_first_elsewhere_is_shown_inline_and_the_list_refreshes(
    qtbot, workspace: Workspace, runner: StepRunner
) -> None:
    execution_id = start_waiting(runner, publish(workspace, GATED), {"order": 4})
    refunds = start_waiting(runner, publish(workspace, REFUND), {"amount": 3})
    panel = open_panel(qtbot, workspace, runner)
    click_row(qtbot, panel, 0)
    type_comment(qtbot, panel, "no way")
    runner.decide(execution_id, "gate", approved=True, by="cli-user", comment=None)  # the CLI

    with (
        qtbot.assertNotEmitted(panel.decided),
        qtbot.waitSignal(panel.countChanged) as counted,
    ):
        qtbot.mouseClick(panel.reject_button, Qt.MouseButton.LeftButton)

    assert counted.args == [1]
    assert panel.message.isVisible() and panel.message.kind == "error"
    assert panel.message.text() == "node 'gate' was already approved by cli-user"
    assert [row[:2] for row in rows(panel)] == [("Refunds", "refund")]
    assert panel.comment.text() == "no way"  # what the person typed is kept
    task = workspace.human_tasks.get(execution_id, "gate")
    assert (task.status, task.decided_by) == ("approved", "cli-user")
    with qtbot.waitSignal(panel.countChanged):
        panel.refresh()  # as the window does on every run event
    assert "already approved by cli-user" in panel.message.text()

    click_row(qtbot, panel, 0)
    with qtbot.waitSignal(panel.decided):
        qtbot.mouseClick(panel.approve_button, Qt.MouseButton.LeftButton)
    assert panel.message.kind == "note" and panel.message.text() == "Approved 'refund'."
    assert workspace.human_tasks.get(refunds, "refund").comment == "no way"


def test_an_empty_workspace_says_nothing_waits(qtbot, workspace: Workspace, runner) -> None:
    panel = ApprovalsPanel(workspace, Decider(runner))
    qtbot.addWidget(panel)
    panel.show()
    with qtbot.waitSignal(panel.countChanged) as counted:
        panel.refresh()
    assert counted.args == [0]
    assert panel.empty_label.isVisible() and panel.empty_label.text() == EMPTY_TEXT
    assert not panel.list.isVisible() and not panel.retry_button.isVisible()


def test_a_store_that_cannot_be_read_is_reported_with_retry(qtbot, tmp_path: Path) -> None:
    broken = tmp_path / "broken.db"
    broken.write_text("this is not a database\n" * 100)
    workspace = Workspace(tmp_path / "data", database=str(broken))
    panel = ApprovalsPanel(workspace, lambda *decision: None)  # nothing to decide yet
    qtbot.addWidget(panel)
    panel.show()
    with qtbot.assertNotEmitted(panel.countChanged):
        panel.refresh()
        qtbot.waitUntil(panel.retry_button.isVisible)
    retry = panel.findChild(type(panel.retry_button), "retryButton")
    assert retry.isVisible()
    assert panel.message.text().startswith("Cannot load the waiting approvals: ")
    assert "broken.db" in panel.message.text()
    assert not panel.pages.isVisible()

    broken.unlink()  # the person fixes the file, then retries
    with qtbot.waitSignal(panel.countChanged) as counted:
        qtbot.mouseClick(retry, Qt.MouseButton.LeftButton)
    assert counted.args == [0]
    assert not retry.isVisible() and not panel.message.isVisible()
    assert panel.empty_label.isVisible()
    workspace.close()


@pytest.mark.parametrize(
    ("age", "text"),
    [
        (timedelta(seconds=5), "just now"),
        (timedelta(minutes=3, seconds=59), "3 min ago"),
        (timedelta(hours=2, minutes=1), "2 h ago"),
        (timedelta(days=1, hours=3), "1 day ago"),
        (timedelta(days=9), "9 days ago"),
        (timedelta(seconds=-30), "just now"),  # a clock a little ahead of this one
    ],
)
def test_waiting_time_reads_as_a_person_says_it(age: timedelta, text: str) -> None:
    now = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
    assert waited_text(now - age, now) == text


def test_the_panel_paints_the_list_the_input_and_the_buttons(
    qtbot, workspace: Workspace, runner: StepRunner, tmp_path: Path
) -> None:
    start_waiting(runner, publish(workspace, GATED), {"order": 7, "lines": ["desk", "lamp"]})
    start_waiting(runner, publish(workspace, REFUND), {"amount": 12.5, "reason": "damaged"})
    panel = open_panel(qtbot, workspace, runner)
    click_row(qtbot, panel, 0)
    type_comment(qtbot, panel, "checked the stock")
    image = picture(panel)
    columns = panel.list.columnCount()
    for row in range(2):
        for column in range(columns):
            assert_cell_text(image, panel.list, panel.list.model().index(row, column), panel)
    assert_shows_text(image, panel, panel.input_view.viewport(), "the input of the chosen task")
    assert_shows_text(image, panel, panel.comment, "the comment")
    for button in panel.findChildren(QPushButton):
        if button.isVisible():
            assert_shows_text(image, panel, button, button.text())
