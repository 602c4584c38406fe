"""A blueprint drawn full size and read-only: each node a box with its name and agent id, each
edge a curve with its condition written on it. Nothing in it can be moved, chosen or edited."""

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
)

from studio.model import Workflow
from studio.model.layout import laid_out_if_needed
from studio.model.workflow import Edge, Node
from studio.ui.canvas.items import arrowhead, condition_text, curve_between
from studio.ui.canvas.style import NODE_HEIGHT, NODE_WIDTH, canvas_colors
from studio.ui.catalog.graph_preview import CONDITION_COLOUR, outline_of

TEXT_INSET = 12.0
SPREAD = 1.6
"""Columns are drawn this much further apart than on the canvas: room for conditions."""
LABEL_LAYER = 10.0


def blueprint_scene(workflow: Workflow) -> QGraphicsScene:
    """A scene showing ``workflow``'s nodes (name, agent id) and edges (conditions)."""
    scene = QGraphicsScene()
    scene.setBackgroundBrush(canvas_colors().background)
    placed = laid_out_if_needed(workflow)
    outline = outline_of(placed)
    boxes = {node_id: _spread(box) for node_id, box in outline.boxes.items()}
    for edge in placed.edges:
        if edge.source in boxes and edge.target in boxes:
            _add_edge(scene, edge, boxes[edge.source], boxes[edge.target])
    for node in placed.nodes:
        _add_node(scene, node, boxes[node.id], node.id in outline.placeholders)
    scene.setSceneRect(scene.itemsBoundingRect().adjusted(-40, -40, 40, 40))
    return scene


def _spread(box: QRectF) -> QRectF:
    return QRectF(box.left() * SPREAD, box.top(), box.width(), box.height())


def scene_texts(scene: QGraphicsScene) -> list[str]:
    """Every piece of text drawn in a scene, top to bottom."""
    texts = [item for item in scene.items() if isinstance(item, QGraphicsSimpleTextItem)]
    texts.sort(key=lambda item: (item.scenePos().y(), item.scenePos().x()))
    return [item.text() for item in texts]


def _add_node(scene: QGraphicsScene, node: Node, box: QRectF, placeholder: bool) -> None:
    colours = canvas_colors()
    pen = (
        QPen(colours.warning, 2.0, Qt.PenStyle.DashLine)
        if placeholder
        else QPen(colours.node_border, 1.2)
    )
    frame = QGraphicsRectItem(QRectF(0, 0, NODE_WIDTH, NODE_HEIGHT))
    frame.setPos(box.topLeft())
    frame.setPen(pen)
    frame.setBrush(QBrush(colours.node_fill))
    frame.setToolTip(f"{node.label}\n{node.agent_id}")
    scene.addItem(frame)
    room = NODE_WIDTH - 2 * TEXT_INSET
    name = _text(scene, node.label, colours.text, bold=True, width=room)
    name.setParentItem(frame)
    name.setPos(TEXT_INSET, 10)
    agent_colour = colours.warning if placeholder else colours.muted_text
    agent = _text(scene, node.agent_id, agent_colour, width=room)
    agent.setParentItem(frame)
    agent.setPos(TEXT_INSET, 34)


def _add_edge(scene: QGraphicsScene, edge: Edge, start_box: QRectF, end_box: QRectF) -> None:
    colours = canvas_colors()
    start = QPointF(start_box.right(), start_box.center().y())
    end = QPointF(end_box.left(), end_box.center().y())
    path = curve_between(start, end)
    pen = (
        QPen(CONDITION_COLOUR, 2.0, Qt.PenStyle.DashLine)
        if edge.condition is not None
        else QPen(colours.edge, 1.6)
    )
    scene.addItem(_curve(path, pen))
    head = QPainterPath()
    head.addPolygon(arrowhead(end, path.angleAtPercent(1.0)))
    scene.addPath(head, QPen(pen.color(), 1.0), QBrush(pen.color()))
    if edge.condition is not None:
        condition = edge.condition
        words = condition_text(condition.field, condition.operator, condition.value)
        _add_label(scene, words, path.pointAtPercent(0.5))


def _add_label(scene: QGraphicsScene, words: str, middle: QPointF) -> None:
    """A condition written on a pill centred on the middle of its edge, above the nodes."""
    label = _text(scene, words, CONDITION_COLOUR, bold=True)
    text = label.boundingRect()
    pill = QGraphicsRectItem(QRectF(-6, -3, text.width() + 12, text.height() + 6))
    pill.setPen(QPen(CONDITION_COLOUR, 1.0))
    pill.setBrush(QBrush(canvas_colors().background))
    pill.setPos(middle.x() - text.width() / 2, middle.y() - text.height() / 2)
    pill.setZValue(LABEL_LAYER)
    scene.addItem(pill)
    label.setParentItem(pill)
    label.setPos(0, 0)


def _curve(path: QPainterPath, pen: QPen) -> QGraphicsPathItem:
    item = QGraphicsPathItem(path)
    item.setPen(pen)
    return item


def _text(
    scene: QGraphicsScene, words: str, colour: QColor, *, bold: bool = False, width: float = 0
) -> QGraphicsSimpleTextItem:
    """A text item added to ``scene``, elided to ``width`` when one is given."""
    font = QFont(scene.font())
    font.setBold(bold)
    if width:
        words = QFontMetrics(font).elidedText(words, Qt.TextElideMode.ElideRight, int(width))
    item = QGraphicsSimpleTextItem(words)
    item.setFont(font)
    item.setBrush(QBrush(colour))
    scene.addItem(item)
    return item
