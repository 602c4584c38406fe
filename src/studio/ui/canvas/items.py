"""The items a workflow is drawn with: nodes with their ports, and curved edges.

Items only paint and report geometry; what a gesture means is decided by the view and the
editor (STYLE: item classes hold no business rules)."""

import math
from functools import cache
from typing import Protocol

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QFont,
    QFontMetrics,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsPolygonItem,
    QGraphicsRectItem,
    QGraphicsSimpleTextItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from studio.model import Edge, Node
from studio.ui.canvas.style import (
    KIND_GLYPHS,
    NODE_HEIGHT,
    NODE_WIDTH,
    PORT_RADIUS,
    CanvasColors,
)

INPUT, OUTPUT = "in", "out"
DETAIL_THRESHOLD = 0.45
"""Below this zoom level nodes are drawn as plain boxes: text would be unreadable anyway."""
MARK_THRESHOLD = 0.2
"""Below this zoom level ports and arrowheads are not drawn: they would be two pixels wide."""
NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
SELECTABLE = QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
MOVABLE = QGraphicsItem.GraphicsItemFlag.ItemIsMovable
STACKS_BEHIND = QGraphicsItem.GraphicsItemFlag.ItemStacksBehindParent
NO_BUTTON = Qt.MouseButton.NoButton
NO_PEN = Qt.PenStyle.NoPen
CROSS_CURSOR = Qt.CursorShape.CrossCursor
"""Qt values looked up once: looking up an enum member is a Python call, for thousands of items."""
FAR_BOX = QRectF(0, 0, NODE_WIDTH, NODE_HEIGHT)
"""A node's box, in its own coordinates."""


class StandIn(Protocol):
    """What edges of a hidden node are drawn to instead (a collapsed group's box)."""

    def output_point(self) -> QPointF: ...

    def input_point(self) -> QPointF: ...


class PortItem(QGraphicsEllipseItem):
    """An input (left) or output (right) connection point of a node."""

    def __init__(self, node_item: "NodeItem", direction: str, colors: CanvasColors) -> None:
        super().__init__(-PORT_RADIUS, -PORT_RADIUS, 2 * PORT_RADIUS, 2 * PORT_RADIUS, node_item)
        self.node_item, self.direction = node_item, direction
        x = 0.0 if direction == INPUT else NODE_WIDTH
        self.setPos(x, NODE_HEIGHT / 2)
        self.setBrush(colors.port_brush)
        self.setPen(colors.port_pen)
        self.setCursor(CROSS_CURSOR)
        self.setToolTip("drag to an input port to connect" if direction == OUTPUT else "input")

    @property
    def node_id(self) -> str:
        """The id of the node this port belongs to."""
        return self.node_item.node_id


class NodeItem(QGraphicsRectItem):
    """One node: its name, agent, kind and ports.

    Near, the node paints itself (rounded box, glyph, texts). Far away it paints nothing and
    its ``far_box``, a plain rectangle Qt draws without calling Python, shows instead: a
    Python paint for each of thousands of nodes would cost more than all the rest of a
    frame. The scene switches the two with ``show_detail`` as the zoom level crosses
    ``DETAIL_THRESHOLD``."""

    def __init__(self, node: Node, kind: str | None, colors: CanvasColors) -> None:
        # A rectangle item without a pen: Qt answers its bounding rect and shape itself.
        super().__init__(QRectF(-1, -1, NODE_WIDTH + 2, NODE_HEIGHT + 2))
        self.setPen(NO_PEN)
        self.far_box: QGraphicsRectItem | None = None
        """The plain box shown instead of the detailed node when far away (made when first
        needed)."""
        self.node_id = node.id
        self.colors = colors
        self.edges: list[EdgeItem] = []
        self.stand_in: StandIn | None = None
        """While the node is hidden in a collapsed group, what its edges are drawn to."""
        self._title_font, self._small_font = _fonts()
        # No itemChange hook: a Python call for every change of thousands of nodes is slow.
        # Whoever moves a node refreshes its edges (the view while dragging, the scene after
        # a command).
        self.setFlags(MOVABLE | SELECTABLE)
        self.input_port = PortItem(self, INPUT, colors)
        self.output_port = PortItem(self, OUTPUT, colors)
        self.update_from(node, kind)

    def update_from(self, node: Node, kind: str | None) -> None:
        """Take the node's current name, agent and position."""
        self.title, self.agent_id, self.kind = node.label, node.agent_id, kind
        self.setToolTip(
            f"{node.label}\nagent: {node.agent_id}" + ("" if kind else "\nunknown agent")
        )
        self.move_to(node.position.x, node.position.y)
        self._style_far_box()  # the outline follows whether the agent is known
        self.update()

    def border(self) -> QPen:
        """The outline for the node's selection and whether its agent is known (shared by
        every node: do not change it)."""
        if self.isSelected():
            return self.colors.node_pens["selected"]
        return self.colors.node_pens["known" if self.kind else "unknown"]

    def apply_look(self) -> None:
        """Bring the far box and the ports to the current colours and selection."""
        for port in (self.input_port, self.output_port):
            port.setBrush(self.colors.port_brush)
            port.setPen(self.colors.port_pen)
        self._style_far_box()

    def _style_far_box(self) -> None:
        if self.far_box is not None:
            self.far_box.setPen(self.border())
            self.far_box.setBrush(self.colors.node_brush)

    def show_detail(self, detail: bool) -> None:
        """Paint the detailed node (near) or let the plain far box stand for it (far)."""
        if self.far_box is None:
            if detail:
                return
            self.far_box = QGraphicsRectItem(FAR_BOX, self)
            self.far_box.setFlag(STACKS_BEHIND)
            self.far_box.setAcceptedMouseButtons(NO_BUTTON)
            self._style_far_box()
        self.setFlag(NO_CONTENTS, not detail)
        self.far_box.setVisible(not detail)

    def show_ports(self, shown: bool) -> None:
        """Draw the ports or not (they still take clicks)."""
        self.input_port.setFlag(NO_CONTENTS, not shown)
        self.output_port.setFlag(NO_CONTENTS, not shown)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setPen(self.border())
        painter.setBrush(self.colors.node_brush)
        if option.levelOfDetailFromTransform(painter.worldTransform()) < DETAIL_THRESHOLD:
            painter.drawRect(FAR_BOX)  # far away: a plain box
            return
        painter.drawRoundedRect(FAR_BOX, 8, 8)
        self._paint_glyph(painter)
        self._paint_text(painter)

    def _paint_glyph(self, painter: QPainter) -> None:
        glyph = KIND_GLYPHS.get(self.kind or "", "?")
        circle = QRectF(12, NODE_HEIGHT / 2 - 16, 32, 32)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(self.colors.port if self.kind else self.colors.warning))
        painter.drawEllipse(circle)
        painter.setPen(QPen(Qt.GlobalColor.white))
        painter.setFont(self._small_font)
        painter.drawText(circle, Qt.AlignmentFlag.AlignCenter, glyph)

    def _paint_text(self, painter: QPainter) -> None:
        left, width = 54.0, NODE_WIDTH - 64.0
        painter.setPen(QPen(self.colors.text))
        painter.setFont(self._title_font)
        title = QFontMetrics(self._title_font).elidedText(
            self.title, Qt.TextElideMode.ElideRight, int(width)
        )
        painter.drawText(QRectF(left, 12, width, 20), Qt.AlignmentFlag.AlignVCenter, title)
        painter.setPen(QPen(self.colors.muted_text if self.kind else self.colors.warning))
        painter.setFont(self._small_font)
        subtitle = self.agent_id if self.kind else f"⚠ {self.agent_id}"
        subtitle = QFontMetrics(self._small_font).elidedText(
            subtitle, Qt.TextElideMode.ElideRight, int(width)
        )
        painter.drawText(QRectF(left, 34, width, 18), Qt.AlignmentFlag.AlignVCenter, subtitle)

    def move_to(self, x: float, y: float) -> None:
        """Move the node and bring its edges along."""
        self.setPos(x, y)
        self.refresh_edges()

    def refresh_edges(self) -> None:
        """Redraw the curves attached to this node (after it moved)."""
        for edge in self.edges:
            edge.refresh()

    def output_point(self) -> QPointF:
        """Where outgoing edges start, in scene coordinates."""
        if self.stand_in is not None:
            return self.stand_in.output_point()
        return self.mapToScene(QPointF(NODE_WIDTH, NODE_HEIGHT / 2))

    def input_point(self) -> QPointF:
        """Where incoming edges end, in scene coordinates."""
        if self.stand_in is not None:
            return self.stand_in.input_point()
        return self.mapToScene(QPointF(0, NODE_HEIGHT / 2))


class ConditionLabel(QGraphicsRectItem):
    """The boxed text of an edge's condition, drawn at the middle of the curve."""

    def __init__(self, edge: "EdgeItem") -> None:
        super().__init__(edge)
        self.text = QGraphicsSimpleTextItem(self)


class EdgeItem(QGraphicsPathItem):
    """A curve from one node's output to another's input, with its condition as a label.

    Everything here is painted by Qt itself (path, arrowhead and label are plain items), so
    thousands of edges repaint without a Python call each."""

    def __init__(
        self, edge: Edge, source: NodeItem, target: NodeItem, colors: CanvasColors
    ) -> None:
        super().__init__()
        self.edge_id, self.source, self.target, self.colors = edge.id, source, target, colors
        self.label = ""
        # No itemChange hook either (it would be a Python call for every change of every
        # edge): the scene recolours edges when the selection changes.
        self.setFlag(SELECTABLE)
        self.setZValue(-1)
        # The arrowhead's triangle is the same for every curve (they all end level); the
        # item is placed at the curve's end.
        self.arrow = QGraphicsPolygonItem(ARROWHEAD, self)
        # The label's items are made only for an edge with a condition (most have none).
        self.label_box: ConditionLabel | None = None
        source.edges.append(self)
        target.edges.append(self)
        self.apply_colors()
        self.update_from(edge)

    def apply_colors(self) -> None:
        """Pens and brushes for the current colours and selection."""
        selected = self.isSelected()
        self.setPen(self.colors.edge_pens[selected])
        self.arrow.setPen(self.colors.arrow_pens[selected])
        self.arrow.setBrush(self.colors.arrow_brushes[selected])
        if self.label_box is not None:
            self.label_box.setPen(QPen(self.colors.edge, 1))
            self.label_box.setBrush(QBrush(self.colors.background))
            self.label_box.text.setBrush(QBrush(self.colors.text))

    def update_from(self, edge: Edge) -> None:
        """Take the edge's current condition."""
        condition = edge.condition
        self.label = (
            ""
            if condition is None
            else condition_text(condition.field, condition.operator, condition.value)
        )
        self.setToolTip(self.label or "always")
        if self.label and self.label_box is None:
            self.label_box = ConditionLabel(self)
            self.apply_colors()
        if self.label_box is not None:
            self.label_box.text.setText(self.label)
            self.label_box.setVisible(bool(self.label))
        self.refresh()

    def detach(self) -> None:
        """Forget the nodes, before the edge leaves the scene."""
        for node in (self.source, self.target):
            if self in node.edges:
                node.edges.remove(self)

    def refresh(self) -> None:
        """Recompute the curve, its arrowhead and its label's place after a node moved."""
        # The curve ends just before the input port, so the arrowhead is not hidden under it.
        end = self.target.input_point() - QPointF(PORT_RADIUS + 1, 0)
        path = curve_between(self.source.output_point(), end)
        self.setPath(path)
        self.arrow.setPos(end)
        if self.label and self.label_box is not None:
            text = self.label_box.text.boundingRect()
            middle = path.pointAtPercent(0.5)
            box = QRectF(0, 0, text.width() + 12, text.height() + 6)
            self.label_box.setRect(box)
            self.label_box.setPos(middle.x() - box.width() / 2, middle.y() - box.height() / 2)
            self.label_box.text.setPos(6, 3)

    def show_arrow(self, shown: bool) -> None:
        """Draw the arrowhead or not."""
        self.arrow.setFlag(NO_CONTENTS, not shown)

    def shape(self) -> QPainterPath:
        stroker = QPainterPathStroker()
        stroker.setWidth(10)
        return stroker.createStroke(self.path())


CURVE_END_ANGLE = 0.0
"""The direction every curve ends in (degrees): its last control point is level with its end,
so it always arrives horizontally, pointing right."""


def curve_between(start: QPointF, end: QPointF) -> QPainterPath:
    """A horizontal S-curve from an output port to an input port (it ends level, see
    ``CURVE_END_ANGLE``)."""
    start_x, start_y, end_x, end_y = start.x(), start.y(), end.x(), end.y()
    pull = max(60.0, abs(end_x - start_x) / 2)
    path = QPainterPath(start)
    path.cubicTo(start_x + pull, start_y, end_x - pull, end_y, end_x, end_y)
    return path


def arrowhead(tip: QPointF, angle_degrees: float, size: float = 10.0) -> QPolygonF:
    """A small triangle pointing along the curve's end direction."""
    angle = math.radians(angle_degrees)
    back = QPointF(math.cos(angle), -math.sin(angle))
    side = QPointF(-back.y(), back.x())
    base = tip - back * size
    return QPolygonF([tip, base + side * (size / 2), base - side * (size / 2)])


ARROWHEAD = arrowhead(QPointF(0, 0), CURVE_END_ANGLE)
"""The arrowhead every canvas curve ends in, its tip at (0, 0)."""


def condition_text(field: str, operator: str, value: object) -> str:
    """A short human reading of a condition, e.g. ``status = "approved"``."""
    symbols = {
        "equals": "=",
        "notEquals": "≠",
        "greaterThan": ">",
        "lessThan": "<",
        "contains": "contains",
    }
    if operator == "exists":
        return f"{field} exists" if value is not False else f"{field} missing"
    shown = (
        f'"{value}"'
        if isinstance(value, str)
        else str(value).lower()
        if isinstance(value, bool)
        else str(value)
    )
    return f"{field} {symbols.get(operator, operator)} {shown}"


@cache
def _fonts() -> tuple[QFont, QFont]:
    """The title and detail fonts every node shares (made once: thousands of nodes)."""
    title, small = QFont(), QFont()
    title.setBold(True)
    small.setPointSizeF(max(6.0, small.pointSizeF() * 0.85))
    return title, small
