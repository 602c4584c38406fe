"""Issue acceptance: a person draws a workflow in the main window, then undoes every step
back to the empty canvas and redoes it all; the model is checked after each step."""

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QMessageBox

from studio.model import EdgeCondition
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace
from tests.ui.answers import answer
from tests.ui.canvas.gestures import drag


@pytest.fixture(autouse=True)
def answer_yes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)


def add_by_typing(qtbot, editor, text: str, where: QPointF) -> str:
    palette = editor.open_palette(where)
    qtbot.keyClicks(palette.search, text)
    before = {node.id for node in editor.document.nodes}
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    (added,) = {node.id for node in editor.document.nodes} - before
    return added


def test_draw_configure_layout_delete_then_undo_to_empty_and_redo_all(qtbot) -> None:
    window = MainWindow(Workspace())
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    tab = answer(qtbot, window.workflows.files.new_workflow())
    editor, document = tab.editor, tab.editor.document
    history = [document.snapshot()]

    def step() -> None:
        history.append(document.snapshot())
        assert editor.undo_stack.index() == len(history) - 1

    first = add_by_typing(qtbot, editor, "echo", QPointF(0, 0))
    step()
    second = add_by_typing(qtbot, editor, "echo", QPointF(300, 200))
    step()
    third = add_by_typing(qtbot, editor, "human appr", QPointF(600, 0))
    step()
    assert document.node(third).agent_id == "human-approval"

    editor.view.fit_all()
    for source, target in ((first, second), (second, third)):
        item = editor.scene.node_items
        drag(editor.view, item[source].output_point(), item[target].sceneBoundingRect().center())
        step()
    assert [(e.source, e.target) for e in document.edges] == [(first, second), (second, third)]

    edge_id = document.edges[0].id
    editor.scene.select_only(edge_ids=[edge_id])
    condition = window.workflows.panels.condition_editor
    assert window.workflows.panels.inspector.currentWidget() is condition
    condition.when_radio.click()
    condition.field_edit.clear()
    qtbot.keyClicks(condition.field_edit, "result.status")
    condition.value_edit.clear()
    qtbot.keyClicks(condition.value_edit, "approved")
    qtbot.keyClick(condition.value_edit, Qt.Key.Key_Return)
    assert document.edge(edge_id).condition == EdgeCondition(
        field="result.status", operator="equals", value="approved"
    )
    history.append(document.snapshot())  # the condition may take one or two commands
    steps_so_far = editor.undo_stack.index()

    editor.scene.select_only([second])
    drawer = window.workflows.panels.node_drawer
    assert window.workflows.panels.inspector.currentWidget() is drawer
    drawer.identity.name_edit.selectAll()
    qtbot.keyClicks(drawer.identity.name_edit, "Check the order")
    qtbot.keyClick(drawer.identity.name_edit, Qt.Key.Key_Return)
    assert document.node(second).name == "Check the order"
    assert editor.undo_stack.index() == steps_so_far + 1
    history.append(document.snapshot())

    centre = editor.scene.node_items[first].sceneBoundingRect().center()
    drag(editor.view, centre, centre + QPointF(0, 120))
    history.append(document.snapshot())
    editor.auto_layout()
    history.append(document.snapshot())
    positions = {n.id: (n.position.x, n.position.y) for n in document.nodes}
    assert positions[first][0] < positions[second][0] < positions[third][0]

    editor.scene.select_only([second])
    editor.view.setFocus()
    qtbot.keyClick(editor.view, Qt.Key.Key_Delete)
    history.append(document.snapshot())
    assert document.node(second) is None and document.edges == []

    seen = [document.snapshot()]
    while editor.undo_stack.canUndo():
        editor.undo_stack.undo()
        seen.append(document.snapshot())
    assert document.nodes == [] and document.edges == []
    assert editor.scene.node_items == {} and editor.scene.edge_items == {}
    for snapshot in history:
        assert snapshot in seen, "every state the person saw comes back on the way down"
    while editor.undo_stack.canRedo():
        editor.undo_stack.redo()
    assert document.snapshot() == history[-1]
    assert set(editor.scene.node_items) == {first, third}
