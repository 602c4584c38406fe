"""Between the knowledge graph and the rest of the app: an artifact a run lands appears in the
open graph; its provenance link opens the run on its workflow's canvas, and the person comes
back to the graph as they left it; the Runs panel opens the graph on what a run produced. And
what goes wrong: a stored text damaged behind the app's back, a drop that cannot land."""

from pathlib import Path

import yaml
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from studio.ui.knowledge.landing_dialogs import ProblemsDialog
from tests.store.test_knowledge_integrity import raw as tamper
from tests.ui.knowledge.knowledge_window import (
    STORIES,
    WAIT_MS,
    click_node,
    land_corpus,
    open_window,
)
from tests.ui.run.run_loop import run_loop, until  # noqa: F401

NOTES = """\
---
id: release-notes
kind: release-notes
subject: checkout-redesign
title: Release notes
produced_by: {capability: writing}
created_at: 2026-09-20T12:00:00Z
---
# Release notes

## Changes

Guests can pay without an account.
"""


def lander_agents(tmp_path: Path) -> Path:
    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / "lander.yaml").write_text(
        yaml.safe_dump({"id": "lander", "name": "Lander", "kind": "artifact", "settings": {}})
    )
    return agents


def publish_writer(window, tmp_path: Path):
    data = {"name": "Write notes", "nodes": [{"id": "write", "name": "Write", "agentId": "lander"}]}
    path = tmp_path / "write-notes.yaml"
    path.write_text(yaml.safe_dump(data))
    return window.workspace.import_and_publish(path)


def test_a_run_lands_an_artifact_that_appears_and_links_back_to_the_run(
    qtbot,
    tmp_path,
    run_loop,  # noqa: F811
) -> None:
    window = open_window(qtbot, tmp_path, (lander_agents(tmp_path),))
    mode = window.knowledge
    land_corpus(qtbot, window)
    workflow = publish_writer(window, tmp_path)

    placed = {node: mode.canvas.node_item(node).scene_rect() for node in mode.canvas.node_ids()}

    record = window.workflows.runs.start(workflow.id, {"markdown": NOTES}).result(timeout=10)
    run_node = f"run:{record.execution_id}"
    until(run_loop, lambda: "release-notes" in mode.canvas.node_ids())  # live, no reload asked
    assert run_node in mode.canvas.node_ids()
    moved = [n for n, box in placed.items() if mode.canvas.node_item(n).scene_rect() != box]
    assert moved == []  # what landed went in beside the rest; nothing jumped

    click_node(qtbot, mode, "release-notes")
    until(run_loop, lambda: mode.pane.shown_ref() is not None)
    header = mode.pane.header
    assert record.execution_id[:8] in header.provenance.text()
    assert "Write notes" in header.provenance.text()  # the workflow by its name
    qtbot.mouseClick(header.provenance, Qt.MouseButton.LeftButton, pos=QPoint(4, 4))

    until(run_loop, lambda: window.current_mode().name == "workflows")
    tab = until(run_loop, lambda: window.workflows.tabs.current())
    until(run_loop, lambda: tab.replay_bar.isVisible())
    assert tab.overlay.execution_id == record.execution_id
    assert "write" in tab.editor.scene.node_items

    qtbot.keyClick(window.centralWidget(), Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert window.current_mode().name == "knowledge"
    assert mode.canvas.selected_node() == "release-notes"  # as the person left it
    assert mode.pane.shown_ref() is not None and "Release notes" in mode.pane.shown_text()


def test_show_artifacts_in_the_runs_panel_opens_the_graph_on_the_run(
    qtbot,
    tmp_path,
    run_loop,  # noqa: F811
) -> None:
    window = open_window(qtbot, tmp_path, (lander_agents(tmp_path),))
    mode = window.knowledge
    land_corpus(qtbot, window)
    workflow = publish_writer(window, tmp_path)
    record = window.workflows.runs.start(workflow.id, {"markdown": NOTES}).result(timeout=10)
    until(run_loop, lambda: "release-notes" in mode.canvas.node_ids())
    until(run_loop, lambda: not window.workflows.runs.is_driving(record.execution_id))

    window.show_mode("workflows")
    until(run_loop, lambda: window.workflows.tabs.open(workflow.id).done())
    history = window.workflows.run_docks.history
    window.workflows.run_docks.show_history()
    until(run_loop, lambda: history.select_execution(record.execution_id))  # listed, selected
    until(run_loop, lambda: history.tree.selected_ids() == [record.execution_id])
    assert history.run_actions["artifacts"].isEnabled()
    history.run_actions["artifacts"].trigger()

    until(run_loop, lambda: window.current_mode().name == "knowledge")
    run_node = f"run:{record.execution_id}"
    until(run_loop, lambda: mode.session.query.focus == run_node)
    until(run_loop, lambda: mode.canvas.node_ids() == {run_node, "release-notes"})


def test_a_text_damaged_behind_the_apps_back_shows_an_error_in_the_pane(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge
    land_corpus(qtbot, window)
    tamper(
        tmp_path / "studio.db",
        "DROP TRIGGER artifact_bodies_no_update",
        "UPDATE artifact_bodies SET body = replace(body, 'Pay as a guest', 'Pay twice') "
        "WHERE sha256 = (SELECT sha256 FROM artifact_versions WHERE ref = ?)",
        parameters=(STORIES,),
    )

    click_node(qtbot, mode, "stories")

    qtbot.waitUntil(lambda: "cannot be shown" in mode.pane.shown_text(), timeout=WAIT_MS)
    assert STORIES in mode.pane.shown_text()
    assert "Pay twice" not in mode.pane.shown_text()
    assert window.isVisible()


def drop(widget, paths: list[Path]) -> None:
    """Drag files over a widget and drop them, as a file manager does."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
    enter = QDragEnterEvent(
        QPoint(20, 20),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted()
    event = QDropEvent(
        QPointF(20, 20),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, event)
    assert event.isAccepted()


def test_a_drop_with_a_binary_and_a_file_failing_lint_lands_nothing_and_says_why(
    qtbot, tmp_path
) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge
    binary = tmp_path / "picture.md"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    untitled = tmp_path / "untitled.md"
    untitled.write_text(NOTES.replace("title: Release notes\n", ""), encoding="utf-8")
    good = tmp_path / "notes.md"
    good.write_text(NOTES, encoding="utf-8")

    with qtbot.waitSignal(mode.landing.finished, timeout=WAIT_MS):
        drop(mode.page, [binary, untitled, good])

    dialog = mode.landing_dialogs.problems
    assert isinstance(dialog, ProblemsDialog)
    listed = dict(dialog.listed())
    assert set(listed) == {binary, untitled}
    assert any("binary" in message or "UTF-8" in message for message in listed[binary])
    assert any("title" in message for message in listed[untitled])
    assert window.workspace.knowledge.heads() == []
    assert mode.page.is_empty_shown()


def test_provenance_naming_a_run_this_database_does_not_hold_says_so_and_stays(
    qtbot, tmp_path
) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge
    land_corpus(qtbot, window)  # its runs (exec-0001 …) were recorded elsewhere

    click_node(qtbot, mode, "design")
    qtbot.waitUntil(lambda: "exec-0007" in mode.pane.header.provenance.text(), timeout=WAIT_MS)
    header = mode.pane.header
    qtbot.mouseClick(header.provenance, Qt.MouseButton.LeftButton, pos=QPoint(4, 4))

    qtbot.waitUntil(
        lambda: window.findChild(QMessageBox, "runProblem") is not None, timeout=WAIT_MS
    )
    box = window.findChild(QMessageBox, "runProblem")
    assert box.text() == "Cannot show run exec-0007: Execution not found"
    assert window.current_mode().name == "knowledge"


def test_files_dropped_on_the_graph_land_and_appear(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path)
    mode = window.knowledge
    land_corpus(qtbot, window)
    notes = tmp_path / "notes.md"
    notes.write_text(NOTES, encoding="utf-8")

    with qtbot.waitSignal(mode.landing.finished, timeout=WAIT_MS):
        drop(mode.canvas.view.viewport(), [notes])

    qtbot.waitUntil(lambda: "release-notes" in mode.canvas.node_ids(), timeout=WAIT_MS)
