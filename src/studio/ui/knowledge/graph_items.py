"""The items the knowledge graph is drawn with: nodes, edges, the hidden-neighbours chip and
the gap badge. Every item is painted by Qt itself (paths, polygons, simple text), so tens of
thousands repaint without a Python call each; text and arrowheads are made only when a node or
an edge is first shown in detail, and hidden, once, when the view zooms out past the detail
threshold. Items only paint and report geometry (STYLE: no business rules)."""

from functools import cache
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainterPath,
    QPen,
)
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsSimpleTextItem,
)

from studio.ui.canvas.style import CanvasColors
from studio.ui.knowledge.node_look import (
    BOX,
    REMOVED,
    SLOT,
    TEXT_INSET,
    NodeLook,
    fill_for,
    shape_path,
)

if TYPE_CHECKING:
    from studio.ui.knowledge.graph_edges import EdgeItem  # an edge knows its nodes, too

EdgeKey = tuple[str, str, str]
"""(source id, edge type, target id)"""
Box = tuple[float, float, float, float]  # left, top, right, bottom in scene coordinates
DETAIL_THRESHOLD = 0.4
"""Below this zoom level nodes are plain shapes without text, and edges have no arrowheads."""
NODE_Z, EDGE_Z, SELECTED_Z = 1.0, 0.0, 2.0
FAR_FILL = 3.5
"""How much stronger a node's colour fills it when zoomed out: a plain coloured box."""


class NodeItem(QGraphicsPathItem):
    """One node: its shape in its type's colour, its label and a small type caption. The text
    items (label, caption, "+N hidden" chip) are made when it is first shown in detail."""

    def __init__(
        self, node_id: str, look: NodeLook, colors: CanvasColors, ghost: bool = False
    ) -> None:
        super().__init__(shape_path(look.shape))
        self.node_id, self.look, self.colors, self.ghost = node_id, look, colors, ghost
        self.edges: list[EdgeItem] = []
        self.selected, self.detail = False, True
        self.source: tuple[object, ...] | None = None
        """What the scene last drew the node from (to skip it at once when it is the same)."""
        self.words = ("", "")
        """The label and caption, drawn once the text items are made."""
        self.hidden_count = 0
        self.mark: QColor | None = None
        self.label: QGraphicsSimpleTextItem | None = None
        self.caption: QGraphicsSimpleTextItem | None = None
        self.chip: HiddenChip | None = None
        self.badge: GapBadge | None = None
        self.box: Box = (0.0, 0.0, *look.size)  # where the node is, as placed
        self.setZValue(NODE_Z)
        self.apply_colors(colors)

    def show_data(self, label: str, caption: str, tooltip: str) -> None:
        """Take the node's label, caption and tooltip, elided to fit the shape."""
        self.words = (label, caption)
        self.setToolTip(tooltip)
        if self.label is not None:
            self._lay_out_text()

    def make_detail(self) -> None:
        """Make the text items (label, caption, chip) if they are not made yet."""
        if self.label is not None:
            return
        label_font, caption_font, _chip = fonts()
        boxed = self.look.shape == BOX
        self.label = _text(self, caption_font if boxed else label_font, self.detail)
        self.caption = None if boxed else _text(self, caption_font, self.detail)
        self._colour_text()
        self._lay_out_text()
        self.set_hidden_count(self.hidden_count, self.detail)

    def _lay_out_text(self) -> None:
        assert self.label is not None
        label, caption = self.words
        width, height = self.look.size
        room = width - 2 * TEXT_INSET[self.look.shape]
        label_font, caption_font, _chip = fonts()
        self.label.setText(elided(label, label_font if self.caption else caption_font, room))
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

    def place_at(self, corner: tuple[float, float]) -> bool:
        """Centre the node in the layout's slot whose top-left corner is ``corner``, bringing
        its edges along; whether it moved."""
        width, height = self.look.size
        x, y = corner[0] + (SLOT[0] - width) / 2, corner[1] + (SLOT[1] - height) / 2
        if self.pos().x() == x and self.pos().y() == y:
            return False
        self.setPos(x, y)
        self.box = (x, y, x + width, y + height)
        for edge in self.edges:
            edge.refresh()
        return True

    def center(self) -> QPointF:
        """The node's centre, in scene coordinates."""
        return self.scene_rect().center()

    def scene_rect(self) -> QRectF:
        """The node's box, in scene coordinates."""
        left, top, right, bottom = self.box
        return QRectF(left, top, right - left, bottom - top)

    def apply_colors(self, colors: CanvasColors) -> None:
        """Pens, brushes and text colours for the current theme, selection and mark."""
        self.colors = colors
        self._colour_text()
        if self.ghost:
            self.setPen(QPen(REMOVED, 1.6, Qt.PenStyle.DashLine))
            self.setBrush(Qt.BrushStyle.NoBrush)
            self.setOpacity(0.6)
            return
        self._fill()
        if self.selected:
            self.setPen(QPen(self.colors.node_selected, 3.5))
        elif self.mark is not None:
            self.setPen(QPen(self.mark, 3.0))
        else:
            self.setPen(_outline(self.look.color.rgba()))

    def _colour_text(self) -> None:
        if self.label is not None:
            self.label.setBrush(QBrush(self.colors.text))
        if self.caption is not None:
            self.caption.setBrush(QBrush(self.colors.muted_text))

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
        if detail == self.detail:
            return
        self.detail = detail
        self._fill()
        for part in (self.label, self.caption, self.chip):
            if part is not None:
                part.setVisible(detail and (part is not self.chip or self.hidden_count > 0))

    def set_hidden_count(self, count: int, detail: bool) -> None:
        """Show "+N hidden" below the node when the view leaves neighbours out."""
        self.hidden_count = max(count, 0)
        if count <= 0:
            if self.chip is not None:
                self.chip.setVisible(False)
                self.chip.count = 0
            return
        if self.label is None:
            return  # the chip comes with the text
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


@cache
def _outline(colour: int) -> QPen:
    """A node's own outline, one pen per colour shared by thousands of nodes."""
    return QPen(QColor.fromRgba(colour), 1.6)


class HiddenChip(QGraphicsPathItem):
    """The "+N hidden" chip at a node's lower right corner: a click shows those neighbours."""

    def __init__(self, node: NodeItem) -> None:
        super().__init__(node)
        self._node_id, self._node_size = node.node_id, node.look.size  # no reference back:
        self.count = 0  # a cycle would keep a removed node alive until a full collection
        self.text = _text(self, fonts()[2])
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    @property
    def node_id(self) -> str:
        """The id of the node whose neighbours are hidden."""
        return self._node_id

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
        width, height = self._node_size
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
        width, _height = node.look.size
        self.setPos(width - 11, -7)
        self.setBrush(QBrush(QColor("#e0a000")))
        self.setPen(QPen(QColor("#8a5a00"), 1))
        mark = _text(self, fonts()[0])
        mark.setText("!")
        mark.setBrush(QBrush(QColor("#1a1a1a")))
        mark.setPos((18 - mark.boundingRect().width()) / 2, (18 - mark.boundingRect().height()) / 2)


def elided(text: str, font: QFont, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels in ``font``."""
    return _metrics(font.toString()).elidedText(text, Qt.TextElideMode.ElideRight, width)


@cache
def _metrics(font_key: str) -> QFontMetricsF:
    font = QFont()
    font.fromString(font_key)
    return QFontMetricsF(font)


def _text(parent: QGraphicsItem, font: QFont, visible: bool = True) -> QGraphicsSimpleTextItem:
    item = QGraphicsSimpleTextItem(parent)
    item.setFont(font)
    item.setVisible(visible)
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
