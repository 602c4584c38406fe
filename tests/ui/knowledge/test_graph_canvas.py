"""The knowledge graph canvas, used as a person would: the fixture corpus drawn, clicked,
double-clicked, expanded, filtered, zoomed out and searched."""

import gc
import weakref
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtWidgets import QApplication, QGraphicsView, QMessageBox

from studio.knowledge.projection import Projection, ViewOptions, neighbourhood
from studio.ui.knowledge.graph_canvas import KnowledgeCanvas
from studio.ui.knowledge.graph_items import NodeItem
from studio.workspace import Workspace

FIXTURE = Path(__file__).resolve().parents[2] / "knowledge" / "fixtures" / "checkout-redesign"
SUBJECT = "checkout-redesign"


def grid(projection: Projection) -> dict[str, tuple[float, float]]:
    """A trivial layout: the nodes in id order, six to a row, slots well apart."""
    return {
        node: ((index % 6) * 300.0, (index // 6) * 110.0)
        for index, node in enumerate(sorted(projection.graph.nodes))
    }


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    folder = tmp_path_factory.mktemp("knowledge")
    workspace = Workspace(data_dir=folder, database=str(folder / "k.db"))
    workspace.knowledge.ingest(FIXTURE)
    yield workspace
    workspace.close()


@pytest.fixture
def full(workspace: Workspace) -> Projection:
    return workspace.knowledge.graph(ViewOptions(items=True, units=True))


@pytest.fixture
def canvas(qtbot, full: Projection) -> KnowledgeCanvas:
    canvas = KnowledgeCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(1280, 800)
    canvas.show()
    qtbot.waitExposed(canvas)
    canvas.show_graph(full, grid(full))
    return canvas


def node_point(canvas: KnowledgeCanvas, node_id: str) -> QPoint:
    """Where a node's middle is on the screen, after scrolling it into view."""
    item = canvas.node_item(node_id)
    assert item is not None
    canvas.center_on(node_id)
    return canvas.view.mapFromScene(item.center())


def node(name: str) -> str:
    return f"{SUBJECT}/{name}"


def test_every_node_is_drawn_and_the_legend_lists_the_types(canvas, full) -> None:
    assert canvas.node_ids() == set(full.graph.nodes)
    assert len(canvas.scene.edges) == full.graph.number_of_edges()
    entries = canvas.legend.entries()
    for name in ("artifact: design", "run", "requirement", "story", "unit", "persona"):
        assert name in entries
    assert "section" not in entries
    assert "traceability" in entries and "provenance" in entries


def test_clicking_selects_and_double_clicking_activates(qtbot, canvas) -> None:
    viewport = canvas.view.viewport()
    with qtbot.waitSignal(canvas.nodeSelected) as selected:
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=node_point(canvas, node("REQ-2")))
    assert selected.args == [node("REQ-2")]
    assert canvas.selected_node() == node("REQ-2")
    with qtbot.waitSignal(canvas.nodeActivated) as activated:
        qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=node_point(canvas, node("ST-1")))
    assert activated.args == [node("ST-1")]
    canvas.view.centerOn(canvas.scene.sceneRect().topLeft())
    empty = canvas.view.mapFromScene(canvas.scene.sceneRect().topLeft()) + QPoint(5, 5)
    with qtbot.waitSignal(canvas.nodeSelected) as cleared:
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=empty)
    assert cleared.args == [""]
    assert canvas.selected_node() is None


def test_clicking_the_hidden_chip_asks_to_expand(qtbot, canvas, full) -> None:
    design = node("design")
    assert full.hidden_neighbours(design) > 0  # its sections are not shown
    chip = canvas.node_item(design).chip
    assert chip is not None and chip.isVisible()
    assert chip.text.text() == f"+{full.hidden_neighbours(design)} hidden"
    canvas.center_on(design)
    where = canvas.view.mapFromScene(chip.sceneBoundingRect().center())
    with qtbot.waitSignal(canvas.expandRequested) as expand:
        qtbot.mouseClick(canvas.view.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert expand.args == [design]
    assert canvas.node_item(node("REQ-1")).chip is None  # nothing hidden, no chip


def test_a_filtered_graph_keeps_the_surviving_items_where_they_were(
    canvas, workspace, full
) -> None:
    before = {n: canvas.node_item(n) for n in full.graph.nodes}
    places = {n: (item.pos().x(), item.pos().y()) for n, item in before.items()}
    narrow = workspace.knowledge.graph(ViewOptions())
    positions = grid(full)
    canvas.show_graph(narrow, {n: positions[n] for n in narrow.graph.nodes})
    assert canvas.node_ids() == set(narrow.graph.nodes)
    assert node("REQ-1") not in canvas.node_ids()
    for node_id in narrow.graph.nodes:
        item = canvas.node_item(node_id)
        assert item is before[node_id]
        assert (item.pos().x(), item.pos().y()) == places[node_id]
    assert set(canvas.legend.entries()) & {"requirement", "unit"} == set()
    canvas.show_graph(full, positions)
    assert canvas.node_ids() == set(full.graph.nodes)
    assert canvas.node_item(node("design")) is before[node("design")]
    assert len(canvas.scene.edges) == full.graph.number_of_edges()
    assert {"requirement", "unit", "traceability"} <= set(canvas.legend.entries())


def test_nodes_the_layout_gave_no_place_go_below_the_others_apart(canvas, workspace, full) -> None:
    positions = grid(full)
    narrow = workspace.knowledge.graph(ViewOptions())
    canvas.show_graph(narrow, {n: positions[n] for n in narrow.graph.nodes})
    unplaced = set(full.graph.nodes) - set(narrow.graph.nodes)

    canvas.show_graph(full, {n: p for n, p in positions.items() if n not in unplaced})

    assert canvas.node_ids() == set(full.graph.nodes)
    lowest = max(canvas.node_item(n).box[3] for n in narrow.graph.nodes)
    boxes = [canvas.node_item(n).scene_rect() for n in sorted(unplaced)]
    assert all(box.top() > lowest for box in boxes)
    assert not any(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def test_zoomed_out_nodes_are_plain_shapes_without_text(canvas) -> None:
    item: NodeItem = canvas.node_item(node("design"))
    edge = next(iter(canvas.scene.edges.values()))
    canvas.zoom_by(1.0 / canvas.zoom_level())
    assert item.label.isVisible() and edge.arrow.isVisible()
    canvas.zoom_by(0.2)
    assert not item.label.isVisible() and not item.caption.isVisible()
    assert not edge.arrow.isVisible()
    canvas.zoom_by(5.0)
    assert item.label.isVisible() and edge.arrow.isVisible()


def test_find_jumps_to_the_node_and_enter_goes_to_the_next(qtbot, canvas) -> None:
    canvas.view.setFocus()
    qtbot.keyClick(canvas.view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert canvas.find_box.isVisible()
    qtbot.keyClicks(canvas.find_box.edit, "wallet")
    assert canvas.selected_node() == node("REQ-3")  # "Wallet payments"
    assert canvas.view.visible_scene_rect().contains(canvas.node_item(node("REQ-3")).center())
    qtbot.keyClick(canvas.find_box.edit, Qt.Key.Key_Return)
    assert canvas.selected_node() == node("ST-3")  # "Pay with a wallet"
    qtbot.keyClick(canvas.find_box.edit, Qt.Key.Key_Return)
    assert canvas.selected_node() == node("REQ-3")
    qtbot.keyClick(canvas.find_box.edit, Qt.Key.Key_Escape)
    assert not canvas.find_box.isVisible()


def test_fit_and_keys_move_the_view(qtbot, canvas) -> None:
    canvas.zoom_by(3.0)
    canvas.view.setFocus()
    qtbot.keyClick(canvas.view, Qt.Key.Key_F)
    shown = canvas.view.visible_scene_rect()
    for node_id in canvas.node_ids():
        assert shown.contains(canvas.node_item(node_id).scene_rect())
    canvas.zoom_by(4.0)
    before = canvas.view.visible_scene_rect().center()
    qtbot.keyClick(canvas.view, Qt.Key.Key_Right)
    assert canvas.view.visible_scene_rect().center().x() > before.x()
    assert canvas.view.dragMode() == QGraphicsView.DragMode.NoDrag


def test_a_node_that_leaves_the_view_is_freed_without_the_cycle_collector(
    canvas, workspace
) -> None:
    """Its items hold no reference cycle, so it goes as soon as the canvas drops it, even
    while collection is held off (as it is while views are built) or it was frozen."""
    artifacts = workspace.knowledge.graph(ViewOptions())
    canvas.show_graph(artifacts, grid(artifacts))
    canvas.finish_drawing()
    canvas.fit_all()
    QApplication.processEvents()
    leaving = canvas.node_item(node("personas"))
    assert leaving is not None and leaving.chip is not None  # "+3 hidden": a child item
    watched = weakref.ref(leaving)
    del leaving
    around_the_plan = neighbourhood(artifacts, node("unit-plan"), 1)
    gc.disable()
    try:
        canvas.show_graph(around_the_plan, grid(artifacts))
        canvas.finish_drawing()
        QApplication.processEvents()
        assert node("personas") not in canvas.node_ids()
        assert watched() is None
    finally:
        gc.enable()


def test_a_dialog_opening_and_closing_leaves_the_canvas_working(qtbot, canvas) -> None:
    """The scene stays active when the window is deactivated (it would otherwise pass the
    news to every item): clicking and double-clicking work as before."""
    dialog = QMessageBox(QMessageBox.Icon.Information, "Landing", "Landing 3 files…")
    dialog.setModal(False)
    dialog.show()
    for change in (QEvent.Type.WindowDeactivate, QEvent.Type.WindowActivate):
        QApplication.sendEvent(canvas.scene, QEvent(change))
        assert canvas.scene.isActive()
    dialog.close()

    viewport = canvas.view.viewport()
    with qtbot.waitSignal(canvas.nodeSelected) as selected:
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=node_point(canvas, node("REQ-1")))
    assert selected.args == [node("REQ-1")]
    with qtbot.waitSignal(canvas.nodeActivated) as activated:
        qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=node_point(canvas, node("ST-2")))
    assert activated.args == [node("ST-2")]


def test_the_minimap_shows_once_part_of_the_graph_is_out_of_sight(qtbot, canvas, full) -> None:
    canvas.fit_all()
    qtbot.waitUntil(lambda: not canvas.minimap.isVisible())
    canvas.view.scale(4, 4)
    canvas.center_on(node("REQ-1"))
    qtbot.waitUntil(lambda: canvas.minimap.isVisible())
    picture = canvas.minimap.grab().toImage()
    background = picture.pixelColor(2, 2)
    drawn = {
        picture.pixelColor(x, y).name()
        for x in range(0, picture.width(), 2)
        for y in range(0, picture.height(), 2)
    }
    assert len(drawn - {background.name()}) > 2  # node dots and the frame, not a blank
