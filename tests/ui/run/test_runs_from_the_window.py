"""Issue acceptance, from the main window: a flaky node shows its retry countdown; a failed
run that rolled back shows its Compensations and the right badge; a run waiting for approval
is approved from the Approvals panel and completes."""

import random
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from studio.workspace import Workspace
from tests.ui.answers import answer_on
from tests.ui.run.history_scenarios import (
    flaky_flow,
    gated_flow,
    publish,
    rollback_flow,
    workspace_with_agents,
)
from tests.ui.run.run_loop import act, run_loop, until  # noqa: F401
from tests.ui.run.window_runs import (
    badge_lines,
    drawn_badge_lines,
    open_window,
    run_from_canvas,
)


class LongDraws(random.Random):
    """Backoff draws near the top of their range, so each wait lasts long enough to read."""

    def random(self) -> float:
        return 0.95


@pytest.fixture
def workspace(studio_data_dir: Path, tmp_path: Path) -> Workspace:
    workspace = workspace_with_agents(studio_data_dir, tmp_path)
    yield workspace
    workspace.close()


@pytest.fixture
def window(qtbot, workspace, run_loop):  # noqa: F811
    window = open_window(qtbot, workspace)
    yield window
    window.workflows.runs.shutdown()


def test_a_flaky_node_shows_attempt_and_countdown_then_completes(
    qtbot,
    window,
    workspace,
    tmp_path,
    run_loop,  # noqa: F811
) -> None:
    data = flaky_flow()
    data["nodes"][0]["retryPolicy"].update(backoffBase=1.6, backoffMax=1.6)
    workflow = publish(workspace, tmp_path, data)
    window.workflows.runs.runner.node_runner.rng = LongDraws()
    answer_on(run_loop, window.workflows.tabs.open(workflow.id))
    seen: list[str] = []
    window.workflows.runs.eventArrived.connect(
        lambda _e: seen.extend(drawn_badge_lines(window, "flaky")[:1])
    )

    run_from_canvas(qtbot, window, run_loop)
    countdown = until(
        run_loop,
        lambda: next((t for t in badge_lines(window, "flaky") if "next in 1 s" in t), None),
    )
    assert countdown == "attempt 2 of 4, next in 1 s"
    until(run_loop, lambda: badge_lines(window, "flaky")[0].startswith("Completed"))
    assert any(t.startswith("attempt 3 of 4, next in") for t in seen)
    assert any(t.startswith("Running · attempt 3") for t in seen)
    until(run_loop, lambda: "Completed" in window.workflows.live_runs.progress.label.text())
    record = workspace.executions.find(workflow_id=workflow.id)[0]
    assert record.status == "completed"


@pytest.mark.parametrize(
    ("close_tool", "badge", "ticket_state"),
    [
        ("close_ticket", "failed · rolled back", "Compensated"),
        ("close_ticket_down", "failed · rollback incomplete", "Compensation failed"),
    ],
)
def test_a_failed_run_that_rolled_back_shows_its_compensations_and_badge(
    qtbot,
    window,
    workspace,
    tmp_path,
    run_loop,  # noqa: F811
    close_tool,
    badge,
    ticket_state,
) -> None:
    workflow = publish(workspace, tmp_path, rollback_flow(close_tool=close_tool))
    answer_on(run_loop, window.workflows.tabs.open(workflow.id))
    run_from_canvas(qtbot, window, run_loop, '{"order": 42}')
    until(run_loop, lambda: "Failed" in window.workflows.live_runs.progress.label.text())
    until(run_loop, lambda: ticket_state in badge_lines(window, "create-ticket"))
    assert "Compensated" in badge_lines(window, "reserve-room")
    assert badge_lines(window, "close-out")[0].startswith("Failed")

    history = window.workflows.run_docks.history
    until(run_loop, lambda: history.tree.run_count() == 1)
    history.select_execution(workspace.executions.find(workflow_id=workflow.id)[0].execution_id)
    until(run_loop, lambda: not history.is_loading())
    detail = history.detail
    assert detail.findChild(object, "statusBadge").text() == "Failed"
    assert detail.findChild(object, "compensationBadge").text() == badge
    compensations = detail.findChild(object, "compensationsList")
    rows = [compensations.topLevelItem(i).text(0) for i in range(compensations.topLevelItemCount())]
    assert rows == ["Reserve room", "Create ticket"]  # unwind order: last done, first undone

    # Clicking the failed node on the canvas shows its step, with the error, below.
    tab = window.workflows.tabs.current()
    tab.editor.scene.select_only(["close-out"])
    assert "Close out" in detail.findChild(object, "inspectorTitle").text()
    assert "PolicyDenied" in detail.findChild(object, "errorDetails").text()


def test_a_run_waiting_for_approval_is_approved_from_the_panel_and_completes(
    qtbot,
    window,
    workspace,
    tmp_path,
    run_loop,  # noqa: F811
) -> None:
    workflow = publish(workspace, tmp_path, gated_flow())
    answer_on(run_loop, window.workflows.tabs.open(workflow.id))
    run_from_canvas(qtbot, window, run_loop, '{"order": 7}')
    until(run_loop, lambda: badge_lines(window, "gate")[:1] == ["Waiting for approval"])
    until(run_loop, lambda: window.workflows.approvals_dock.windowTitle() == "Approvals (1)")

    qtbot.keyClick(
        window,
        Qt.Key.Key_A,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    panel = window.workflows.run_docks.approvals
    item = panel.list.topLevelItem(0)
    assert "gated" in item.text(0)
    rect = panel.list.visualItemRect(item)
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.keyClicks(panel.comment, "stock checked")
    act(run_loop, qtbot.mouseClick, panel.approve_button, Qt.MouseButton.LeftButton)

    until(run_loop, lambda: "Completed" in window.workflows.live_runs.progress.label.text())
    until(run_loop, lambda: badge_lines(window, "after")[0].startswith("Completed"))
    user = window.workflows.runs.user
    assert badge_lines(window, "gate") == [
        badge_lines(window, "gate")[0],
        f"Approved by {user}",
    ]
    until(run_loop, lambda: window.workflows.approvals_dock.windowTitle() == "Approvals")
    task = workspace.human_tasks.for_execution(
        workspace.executions.find(workflow_id=workflow.id)[0].execution_id
    )[0]
    assert (task.status, task.decided_by, task.comment) == ("approved", user, "stock checked")
