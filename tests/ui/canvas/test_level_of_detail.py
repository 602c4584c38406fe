"""Zoomed out, the canvas draws less of each node, as a person looking at it would expect:
labels go first (unreadable anyway), then ports and arrowheads (smaller than two pixels).
What is drawn is read from the rendered pixels."""

from PySide6.QtCore import QPoint, QPointF
from PySide6.QtGui import QColor, QImage

from studio.model import Workflow
from studio.ui.canvas.editor import WorkflowEditor
from studio.ui.canvas.style import NODE_HEIGHT, NODE_WIDTH
from tests.ui.canvas.gestures import click
from tests.ui.canvas.test_editor_basics import make_editor

FIRST, SECOND = "first", "second"


def two_linked_nodes(qtbot) -> WorkflowEditor:
    workflow = Workflow.model_validate(
        {
            "name": "pair",
            "nodes": [
                {"id": FIRST, "agentId": "echo", "name": "Fetch", "position": {"x": 0, "y": 0}},
                {"id": SECOND, "agentId": "echo", "name": "Store", "position": {"x": 300, "y": 0}},
            ],
            "edges": [{"source": FIRST, "target": SECOND}],
        }
    )
    return make_editor(qtbot, workflow)


def zoomed_to(editor: WorkflowEditor, zoom: float) -> QImage:
    """What the canvas shows at ``zoom``, centred on the pair."""
    view = editor.view
    view.resetTransform()
    view.scale(zoom, zoom)
    view.centerOn(QPointF(250, NODE_HEIGHT / 2))
    return view.viewport().grab().toImage()


def close(one: QColor, other: QColor, within: int = 40) -> bool:
    return all(
        abs(a - b) <= within
        for a, b in zip(
            (one.red(), one.green(), one.blue()),
            (other.red(), other.green(), other.blue()),
            strict=True,
        )
    )


def tinted(pixel: QColor, colour: QColor) -> bool:
    """Whether a pixel has ``colour``'s hue: a line thinner than a pixel is smoothed into the
    background, lighter, but keeps its hue."""
    return pixel.hslSaturation() > 60 and abs(pixel.hslHue() - colour.hslHue()) < 15


def shows_near(editor: WorkflowEditor, image: QImage, scene_point: QPointF, colour: QColor) -> bool:
    """Whether ``colour`` is drawn within a pixel of a scene point."""
    centre = editor.view.mapFromScene(scene_point)
    return any(
        tinted(image.pixelColor(centre + QPoint(dx, dy)), colour)
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
    )


def text_pixels(editor: WorkflowEditor, image: QImage, node_id: str) -> int:
    """Pixels of the text colour inside a node's label area (right of the glyph)."""
    item = editor.scene.node_items[node_id]
    top_left = editor.view.mapFromScene(item.mapToScene(QPointF(54, 8)))
    bottom_right = editor.view.mapFromScene(item.mapToScene(QPointF(NODE_WIDTH - 8, 56)))
    text = editor.scene.colors.text
    return sum(
        close(image.pixelColor(QPoint(x, y)), text, within=60)
        for x in range(top_left.x(), bottom_right.x() + 1)
        for y in range(top_left.y(), bottom_right.y() + 1)
    )


def test_labels_are_drawn_at_full_size_and_left_out_far_away(qtbot) -> None:
    editor = two_linked_nodes(qtbot)

    assert text_pixels(editor, zoomed_to(editor, 1.0), FIRST) > 20
    assert text_pixels(editor, zoomed_to(editor, 0.3), FIRST) == 0
    assert text_pixels(editor, zoomed_to(editor, 1.0), FIRST) > 20  # and back when near


def test_ports_show_until_they_would_be_specks(qtbot) -> None:
    editor = two_linked_nodes(qtbot)
    port_colour = editor.scene.colors.port
    output_port = editor.scene.node_items[FIRST].output_point()

    assert shows_near(editor, zoomed_to(editor, 0.3), output_port, port_colour)
    assert not shows_near(editor, zoomed_to(editor, 0.19), output_port, port_colour)
    assert shows_near(editor, zoomed_to(editor, 1.0), output_port, port_colour)


def test_a_node_clicked_far_away_is_outlined_as_selected(qtbot) -> None:
    editor = two_linked_nodes(qtbot)
    zoomed_to(editor, 0.4)
    item = editor.scene.node_items[SECOND]
    border = item.mapToScene(QPointF(NODE_WIDTH / 2, 0))

    click(editor.view, item.sceneBoundingRect().center())

    assert editor.scene.selected_node_ids() == [SECOND]
    highlight = editor.scene.colors.node_selected
    assert shows_near(editor, editor.view.viewport().grab().toImage(), border, highlight)
    click(editor.view, QPointF(150, 300))  # on the empty canvas: nothing selected
    assert not shows_near(editor, editor.view.viewport().grab().toImage(), border, highlight)


def test_a_clicked_edge_takes_the_selection_colour_and_gives_it_back(qtbot) -> None:
    editor = two_linked_nodes(qtbot)
    zoomed_to(editor, 1.0)
    (edge,) = editor.scene.edge_items.values()
    middle = edge.path().pointAtPercent(0.5)

    click(editor.view, middle)

    assert editor.scene.selected_edge_ids() == [edge.edge_id]
    assert edge.pen().color() == editor.scene.colors.node_selected
    click(editor.view, QPointF(150, 300))
    assert edge.pen().color() == editor.scene.colors.edge
