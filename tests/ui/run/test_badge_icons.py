"""A node's badge shows its status with an icon drawn from Studio's icon font, not a symbol the
installed fonts may lack: a waiting or interrupted node's pill has the icon's ink at its left,
where an empty box would otherwise be."""

from datetime import UTC, datetime

import pytest
from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QGraphicsScene

from studio.model import Node
from studio.model.execution import WAITING
from studio.model.run_view import INTERRUPTED, NodeView
from studio.ui.canvas.items import NodeItem
from studio.ui.canvas.style import NODE_HEIGHT, NODE_WIDTH, canvas_colors
from studio.ui.run.node_badge import PILL_GAP, NodeBadge, PillLine, pill_icon_rect
from studio.ui.run.status_look import status_look
from tests.ui.pixels import pixels_near

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def drawn_badge(status: str) -> tuple[QImage, QRect, list[PillLine]]:
    """The badge of one node with ``status`` painted at one image pixel per scene unit, where
    its first pill's icon is in the picture, and its pills."""
    scene = QGraphicsScene()
    node = NodeItem(Node(id="gate", agent_id="approval"), "approval", canvas_colors())
    scene.addItem(node)
    badge = NodeBadge(node, dark=False)
    badge.show_node(NodeView(status=status), NOW)
    area = badge.mapRectToScene(badge.boundingRect())
    image = QImage(int(area.width()), int(area.height()), QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    scene.render(painter, QRectF(image.rect()), area)
    painter.end()
    pill = QRectF(0, NODE_HEIGHT + PILL_GAP, NODE_WIDTH, 18)
    place = badge.mapRectToScene(pill_icon_rect(pill)).translated(-area.topLeft())
    return image, place.toRect(), list(badge.lines)


@pytest.mark.parametrize("status", [WAITING, INTERRUPTED])
def test_the_pill_of_a_waiting_or_interrupted_node_shows_its_icon(qapp, status: str) -> None:
    image, place, lines = drawn_badge(status)
    look = status_look(status)
    assert lines[0].text == look.label  # the words alone, no symbol before them
    assert lines[0].icon == look.icon
    inked = pixels_near(image, place, look.colour(dark=False))
    # A filled round icon covers about half its square; an outline box or nothing far less.
    assert inked >= place.width() * place.height() * 0.3, f"{status}: no icon drawn"
    assert inked < place.width() * place.height() * 0.95, f"{status}: a filled block"


def test_waiting_and_interrupted_icons_differ_in_shape(qapp) -> None:
    shapes = []
    for status in (WAITING, INTERRUPTED):
        image, place, _lines = drawn_badge(status)
        colour = status_look(status).colour(dark=False)
        shapes.append(
            {
                (x, y)
                for y in range(place.height())
                for x in range(place.width())
                if pixels_near(image, QRect(place.left() + x, place.top() + y, 1, 1), colour)
            }
        )
    assert shapes[0] != shapes[1]
