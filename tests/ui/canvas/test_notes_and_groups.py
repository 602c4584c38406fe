"""Sticky notes and named groups on the canvas, used as a person would: added from the menu
or a shortcut, typed into, recoloured, resized, dragged, collapsed, undone and redone, and
kept through export, import and the store."""

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QMenu

from studio.model import Workflow, export_text, import_text
from studio.model.workflow_files import FileFormat
from studio.ui.canvas.editor import WorkflowEditor
from studio.ui.canvas.group_item import GroupItem
from studio.ui.canvas.note_item import NoteItem
from studio.ui.canvas.style import NODE_HEIGHT
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace
from tests.cli_runner import REPO_ROOT
from tests.ui.answers import answer
from tests.ui.canvas.gestures import click, drag

ECHO = "demo-echo-agent"
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
CHAIN = {
    "name": "annotated chain",
    "nodes": [
        {"id": node_id, "agentId": ECHO, "name": f"Step {node_id}", "position": {"x": x, "y": 0}}
        for node_id, x in (("a", 0.0), ("b", 300.0), ("c", 600.0))
    ],
    "edges": [{"source": "a", "target": "b"}, {"source": "b", "target": "c"}],
}


def make_editor(qtbot, **extra: object) -> WorkflowEditor:
    """An editor on a → b → c (plus any notes or groups given), every node in view."""
    editor = WorkflowEditor(Workflow.model_validate({**CHAIN, **extra}), Workspace().agents)
    qtbot.addWidget(editor)
    editor.resize(1100, 700)
    editor.show()
    qtbot.waitExposed(editor)
    editor.view.fit_all()
    editor.activateWindow()  # the person works in this window: its shortcuts are live
    qtbot.waitUntil(editor.isActiveWindow)
    editor.view.setFocus()
    return editor


def centre_of(editor: WorkflowEditor, node_id: str) -> QPointF:
    return editor.scene.node_items[node_id].sceneBoundingRect().center()


def note_item(editor: WorkflowEditor, note_id: str) -> NoteItem:
    return editor.scene.annotations.note_items[note_id]


def group_item(editor: WorkflowEditor, group_id: str) -> GroupItem:
    return editor.scene.annotations.group_items[group_id]


def choose(menu: QMenu, *path: str) -> None:
    """Pick an entry of a menu, through its submenus."""
    *submenus, text = path
    for title in submenus:
        (action,) = [a for a in menu.actions() if a.text() == title]
        menu = action.menu()
    (action,) = [a for a in menu.actions() if a.text() == text]
    action.trigger()


def positions(editor: WorkflowEditor) -> dict[str, tuple[float, float]]:
    return {node.id: (node.position.x, node.position.y) for node in editor.document.nodes}


# Notes --------------------------------------------------------------------------------------


def test_a_note_added_from_the_menu_renders_the_markdown_typed_into_it_and_undoes(qtbot) -> None:
    editor = make_editor(qtbot)
    empty = centre_of(editor, "b") + QPointF(0, 150)

    choose(editor.context_menu(empty, ""), "Add note")
    qtbot.keyClicks(editor.view, "# Plan")
    qtbot.keyClick(editor.view, Qt.Key.Key_Return)
    qtbot.keyClicks(editor.view, "Call **the API** first")
    qtbot.keyClick(editor.view, Qt.Key.Key_Escape)

    (note,) = editor.document.notes
    assert note.text == "# Plan\nCall **the API** first"
    assert note.position.x == pytest.approx(empty.x()) and note.colour == "yellow"
    shown = note_item(editor, note.id)
    assert shown.rendered_text == "Plan\nCall the API first"
    assert shown.body.document().firstBlock().blockFormat().headingLevel() == 1
    editor.undo_stack.undo()
    assert editor.document.note(note.id).text == "" and shown.rendered_text == ""
    editor.undo_stack.undo()
    assert editor.document.notes == [] and editor.scene.annotations.note_items == {}
    editor.undo_stack.redo()
    editor.undo_stack.redo()
    assert editor.document.notes == [note]
    assert note_item(editor, note.id).rendered_text == "Plan\nCall the API first"


def test_ctrl_shift_n_adds_a_note_and_enter_reopens_it_for_editing(qtbot) -> None:
    editor = make_editor(qtbot)

    qtbot.keyClick(editor.view, Qt.Key.Key_N, CTRL_SHIFT)
    qtbot.keyClicks(editor.view, "first")
    click(editor.view, centre_of(editor, "a") + QPointF(0, 300))  # click away: the edit ends
    (note,) = editor.document.notes
    click(editor.view, note_item(editor, note.id).sceneBoundingRect().center())
    qtbot.keyClick(editor.view, Qt.Key.Key_Return)
    qtbot.keyClicks(editor.view, " and more")
    qtbot.keyClick(editor.view, Qt.Key.Key_Escape)

    assert editor.document.note(note.id).text == "first and more"
    assert editor.undo_stack.count() == 3  # add, type, type again


def test_backspace_while_typing_edits_the_text_and_deletes_nothing(qtbot) -> None:
    editor = make_editor(qtbot, notes=[{"id": "n", "text": "abc"}])
    item = note_item(editor, "n")
    click(editor.view, item.sceneBoundingRect().center())

    qtbot.keyClick(editor.view, Qt.Key.Key_Return)
    qtbot.keyClick(editor.view, Qt.Key.Key_Backspace)
    qtbot.keyClick(editor.view, Qt.Key.Key_Escape)
    assert editor.document.note("n").text == "ab"
    qtbot.keyClick(editor.view, Qt.Key.Key_Delete)  # not typing now: the note goes

    assert editor.document.notes == []
    editor.undo_stack.undo()
    assert editor.document.note("n").text == "ab"


def test_a_note_is_recoloured_from_its_menu_and_resized_from_its_corner(qtbot) -> None:
    note = {"id": "n", "text": "look", "position": {"x": 0, "y": 200}}
    editor = make_editor(qtbot, notes=[note])
    item = note_item(editor, "n")
    before = item.look.fill

    choose(editor.context_menu(item.sceneBoundingRect().center(), ""), "Colour", "Pink")
    assert editor.document.note("n").colour == "pink" and item.look.fill != before
    corner = item.mapToScene(QPointF(item.width - 5, item.height - 5))
    drag(editor.view, corner, corner + QPointF(120, 60))

    size = editor.document.note("n").size
    assert size.width == pytest.approx(220 + 120, abs=3)
    assert size.height == pytest.approx(140 + 60, abs=3)
    assert editor.document.note("n").position.x == 0  # a resize does not move it
    editor.undo_stack.undo()
    assert (item.width, item.height) == (220, 140)
    editor.undo_stack.undo()
    assert editor.document.note("n").colour == "yellow"


def test_dragging_a_note_with_a_node_is_one_undo_step(qtbot) -> None:
    editor = make_editor(qtbot, notes=[{"id": "n", "position": {"x": 0, "y": 200}}])
    item = note_item(editor, "n")
    click(editor.view, centre_of(editor, "a"))
    click(editor.view, item.sceneBoundingRect().center(), Qt.KeyboardModifier.ControlModifier)

    drag(editor.view, centre_of(editor, "a"), centre_of(editor, "a") + QPointF(0, 80))

    assert editor.document.note("n").position.y == pytest.approx(280, abs=3)
    assert positions(editor)["a"][1] == pytest.approx(80, abs=3)
    editor.undo_stack.undo()
    assert editor.document.note("n").position.y == 200 and positions(editor)["a"] == (0, 0)


# Groups -------------------------------------------------------------------------------------


def group_a_and_b(qtbot, editor: WorkflowEditor) -> GroupItem:
    click(editor.view, centre_of(editor, "a"))
    click(editor.view, centre_of(editor, "b"), Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(editor.view, Qt.Key.Key_G, CTRL_SHIFT)
    (group,) = editor.document.groups
    return group_item(editor, group.id)


def test_ctrl_shift_g_groups_the_selection_and_dragging_the_frame_moves_both_nodes(
    qtbot,
) -> None:
    editor = make_editor(qtbot)
    frame = group_a_and_b(qtbot, editor)
    (group,) = editor.document.groups
    assert group.node_ids == ["a", "b"] and group.name
    area = frame.sceneBoundingRect()
    assert area.contains(editor.scene.node_items["a"].sceneBoundingRect())
    assert area.contains(editor.scene.node_items["b"].sceneBoundingRect())
    assert not area.intersects(editor.scene.node_items["c"].sceneBoundingRect())

    title = frame.mapToScene(QPointF(60, 10))
    steps = editor.undo_stack.count()
    drag(editor.view, title, title + QPointF(0, 150))

    moved = positions(editor)
    assert moved["a"][1] == pytest.approx(150, abs=3)
    assert moved["b"][1] == pytest.approx(150, abs=3) and moved["c"] == (600, 0)
    assert frame.sceneBoundingRect().top() == pytest.approx(area.top() + 150, abs=3)
    assert editor.undo_stack.undoText() == "Move group"
    assert editor.undo_stack.count() == steps + 1
    editor.undo_stack.undo()
    assert positions(editor) == {"a": (0, 0), "b": (300, 0), "c": (600, 0)}
    assert frame.sceneBoundingRect() == area


def test_grouping_is_offered_on_a_selection_and_ungrouping_on_the_frame(qtbot) -> None:
    editor = make_editor(qtbot)
    click(editor.view, centre_of(editor, "b"))
    click(editor.view, centre_of(editor, "c"), Qt.KeyboardModifier.ControlModifier)

    choose(editor.context_menu(centre_of(editor, "b"), "b"), "Group selection")
    (group,) = editor.document.groups
    frame = group_item(editor, group.id)
    choose(editor.context_menu(frame.mapToScene(QPointF(30, 10)), ""), "Ungroup")

    assert editor.document.groups == [] and editor.scene.annotations.group_items == {}
    assert positions(editor) == {"a": (0, 0), "b": (300, 0), "c": (600, 0)}
    editor.undo_stack.undo()
    assert editor.document.groups == [group]


def test_the_title_is_renamed_in_place_by_double_click(qtbot) -> None:
    editor = make_editor(qtbot, groups=[{"id": "g", "name": "Old", "nodeIds": ["a"]}])
    frame = group_item(editor, "g")
    title = frame.mapToScene(QPointF(40, 12))

    point = editor.view.mapFromScene(title)
    qtbot.mouseDClick(editor.view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    qtbot.keyClicks(editor.view, "Fetch stage")
    qtbot.keyClick(editor.view, Qt.Key.Key_Return)

    assert editor.document.group("g").name == "Fetch stage" and frame.name == "Fetch stage"
    editor.undo_stack.undo()
    assert frame.name == "Old"


def test_collapsing_hides_the_nodes_behind_a_box_that_takes_their_edges(qtbot) -> None:
    editor = make_editor(qtbot)
    frame = group_a_and_b(qtbot, editor)
    items, edges = editor.scene.node_items, editor.scene.edge_items

    click(editor.view, frame.mapToScene(frame.toggle_rect().center()))

    assert editor.document.groups[0].collapsed
    assert not items["a"].isVisible() and not items["b"].isVisible()
    assert frame.isVisible() and frame.height == NODE_HEIGHT
    assert not edges["a->b"].isVisible()  # inside the box
    assert edges["b->c"].isVisible()
    assert edges["b->c"].path().pointAtPercent(0) == frame.output_point()
    click(editor.view, frame.mapToScene(frame.toggle_rect().center()))

    assert not editor.document.groups[0].collapsed
    assert items["a"].isVisible() and items["b"].isVisible() and edges["a->b"].isVisible()
    assert edges["b->c"].path().pointAtPercent(0) == items["b"].output_point()
    editor.undo_stack.undo()
    assert not items["a"].isVisible()


def test_deleting_a_grouped_node_takes_it_out_of_its_group_and_undo_puts_it_back(qtbot) -> None:
    group = {"id": "g", "name": "All", "nodeIds": ["a", "b", "c"]}
    editor = make_editor(qtbot, groups=[group])

    click(editor.view, centre_of(editor, "b"))
    qtbot.keyClick(editor.view, Qt.Key.Key_Delete)

    assert editor.document.group("g").node_ids == ["a", "c"]
    assert len(group_item(editor, "g").members) == 2
    editor.undo_stack.undo()
    assert editor.document.group("g").node_ids == ["a", "b", "c"]
    assert editor.scene.node_items["b"] in group_item(editor, "g").members


def test_deleting_the_last_node_of_a_group_removes_the_group_until_undone(qtbot) -> None:
    editor = make_editor(qtbot, groups=[{"id": "g", "nodeIds": ["c"], "collapsed": False}])

    click(editor.view, centre_of(editor, "c"))
    qtbot.keyClick(editor.view, Qt.Key.Key_Delete)

    assert editor.document.groups == [] and editor.scene.annotations.group_items == {}
    editor.undo_stack.undo()
    assert editor.document.group("g").node_ids == ["c"]


# Files and the store ------------------------------------------------------------------------

ANNOTATED = {
    "notes": [
        {"id": "note-1", "text": "## Inputs\n\n- *city*", "colour": "blue"},
        {
            "id": "note-2",
            "text": "grey one",
            "colour": "grey",
            "size": {"width": 300, "height": 90},
        },
    ],
    "groups": [{"id": "group-1", "name": "Start", "nodeIds": ["a", "b"], "collapsed": True}],
}


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_export_then_import_gives_back_the_same_notes_and_groups(
    qtbot, tmp_path: Path, fmt: FileFormat
) -> None:
    editor = make_editor(qtbot, **ANNOTATED)
    path = tmp_path / f"annotated.{fmt}"
    path.write_text(export_text(editor.document.snapshot(), fmt), encoding="utf-8")

    other = make_editor(qtbot)
    other.replace_workflow(import_text(path.read_text(encoding="utf-8"), fmt), "Import")

    assert other.document.notes == editor.document.notes
    assert other.document.groups == editor.document.groups
    assert set(other.scene.annotations.note_items) == {"note-1", "note-2"}
    assert not other.scene.node_items["a"].isVisible()  # the group came back collapsed
    other.undo_stack.undo()
    assert other.document.notes == [] and other.scene.annotations.group_items == {}


def test_notes_and_groups_survive_closing_and_reopening_a_stored_workflow(
    qtbot, tmp_path: Path
) -> None:
    database = str(tmp_path / "studio.db")
    first = MainWindow(Workspace(database=database))
    qtbot.addWidget(first)
    first.show()
    blueprint = REPO_ROOT / "blueprints" / "echo-demo-workflow.yaml"
    tab = answer(qtbot, first.workflows.files.open_workflow_file(str(blueprint)))
    editor = tab.editor
    editor.annotations.add_note()
    qtbot.keyClicks(editor.view, "*kept*")
    qtbot.keyClick(editor.view, Qt.Key.Key_Escape)
    editor.select_all()
    editor.annotations.group_selection()
    editor.annotations.toggle_group(editor.document.groups[0].id)
    assert tab.autosaver.save_now()
    made = editor.document.snapshot()
    first.close()

    second = MainWindow(Workspace(database=database))
    qtbot.addWidget(second)
    second.show()
    reopened = answer(qtbot, second.workflows.tabs.open(tab.workflow_id)).editor

    assert reopened.document.notes == made.notes and reopened.document.notes[0].text == "*kept*"
    assert reopened.document.groups == made.groups and made.groups[0].collapsed
    assert all(not item.isVisible() for item in reopened.scene.node_items.values())
