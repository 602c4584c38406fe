"""An edge of the knowledge graph: a curve from one node to another in its relationship's
pen, routed between their boxes, with an arrowhead made only when it is first seen close up,
and a wide hover shape so a thin curve is easy to point at."""

from functools import cache

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPainterPathStroker, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsPolygonItem

from studio.ui.canvas.items import arrowhead
from studio.ui.knowledge.graph_items import EDGE_Z, Box, EdgeKey, NodeItem
from studio.ui.knowledge.node_look import REMOVED, edge_look


class EdgeItem(QGraphicsPathItem):
    """A curve from one node to another in its relationship's pen, with an arrowhead."""

    def __init__(self, key: EdgeKey, source: NodeItem, target: NodeItem) -> None:
        super().__init__()
        self.key, self.source, self.target = key, source, target
        self.suspect: str | None = None
        self.arrow: QGraphicsPolygonItem | None = None  # made when first shown in detail
        self._hover_shape: QPainterPath | None = None
        if EDGE_Z:  # a call per edge saved while edges sit at the default depth
            self.setZValue(EDGE_Z)
        source.edges.append(self)
        target.edges.append(self)
        self.set_suspect(None)

    @property
    def edge_type(self) -> str:
        """The relationship, e.g. DERIVED_FROM."""
        return self.key[1]

    def set_suspect(self, reason: str | None) -> None:
        """Draw the edge dashed in the warning colour with ``reason`` as its tooltip, or plain."""
        self.suspect = reason
        self._colour: QColor
        pen, self._colour = _edge_pen(self.edge_type, bool(reason))
        self.setPen(pen)
        source, edge_type, target = self.key
        tooltip = f"{edge_type}\n{source} -> {target}"
        self.setToolTip(f"{tooltip}\nsuspect: {reason}" if reason else tooltip)
        if self.arrow is not None:
            self._colour_arrow(self.arrow)

    def make_detail(self) -> None:
        """Make the arrowhead if it is not made yet."""
        if self.arrow is None:
            self.arrow = QGraphicsPolygonItem(self)
            self._colour_arrow(self.arrow)
            self._point_arrow(self.arrow)

    def _colour_arrow(self, arrow: QGraphicsPolygonItem) -> None:
        arrow.setPen(QPen(self._colour, 1))
        arrow.setBrush(QBrush(self._colour))
        arrow.setToolTip(self.toolTip())

    def _point_arrow(self, arrow: QGraphicsPolygonItem) -> None:
        path = self.path()
        arrow.setPolygon(arrowhead(path.currentPosition(), path.angleAtPercent(1.0), 9.0))

    def detach(self) -> None:
        """Forget the nodes, before the edge leaves the scene."""
        for node in (self.source, self.target):
            if self in node.edges:
                node.edges.remove(self)

    def refresh(self) -> None:
        """Recompute the curve and its arrowhead after a node moved."""
        start, first, second, end = route(self.source.box, self.target.box)
        path = QPainterPath(start)
        path.cubicTo(first, second, end)
        self.setPath(path)
        if self.arrow is not None:
            self._point_arrow(self.arrow)
        self._hover_shape = None

    def shape(self) -> QPainterPath:
        if self._hover_shape is None:
            stroker = QPainterPathStroker()
            stroker.setWidth(10)
            self._hover_shape = stroker.createStroke(self.path())
        return self._hover_shape


@cache
def _edge_pen(edge_type: str, suspect: bool) -> tuple[QPen, QColor]:
    """The pen of a relationship's edges, plain or suspect, and its colour (made once a type:
    thousands of edges share them)."""
    look = edge_look(edge_type)
    colour = REMOVED if suspect else look.color
    pen = QPen(colour, 2.2 if suspect else 1.5, Qt.PenStyle.DashLine if suspect else look.dash)
    return pen, colour


def route(source: Box, target: Box) -> tuple[QPointF, QPointF, QPointF, QPointF]:
    """Start, two control points and end of the curve between two boxes.

    Left to right between columns, right to left going back; within a column the curve bows
    out to the right, so it never runs behind the nodes stacked between its ends."""
    source_middle, target_middle = (source[1] + source[3]) / 2, (target[1] + target[3]) / 2
    if target[0] >= source[2] + 8:
        start, end = QPointF(source[2], source_middle), QPointF(target[0], target_middle)
        pull = QPointF(max(30.0, (end.x() - start.x()) / 2), 0)
        return start, start + pull, end - pull, end
    if target[2] <= source[0] - 8:
        start, end = QPointF(source[0], source_middle), QPointF(target[2], target_middle)
        pull = QPointF(max(30.0, (start.x() - end.x()) / 2), 0)
        return start, start - pull, end + pull, end
    start, end = QPointF(source[2], source_middle), QPointF(target[2], target_middle)
    bow = QPointF(40.0 + abs(end.y() - start.y()) * 0.25, 0)
    return start, start + bow, end + bow, end
