"""The execution detail over runs made by the real engine: badges, steps with their input,
output and errors, decisions, and the compensations of a rolled-back run in unwind order."""

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QPushButton, QTreeWidget, QTreeWidgetItem, QWidget

from studio.model.execution import ExecutionRecord
from studio.ui.run.execution_detail import ExecutionDetail
from studio.ui.run.execution_inspector import ERROR_TAB
from studio.ui.run.json_view import JsonView, pretty_json
from studio.ui.run.time_text import local_time_text
from studio.workspace import Workspace
from tests.ui.run.history_scenarios import (
    ECHO_DEMO,
    approved_run,
    execute,
    failing_flow,
    flaky_flow,
    gated_flow,
    interrupted_run,
    publish,
    rollback_flow,
    workspace_with_agents,
)

PROCESS_EXIT_LINES = [
    "Error: ProcessExit — sh exited with code 1: something broke",
    "Failure class: AGENT_ERROR",
    "Recommended action: manual_review_required",
]


@pytest.fixture
def workspace(studio_data_dir: Path, tmp_path: Path) -> Iterator[Workspace]:
    opened = workspace_with_agents(studio_data_dir, tmp_path)
    yield opened
    opened.close()


def show_record(
    qtbot, workspace: Workspace, record: ExecutionRecord, interrupted: bool = False
) -> ExecutionDetail:
    """Open the detail on ``record`` as the history panel does: fresh record, pinned version."""
    detail = ExecutionDetail()
    qtbot.addWidget(detail)
    detail.resize(900, 700)
    detail.show()
    qtbot.waitExposed(detail)
    stored = workspace.executions.get(record.execution_id)
    workflow = workspace.workflows.get_version(stored.workflow_id, stored.workflow_version)
    tasks = workspace.human_tasks.for_execution(stored.execution_id)
    detail.show_execution(stored, workflow, tasks, interrupted)
    return detail


def run_flow(workspace: Workspace, tmp_path: Path, data, execution_input=None):
    return execute(workspace, publish(workspace, tmp_path, data), execution_input)


def table(tree: QTreeWidget) -> list[tuple[str, ...]]:
    """Every top-level row's cells."""
    items = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    return [tuple(item.text(c) for c in range(tree.columnCount())) for item in items]


def children(item: QTreeWidgetItem) -> list[str]:
    return [item.child(i).text(0) for i in range(item.childCount())]


def label(detail: ExecutionDetail, name: str) -> QLabel:
    found = detail.findChild(QLabel, name)
    assert found is not None, name
    return found


def click(qtbot, tree: QTreeWidget, row: int) -> QTreeWidgetItem:
    item = tree.topLevelItem(row)
    rect = tree.visualItemRect(item)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    return item


def test_a_completed_run_shows_its_steps_and_each_steps_input_and_output(
    qtbot, workspace: Workspace
) -> None:
    workflow = workspace.import_and_publish(ECHO_DEMO)
    record = execute(workspace, workflow, {"message": "hi"})
    detail = show_record(qtbot, workspace, record)
    title = label(detail, "executionTitle").text()
    assert record.execution_id[:8] in title and f"v{workflow.version}" in title
    assert label(detail, "statusBadge").text() == "Completed"
    assert not label(detail, "compensationBadge").isVisible()
    assert (
        label(detail, "executionMeta")
        .text()
        .startswith(f"Started {local_time_text(record.started_at)} · took ")
    )
    for hidden in ("compensationsSection", "decisionsSection", "interruptedBanner"):
        assert not detail.findChild(QWidget, hidden).isVisible(), hidden
    rows = table(detail.steps_tree)
    assert [(r[0], r[1], r[3]) for r in rows] == [
        ("Say hello", "Completed", "1"),
        ("Echo back", "Completed", "1"),
    ]
    assert all(re.fullmatch(r"\d+ ms|\d+\.\d s", r[2]) for r in rows), rows
    click(qtbot, detail.steps_tree, 1)
    inspector = detail.inspector
    assert inspector.output_view.json_text() == pretty_json({"message": "hi"})
    assert inspector.input_view.json_text() == pretty_json({"message": "hi"})
    assert inspector.tabs.currentWidget() is inspector.output_view
    assert not inspector.tabs.isTabEnabled(ERROR_TAB)
    assert not label(detail, "errorDetails").isVisible()


def test_a_failed_step_unfolds_into_its_error_and_shows_it_in_full(
    qtbot, workspace: Workspace, tmp_path: Path
) -> None:
    record = run_flow(workspace, tmp_path, failing_flow(), {"go": 1})
    detail = show_record(qtbot, workspace, record)
    assert label(detail, "statusBadge").text() == "Failed"
    assert label(detail, "executionError").text() == (
        "Error: NodeFailed — node 'boom' failed: sh exited with code 1: something broke"
    )
    assert [(r[0], r[1], r[3]) for r in table(detail.steps_tree)] == [
        ("Start", "Completed", "1"),
        ("Blow up", "Failed", "1"),
    ]
    failed = detail.steps_tree.topLevelItem(1)
    assert detail.steps_tree.topLevelItem(0).childCount() == 0
    assert not failed.isExpanded()
    failed.setExpanded(True)
    assert children(failed) == PROCESS_EXIT_LINES
    click(qtbot, detail.steps_tree, 1)
    assert label(detail, "errorDetails").text() == "\n".join(PROCESS_EXIT_LINES)
    inspector = detail.inspector
    assert inspector.tabs.currentIndex() == ERROR_TAB
    raw = json.loads(inspector.error_view.toPlainText())
    assert raw["details"] == {"exitCode": 1} and raw["type"] == "ProcessExit"
    assert inspector.input_view.json_text() == pretty_json({"go": 1})
    assert inspector.output_view.reason() == "No output"


def test_a_retried_step_counts_its_attempts(qtbot, workspace: Workspace, tmp_path: Path) -> None:
    record = run_flow(workspace, tmp_path, flaky_flow())
    detail = show_record(qtbot, workspace, record)
    assert [(r[0], r[1], r[3]) for r in table(detail.steps_tree)] == [("Flaky", "Completed", "3")]


def test_a_rolled_back_run_lists_its_compensations_in_unwind_order(
    qtbot, workspace: Workspace, tmp_path: Path
) -> None:
    record = run_flow(workspace, tmp_path, rollback_flow())
    detail = show_record(qtbot, workspace, record)
    assert label(detail, "statusBadge").text() == "Failed"
    assert label(detail, "compensationBadge").text() == "failed · rolled back"
    assert [r[:2] for r in table(detail.steps_tree)] == [
        ("Create ticket", "Completed"),
        ("Reserve room", "Completed"),
        ("Close out", "Failed"),
    ]
    compensations = detail.compensations_list
    assert detail.compensations_section.isVisible()
    assert table(compensations) == [
        ("Reserve room", "release_room", "Compensated"),
        ("Create ticket", "close_ticket", "Compensated"),
    ]
    assert all(not compensations.topLevelItem(i).icon(2).isNull() for i in range(2))
    click(qtbot, compensations, 0)
    inspector = detail.inspector
    assert inspector.input_view.json_text() == pretty_json({"roomId": "R-12"})
    assert inspector.output_view.json_text() == pretty_json({"released": True})
    assert not detail.steps_tree.selectedItems()


def test_a_failed_compensation_shows_its_raw_error_failure_class_and_action(
    qtbot, workspace: Workspace, tmp_path: Path
) -> None:
    record = run_flow(workspace, tmp_path, rollback_flow(close_tool="close_ticket_down"))
    detail = show_record(qtbot, workspace, record)
    assert label(detail, "compensationBadge").text() == "failed · rollback incomplete"
    compensations = detail.compensations_list
    assert table(compensations) == [
        ("Reserve room", "release_room", "Compensated"),
        ("Create ticket", "close_ticket_down", "Compensation failed"),
    ]
    assert compensations.topLevelItem(0).childCount() == 0
    failed = compensations.topLevelItem(1)
    failed.setExpanded(True)
    assert children(failed) == [
        "Error: TicketingDown — ticketing is down",
        "Failure class: AGENT_ERROR",
        "Recommended action: manual_review_required",
    ]
    click(qtbot, compensations, 1)
    assert label(detail, "errorDetails").text().splitlines() == children(failed)
    raw = json.loads(detail.inspector.error_view.toPlainText())
    assert raw["message"] == "ticketing is down"
    assert (raw["failureClass"], raw["recommendedAction"]) == (
        "AGENT_ERROR",
        "manual_review_required",
    )
    assert detail.inspector.input_view.json_text() == pretty_json(
        {"ticketId": "TCK-4471", "reason": "workflow rolled back"}
    )


def test_an_unwind_that_stops_leaves_the_rest_not_started(
    qtbot, workspace: Workspace, tmp_path: Path
) -> None:
    record = run_flow(workspace, tmp_path, rollback_flow(release_tool="release_room_down"))
    detail = show_record(qtbot, workspace, record)
    assert label(detail, "compensationBadge").text() == "failed · rollback incomplete"
    assert table(detail.compensations_list) == [
        ("Reserve room", "release_room_down", "Compensation failed"),
        ("Create ticket", "close_ticket", "Not started"),
    ]
    click(qtbot, detail.compensations_list, 1)
    assert detail.inspector.input_view.reason() == "Not run"
    assert not label(detail, "errorDetails").isVisible()


def test_decisions_list_who_decided_what_when_and_why(
    qtbot, workspace: Workspace, tmp_path: Path
) -> None:
    workflow = publish(workspace, tmp_path, gated_flow())
    record = approved_run(workspace, workflow)
    task = workspace.human_tasks.for_execution(record.execution_id)[0]
    detail = show_record(qtbot, workspace, record)
    assert detail.decisions_section.isVisible()
    assert table(detail.decisions_list) == [
        ("Manager sign-off", "Approved", "ana", local_time_text(task.decided_at), "fine by me")
    ]
    waiting = execute(workspace, workflow, {"order": 8})
    detail = show_record(qtbot, workspace, waiting)
    assert label(detail, "statusBadge").text() == "Waiting for approval"
    assert label(detail, "statusBadge").icon_name == "status_waiting"  # drawn, not a ⏸ glyph
    assert table(detail.decisions_list) == [
        ("Manager sign-off", "Waiting for a decision", "—", "—", "")
    ]
    assert table(detail.steps_tree)[1][:2] == ("Manager sign-off", "Waiting for approval")
    assert not detail.steps_tree.topLevelItem(1).icon(1).isNull()
    assert table(detail.steps_tree)[2][1:] == ("Pending", "—", "—")


def test_an_interrupted_run_has_a_banner_that_asks_to_resume_it(
    qtbot, workspace: Workspace
) -> None:
    record = interrupted_run(workspace, workspace.import_and_publish(ECHO_DEMO))
    detail = show_record(qtbot, workspace, record, interrupted=True)
    assert label(detail, "statusBadge").text() == "Interrupted"
    assert label(detail, "statusBadge").icon_name == "status_interrupted"
    assert label(detail, "executionMeta").text().endswith("still unfinished")
    assert detail.banner.isVisible()
    with qtbot.waitSignal(detail.resumeRequested) as resumed:
        qtbot.mouseClick(detail.findChild(QPushButton, "resumeButton"), Qt.MouseButton.LeftButton)
    assert resumed.args == [record.execution_id]


def test_showing_the_same_run_again_keeps_the_selected_step(
    qtbot, workspace: Workspace, tmp_path: Path
) -> None:
    record = run_flow(workspace, tmp_path, failing_flow())
    detail = show_record(qtbot, workspace, record)
    assert detail.select_step("boom")
    assert not detail.select_step("no-such-node")
    stored = workspace.executions.get(record.execution_id)
    detail.show_execution(stored, None, [], False)
    assert [item.text(0) for item in detail.steps_tree.selectedItems()] == ["boom"]
    assert label(detail, "errorDetails").text() == "\n".join(PROCESS_EXIT_LINES)


def test_json_is_pretty_printed_read_only_monospace_and_coloured(qtbot) -> None:
    view = JsonView()
    qtbot.addWidget(view)
    view.show_value({"message": "hi", "count": 3, "ok": True, "none": None})
    assert view.toPlainText() == (
        '{\n  "message": "hi",\n  "count": 3,\n  "ok": true,\n  "none": null\n}'
    )
    assert view.isReadOnly()
    metrics = QFontMetrics(view.font())
    assert metrics.horizontalAdvance("iii") == metrics.horizontalAdvance("WWW")  # monospace
    line = view.document().findBlockByNumber(1)
    formats = line.layout().formats()
    colours = {f.format.foreground().color().name() for f in formats}
    assert len(colours) >= 2, "the key and the string value are coloured differently"
