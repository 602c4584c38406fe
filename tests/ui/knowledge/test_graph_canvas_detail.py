"""A big graph is drawn cheaply: a node's text and an edge's arrowhead are made only when they
first come into view close up (or the scene is exported), and a big change is drawn over several
turns of the event loop, the canvas saying when it is drawn whole."""

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from studio.knowledge.projection import Projection
from studio.ui.knowledge import graph_canvas
from studio.ui.knowledge.graph_canvas import KnowledgeCanvas
from tests.ui.knowledge.test_graph_canvas import full, grid, node, workspace

__all__ = ["full", "workspace"]  # the fixtures, shared


def spread(projection: Projection) -> dict[str, tuple[float, float]]:
    """The test grid, ten times as far apart: zoomed out to fit, close up one node at a time."""
    return {n: (x * 10, y * 10) for n, (x, y) in grid(projection).items()}


@pytest.fixture
def canvas(qtbot) -> KnowledgeCanvas:
    canvas = KnowledgeCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(1280, 800)
    canvas.show()
    qtbot.waitExposed(canvas)
    return canvas


def test_text_is_made_only_for_what_comes_into_view_close_up(canvas, full) -> None:
    canvas.show_graph(full, spread(full))
    items = canvas.scene.nodes
    assert canvas.zoom_level() < 0.4
    assert all(item.label is None for item in items.values())
    assert all(edge.arrow is None for edge in canvas.scene.edges.values())

    canvas.zoom_by(1.0 / canvas.zoom_level())
    seen = [canvas.view.visible_scene_rect()]
    canvas.center_on(node("design"))
    seen.append(canvas.view.visible_scene_rect())

    design = items[node("design")]
    assert design.label is not None and design.label.isVisible()
    assert design.label.text() and design.label.text() in design.words[0]
    far = [i for i in items.values() if not any(i.scene_rect().intersects(r) for r in seen)]
    assert len(far) > len(items) / 2 and all(item.label is None for item in far)


def test_an_export_in_detail_draws_every_label(canvas, full) -> None:
    canvas.show_graph(full, spread(full))
    canvas.zoom_by(1.0 / canvas.zoom_level())
    image = QImage(400, 300, QImage.Format.Format_ARGB32)
    painter = QPainter(image)

    canvas.scene.render(painter, QRectF(0, 0, 400, 300), canvas.scene.itemsBoundingRect())
    painter.end()

    assert all(item.label is not None for item in canvas.scene.nodes.values())
    assert all(edge.arrow is not None for edge in canvas.scene.edges.values())


def test_a_big_graph_is_drawn_over_several_turns(qtbot, canvas, full, monkeypatch) -> None:
    monkeypatch.setattr(graph_canvas, "DRAW_AT_ONCE", 10)
    monkeypatch.setattr(graph_canvas, "STEP_BUDGET_S", 0.0)
    with qtbot.waitSignal(canvas.graphDrawn, timeout=10000):
        canvas.show_graph(full, grid(full))
        assert canvas.is_drawing()
        assert len(canvas.scene.nodes) < full.graph.number_of_nodes()

    assert not canvas.is_drawing()
    assert canvas.node_ids() == set(full.graph.nodes)
    assert len(canvas.scene.edges) == full.graph.number_of_edges()


def test_selecting_a_node_not_yet_drawn_draws_the_rest_first(canvas, full, monkeypatch) -> None:
    monkeypatch.setattr(graph_canvas, "DRAW_AT_ONCE", 10)
    monkeypatch.setattr(graph_canvas, "STEP_BUDGET_S", 0.0)
    last = list(full.graph.nodes)[-1]
    canvas.show_graph(full, grid(full))

    canvas.select_node(last)

    assert not canvas.is_drawing()
    assert canvas.selected_node() == last
