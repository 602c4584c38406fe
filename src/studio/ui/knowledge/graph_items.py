"""The items the knowledge graph is drawn with: nodes, edges, the hidden-neighbours chip and
the gap badge.

Every item is painted by Qt itself (paths, polygons, simple text), so tens of thousands repaint
without a Python call each; the text and arrowheads are hidden, once, when the view zooms out
past the detail threshold. Items only paint and report geometry (STYLE: no business rules)."""

from functools import cache
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainterPath,
    QPainterPathStroker,
    QPen,
)
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsPolygonItem,
    QGraphicsSimpleTextItem,
)

from studio.ui.canvas.items import arrowhead
from studio.ui.canvas.style import CanvasColors
from studio.ui.knowledge.node_look import (
    BOX,
    REMOVED,
    SLOT,
    TEXT_INSET,
    NodeLook,
    edge_look,
    fill_for,
    shape_path,
)

EdgeKey = tuple[str, str, str]
"""(source id, edge type, target id)"""
DETAIL_THRESHOLD = 0.4
"""Below this zoom level nodes are plain shapes without text, and edges have no arrowheads."""
NODE_Z, EDGE_Z, SELECTED_Z = 1.0, 0.0, 2.0
FAR_FILL = 3.5
"""How much stronger a node's colour fills it when zoomed out: a plain coloured box."""


class NodeItem(QGraphicsPathItem):
    """One node: its shape in its type's colour, its label and a small type caption."""

    def __init__(
        self, node_id: str, look: NodeLook, colors: CanvasColors, ghost: bool = False
    ) -> None:
        super().__init__(shape_path(look.shape))
        self.node_id, self.look, self.colors, self.ghost = node_id, look, colors, ghost
        self.edges: list[EdgeItem] = []
        self.selected = False
        self.detail = True
        self.shown: tuple[str, str, int] | None = None
        """The label, caption and hidden count on show (to skip redrawing what is the same)."""
        self.mark: QColor | None = None
        self.chip: HiddenChip | None = None
        self.badge: GapBadge | None = None
        label_font, caption_font, _chip = fonts()
        self.label = _text(self, label_font if look.shape != BOX else caption_font)
        self.caption = _text(self, caption_font) if look.shape != BOX else None
        self.setZValue(NODE_Z)
        self.apply_colors(colors)

    def show_data(self, label: str, caption: str, tooltip: str) -> None:
        """Take the node's label, caption and tooltip, elided to fit the shape."""
        width, height = self.look.size
        room = width - 2 * TEXT_INSET[self.look.shape]
        label_font, caption_font, _chip = fonts()
        shown_label = elided(label, label_font if self.caption else caption_font, room)
        self.label.setText(shown_label)
        label_height = self.label.boundingRect().height()
        caption_height = 0.0
        if self.caption is not None:
            self.caption.setText(elided(caption, caption_font, room))
            caption_height = self.caption.boundingRect().height()
        top = (height - label_height - caption_height) / 2
        self.label.setPos((width - self.label.boundingRect().width()) / 2, top)
        if self.caption is not None:
            caption_left = (width - self.caption.boundingRect().width()) / 2
            self.caption.setPos(caption_left, top + label_height)
        self.setToolTip(tooltip)

    def place_at(self, corner: tuple[float, float]) -> None:
        """Centre the node in the layout's slot whose top-left corner is ``corner``, bringing
        its edges along."""
        width, height = self.look.size
        x, y = corner[0] + (SLOT[0] - width) / 2, corner[1] + (SLOT[1] - height) / 2
        if self.pos().x() != x or self.pos().y() != y:
            self.setPos(x, y)
            for edge in self.edges:
                edge.refresh()

    def center(self) -> QPointF:
        """The node's centre, in scene coordinates."""
        width, height = self.look.size
        return self.pos() + QPointF(width / 2, height / 2)

    def scene_rect(self) -> QRectF:
        """The node's box, in scene coordinates."""
        width, height = self.look.size
        return QRectF(self.pos().x(), self.pos().y(), width, height)

    def apply_colors(self, colors: CanvasColors) -> None:
        """Pens, brushes and text colours for the current theme, selection and mark."""
        self.colors = colors
        self.label.setBrush(QBrush(colors.text))
        if self.caption is not None:
            self.caption.setBrush(QBrush(colors.muted_text))
        if self.ghost:
            self.setPen(QPen(REMOVED, 1.6, Qt.PenStyle.DashLine))
            self.setBrush(Qt.BrushStyle.NoBrush)
            self.setOpacity(0.6)
            return
        self._fill()
        if self.selected:
            self.setPen(QPen(colors.node_selected, 3.5))
        elif self.mark is not None:
            self.setPen(QPen(self.mark, 3.0))
        else:
            self.setPen(QPen(self.look.color, 1.6))

    def _fill(self) -> None:
        if not self.ghost:
            strength = 1.0 if self.detail else FAR_FILL
            self.setBrush(fill_for(self.look, self.colors, strength))

    def set_selected(self, selected: bool) -> None:
        """Draw (or stop drawing) the node as the selected one, above the others."""
        self.selected = selected
        self.setZValue(SELECTED_Z if selected else NODE_Z)
        self.apply_colors(self.colors)

    def set_mark(self, mark: QColor | None) -> None:
        """Outline the node in a compare colour (added, changed), or in its own colour."""
        if mark != self.mark:
            self.mark = mark
            self.apply_colors(self.colors)

    def set_detail(self, detail: bool) -> None:
        """Show the text (close up), or hide it and fill the shape with its colour (far away)."""
        self.detail = detail
        self._fill()
        self.label.setVisible(detail)
        if self.caption is not None:
            self.caption.setVisible(detail)
        if self.chip is not None:
            self.chip.setVisible(detail)

    def set_hidden_count(self, count: int, detail: bool) -> None:
        """Show "+N hidden" below the node when the view leaves neighbours out."""
        if count <= 0:
            if self.chip is not None:
                self.chip.setVisible(False)
                self.chip.count = 0
            return
        if self.chip is None:
            self.chip = HiddenChip(self)
        self.chip.show_count(count, self.colors)
        self.chip.setVisible(detail)

    def set_gap(self, message: str | None) -> None:
        """Carry a warning badge with ``message`` as its tooltip; None removes it."""
        if message is None:
            if self.badge is not None:
                self.badge.setVisible(False)
            return
        if self.badge is None:
            self.badge = GapBadge(self)
        self.badge.setToolTip(message)
        self.badge.setVisible(True)


class HiddenChip(QGraphicsPathItem):
    """The "+N hidden" chip at a node's lower right corner: a click shows those neighbours."""

    def __init__(self, node: NodeItem) -> None:
        super().__init__(node)
        self.node = node
        self.count = 0
        self.text = _text(self, fonts()[2])
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    @property
    def node_id(self) -> str:
        """The id of the node whose neighbours are hidden."""
        return self.node.node_id

    def show_count(self, count: int, colors: CanvasColors) -> None:
        """Say how many neighbours are hidden."""
        self.count = count
        self.text.setText(f"+{count} hidden")
        text = self.text.boundingRect()
        box = QRectF(0, 0, text.width() + 12, text.height() + 4)
        path = QPainterPath()
        path.addRoundedRect(box, box.height() / 2, box.height() / 2)
        self.setPath(path)
        self.text.setPos(6, 2)
        width, height = self.node.look.size
        self.setPos(width - box.width() + 6, height - box.height() / 2 + 2)
        self.setPen(QPen(colors.node_border, 1))
        self.setBrush(QBrush(colors.background))
        self.text.setBrush(QBrush(colors.text))
        noun = "neighbour" if count == 1 else "neighbours"
        self.setToolTip(f"{count} more {noun} hidden: click to show them")


class GapBadge(QGraphicsEllipseItem):
    """A warning badge on a node's upper right corner; the tooltip says what is missing."""

    def __init__(self, node: NodeItem) -> None:
        super().__init__(0, 0, 18, 18, node)
        self.node = node
        width, _height = node.look.size
        self.setPos(width - 11, -7)
        self.setBrush(QBrush(QColor("#e0a000")))
        self.setPen(QPen(QColor("#8a5a00"), 1))
        mark = _text(self, fonts()[0])
        mark.setText("!")
        mark.setBrush(QBrush(QColor("#1a1a1a")))
        mark.setPos((18 - mark.boundingRect().width()) / 2, (18 - mark.boundingRect().height()) / 2)


class EdgeItem(QGraphicsPathItem):
    """A curve from one node to another in its relationship's pen, with an arrowhead."""

    def __init__(self, key: EdgeKey, source: NodeItem, target: NodeItem) -> None:
        super().__init__()
        self.key, self.source, self.target = key, source, target
        self.suspect: str | None = None
        self.arrow = QGraphicsPolygonItem(self)
        self._hover_shape: QPainterPath | None = None
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
        look = edge_look(self.edge_type)
        colour = REMOVED if reason else look.color
        pen = QPen(colour, 2.2 if reason else 1.5, Qt.PenStyle.DashLine if reason else look.dash)
        self.setPen(pen)
        self.arrow.setPen(QPen(colour, 1))
        self.arrow.setBrush(QBrush(colour))
        source, edge_type, target = self.key
        tooltip = f"{edge_type}\n{source} -> {target}"
        self.setToolTip(f"{tooltip}\nsuspect: {reason}" if reason else tooltip)
        self.arrow.setToolTip(self.toolTip())

    def detach(self) -> None:
        """Forget the nodes, before the edge leaves the scene."""
        for node in (self.source, self.target):
            if self in node.edges:
                node.edges.remove(self)

    def refresh(self) -> None:
        """Recompute the curve and its arrowhead after a node moved."""
        start, first, second, end = route(self.source.scene_rect(), self.target.scene_rect())
        path = QPainterPath(start)
        path.cubicTo(first, second, end)
        self.setPath(path)
        self.arrow.setPolygon(arrowhead(end, path.angleAtPercent(1.0), 9.0))
        self._hover_shape = None

    def shape(self) -> QPainterPath:
        if self._hover_shape is None:
            stroker = QPainterPathStroker()
            stroker.setWidth(10)
            self._hover_shape = stroker.createStroke(self.path())
        return self._hover_shape


def route(source: QRectF, target: QRectF) -> tuple[QPointF, QPointF, QPointF, QPointF]:
    """Start, two control points and end of the curve between two boxes.

    Left to right between columns, right to left going back; within a column the curve bows
    out to the right, so it never runs behind the nodes stacked between its ends."""
    if target.left() >= source.right() + 8:
        start, end = _middle_right(source), _middle_left(target)
        pull = QPointF(max(30.0, (end.x() - start.x()) / 2), 0)
        return start, start + pull, end - pull, end
    if target.right() <= source.left() - 8:
        start, end = _middle_left(source), _middle_right(target)
        pull = QPointF(max(30.0, (start.x() - end.x()) / 2), 0)
        return start, start - pull, end + pull, end
    start, end = _middle_right(source), _middle_right(target)
    bow = QPointF(40.0 + abs(end.y() - start.y()) * 0.25, 0)
    return start, start + bow, end + bow, end


def _middle_left(rect: QRectF) -> QPointF:
    return QPointF(rect.left(), rect.center().y())


def _middle_right(rect: QRectF) -> QPointF:
    return QPointF(rect.right(), rect.center().y())


def elided(text: str, font: QFont, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels in ``font``."""
    return _metrics(font.toString()).elidedText(text, Qt.TextElideMode.ElideRight, width)


@cache
def _metrics(font_key: str) -> QFontMetricsF:
    font = QFont()
    font.fromString(font_key)
    return QFontMetricsF(font)


def _text(parent: QGraphicsItem, font: QFont) -> QGraphicsSimpleTextItem:
    item = QGraphicsSimpleTextItem(parent)
    item.setFont(font)
    return item


@cache
def fonts() -> tuple[QFont, QFont, QFont]:
    """The label, caption and chip fonts every node shares (made once: thousands of nodes)."""
    label, caption, chip = QFont(), QFont(), QFont()
    label.setBold(True)
    caption.setPointSizeF(max(6.5, caption.pointSizeF() * 0.85))
    chip.setPointSizeF(max(6.0, chip.pointSizeF() * 0.78))
    return label, caption, chip


def node_caption(node_id: str, attrs: dict[str, Any]) -> str:
    """The small line under a node's label: the artifact's kind, the item's type and key ..."""
    node_type, data = attrs["type"], attrs.get("data") or {}
    key = node_id.rsplit("/", 1)[-1]
    if node_type == "artifact":
        return f"{data.get('kind', 'artifact')} artifact"
    if node_type == "run":
        workflow = data.get("workflow")
        return f"run of {workflow}" if workflow else "run"
    if node_type == "unit":
        return f"unit {key.removeprefix('unit:')}"
    return f"{node_type} {key}"
