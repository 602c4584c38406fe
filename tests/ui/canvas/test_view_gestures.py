"""Zooming, panning, selecting, snapping, finding and opening the palette, as a person does."""

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from studio.model import Workflow
from studio.ui.canvas.editor import WorkflowEditor
from studio.workspace import Workspace
from tests.ui.canvas.gestures import double_click, drag

ROW = {
    "name": "row",
    "nodes": [
        {
            "id": f"n{i}",
            "agentId": "demo-echo-agent",
            "name": f"Step {i}",
            "position": {"x": 300.0 * i, "y": 0.0},
        }
        for i in range(4)
    ],
}


def make_editor(qtbot) -> WorkflowEditor:
    editor = WorkflowEditor(Workflow.model_validate(ROW), Workspace().agents)
    qtbot.addWidget(editor)
    editor.resize(900, 600)
    editor.show()
    qtbot.waitExposed(editor)
    editor.view.fit_all()
    return editor


def test_the_wheel_zooms_in_and_out(qtbot) -> None:
    editor = make_editor(qtbot)
    before = editor.view.zoom_level()
    centre = editor.view.viewport().rect().center()
    event = QWheelEvent(
        QPointF(centre),
        QPointF(editor.view.viewport().mapToGlobal(centre)),
        QPoint(0, 0),
        QPoint(0, 240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(editor.view.viewport(), event)
    assert editor.view.zoom_level() > before * 1.2


def test_the_middle_button_pans(qtbot) -> None:
    editor = make_editor(qtbot)
    editor.view.zoom_by(3)
    scroll = editor.view.horizontalScrollBar().value()
    start = editor.view.mapToScene(editor.view.viewport().rect().center())
    drag(editor.view, start, start + QPointF(100, 0), button=Qt.MouseButton.MiddleButton)
    assert editor.view.horizontalScrollBar().value() < scroll
    assert all(n.position.y == 0.0 for n in editor.document.nodes)  # panning moves no node


def test_a_rubber_band_selects_the_nodes_it_covers(qtbot) -> None:
    editor = make_editor(qtbot)
    first = editor.scene.node_items["n0"].sceneBoundingRect()
    second = editor.scene.node_items["n1"].sceneBoundingRect()
    drag(editor.view, first.topLeft() - QPointF(30, 30), second.bottomRight() + QPointF(30, 30))
    assert editor.scene.selected_node_ids() == ["n0", "n1"]


def test_snap_to_grid_rounds_a_dragged_node(qtbot) -> None:
    editor = make_editor(qtbot)
    editor.view.snap_to_grid = True
    centre = editor.scene.node_items["n2"].sceneBoundingRect().center()
    drag(editor.view, centre, centre + QPointF(37, 53))
    position = editor.document.node("n2").position
    assert position.x % 20 == 0 and position.y % 20 == 0 and position.y != 0


def test_find_selects_and_centres_the_match(qtbot) -> None:
    editor = make_editor(qtbot)
    editor.view.zoom_by(3)
    assert editor.find_node("step 3") == "n3"
    assert editor.scene.selected_node_ids() == ["n3"]
    assert editor.view.visible_scene_rect().contains(
        editor.scene.node_items["n3"].sceneBoundingRect().center()
    )
    assert editor.find_node("no such thing") is None


def test_tab_and_a_double_click_on_empty_canvas_open_the_palette(qtbot) -> None:
    editor = make_editor(qtbot)
    editor.view.setFocus()
    qtbot.keyClick(editor.view, Qt.Key.Key_Tab)
    assert editor.node_palette is not None and editor.node_palette.isVisible()
    editor.node_palette.close()
    empty = editor.scene.node_items["n0"].sceneBoundingRect().bottomLeft() + QPointF(0, 200)
    double_click(editor.view, empty)
    assert editor.node_palette.isVisible()
    assert "demo-echo-agent" in editor.node_palette.visible_agent_ids()


def test_a_double_click_on_a_node_asks_for_its_drawer(qtbot) -> None:
    editor = make_editor(qtbot)
    opened: list[str] = []
    editor.nodeActivated.connect(opened.append)
    double_click(editor.view, editor.scene.node_items["n1"].sceneBoundingRect().center())
    assert opened == ["n1"]
