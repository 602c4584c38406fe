"""A node's run status on the canvas: a coloured outline and labelled pills under the node.

The badge says what the node is doing in an icon, words and a colour (never by colour alone);
seen from far away it draws the status as a shape instead of text."""

from datetime import datetime
from typing import NamedTuple

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from studio.model.execution import (
    COMPLETED,
    FAILED,
    PENDING,
    RETRYING,
    RUNNING,
    SKIPPED,
    WAITING,
)
from studio.model.run_view import NodeView
from studio.model.run_words import UPSTREAM_FAILED, duration_words, shown_status
from studio.ui.canvas.items import DETAIL_THRESHOLD, NodeItem
from studio.ui.canvas.style import NODE_HEIGHT, NODE_WIDTH
from studio.ui.icons import icon
from studio.ui.run.status_look import decision_look, node_look, status_look

PILL_HEIGHT = 20.0
PILL_GAP = 4.0
PILL_ICON = 14
ANIMATED = (RUNNING, RETRYING)
"""Statuses whose badge moves while shown live: a spinner, a retry countdown."""
FAR_MARKS: dict[str, tuple[tuple[float, float], ...]] = {
    COMPLETED: ((0.38, 0.5), (0.48, 0.75), (0.64, 0.25)),
    FAILED: ((0.4, 0.2), (0.6, 0.8), (0.5, 0.5), (0.6, 0.2), (0.4, 0.8)),
    WAITING: ((0.45, 0.2), (0.45, 0.8), (0.45, 0.5), (0.55, 0.5), (0.55, 0.2), (0.55, 0.8)),
}
"""Shapes drawn on a node seen from far away, so status is never told by colour alone."""
NOT_RUN = (SKIPPED, UPSTREAM_FAILED)
"""Nodes the run passed by: drawn faded, their outline dashed."""
DIMMED = 0.45
FAILED_Z = 1.0
"""A failed node is drawn above its neighbours, its outline thicker: the eye finds it first."""


class PillLine(NamedTuple):
    """One pill under a node: its words, its colour and the icon before the words."""

    text: str
    colour: QColor
    icon: str


class NodeBadge(QGraphicsItem):
    """A node's status while a run is shown: a coloured outline and a labelled pill below."""

    def __init__(self, node_item: NodeItem, dark: bool) -> None:
        super().__init__(node_item)
        self.node_item = node_item
        self.dark = dark
        self.view = NodeView()
        self.lines: list[PillLine] = []
        self.outline = QColor()
        self.spin = 0
        self.heat: QColor | None = None
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(2)
        # Kept as a picture: a canvas repainted for other reasons (another node's badge, an
        # edge lighting up) draws it again without calling paint.
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def show_node(self, view: NodeView, now: datetime) -> None:
        """Draw this view of the node (with times relative to ``now``)."""
        self.view = view
        lines = badge_lines(view, now, self.dark)
        if max(1, len(lines)) != max(1, len(self.lines)):  # its height: one pill a line
            self.prepareGeometryChange()
        self.lines = lines
        shown = shown_status(view.status, view.error)
        self.outline = status_look(shown).colour(self.dark)
        self.node_item.setOpacity(DIMMED if shown in NOT_RUN else 1.0)
        self.node_item.setZValue(FAILED_Z if shown == FAILED else 0.0)
        self.node_item.setToolTip(node_tooltip(self.node_item, view))
        self.update()

    def tick(self, now: datetime) -> None:
        """Advance the running spinner and the retry countdown."""
        self.spin = (self.spin + 30) % 360
        if self.view.status == RETRYING:
            self.lines = badge_lines(self.view, now, self.dark)
        self.update()

    def remove(self) -> None:
        """Take the badge off the canvas and give its node its own look back."""
        node = self.node_item
        if node.scene() is not None:
            node.setOpacity(1.0)
            node.setZValue(0.0)
            node.setToolTip(node.title + f"\nagent: {node.agent_id}")
        scene = self.scene()
        if scene is not None:
            scene.removeItem(self)

    def boundingRect(self) -> QRectF:
        height = NODE_HEIGHT + PILL_GAP + PILL_HEIGHT * max(1, len(self.lines)) + 4
        return QRectF(-5, -5, NODE_WIDTH + 10, height + 5)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if option.levelOfDetailFromTransform(painter.worldTransform()) < DETAIL_THRESHOLD:
            self._paint_far(painter)  # far away: the status as a shape, no text to read
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self.heat is not None:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(self.heat))
            painter.drawRoundedRect(QRectF(0, 0, NODE_WIDTH, NODE_HEIGHT), 8, 8)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        shown = shown_status(self.view.status, self.view.error)
        dash = Qt.PenStyle.DashLine if shown in (PENDING, *NOT_RUN) else Qt.PenStyle.SolidLine
        painter.setPen(QPen(self.outline, 5 if shown == FAILED else 3, dash))
        painter.drawRoundedRect(QRectF(-3, -3, NODE_WIDTH + 6, NODE_HEIGHT + 6), 10, 10)
        top = NODE_HEIGHT + PILL_GAP
        for index, line in enumerate(self.lines):
            self._paint_pill(painter, QRectF(0, top + index * PILL_HEIGHT, NODE_WIDTH, 18), line)
        if self.view.status == RUNNING:
            self._paint_spinner(painter, QRectF(NODE_WIDTH - 22, 6, 14, 14))

    def _paint_far(self, painter: QPainter) -> None:
        if self.view.status == PENDING and self.heat is None:
            return  # the node's own plain box already says "nothing yet"
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        box = QRectF(0, 0, NODE_WIDTH, NODE_HEIGHT)
        fill = QColor(self.heat or self.outline)
        fill.setAlpha(110 if self.heat is not None else 60)
        painter.fillRect(box, fill)
        painter.setPen(QPen(self.outline, 6))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(box)
        mark = FAR_MARKS.get(shown_status(self.view.status, self.view.error))
        if mark is not None:
            painter.drawPolyline(
                QPolygonF([QPointF(x * NODE_WIDTH, y * NODE_HEIGHT) for x, y in mark])
            )

    def _paint_pill(self, painter: QPainter, rect: QRectF, line: PillLine) -> None:
        path = QPainterPath()
        path.addRoundedRect(rect, 9, 9)
        fill = QColor(line.colour)
        fill.setAlpha(40)
        painter.fillPath(path, QBrush(fill))
        painter.setPen(QPen(line.colour, 1))
        painter.drawPath(path)
        words = rect.adjusted(8, 0, -8, 0)
        if line.icon:
            place = pill_icon_rect(rect)
            icon(line.icon, line.colour).paint(painter, place.toRect())
            words.setLeft(place.right() + 4)
        painter.drawText(
            words,
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            painter.fontMetrics().elidedText(
                line.text, Qt.TextElideMode.ElideRight, int(words.width())
            ),
        )

    def _paint_spinner(self, painter: QPainter, rect: QRectF) -> None:
        painter.setPen(QPen(self.outline, 2.5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.drawArc(rect, -self.spin * 16, 270 * 16)


def pill_icon_rect(pill: QRectF) -> QRectF:
    """Where a pill's icon is drawn: at its left end, centred in its height."""
    top = pill.top() + (pill.height() - PILL_ICON) / 2
    return QRectF(pill.left() + 6, top, PILL_ICON, PILL_ICON)


def badge_lines(view: NodeView, now: datetime, dark: bool) -> list[PillLine]:
    """The pills under a node: its status with a detail, then decision and rollback."""
    look = node_look(view.status, view.error)
    text = look.text
    if look.status == UPSTREAM_FAILED:
        pass  # its words say it all; the failed node before it has the error
    elif view.status == RETRYING:
        text = view.retry_text(now)
    elif view.status == RUNNING and view.attempt > 1:
        text = f"{look.text} · attempt {view.attempt}"
    elif view.status == COMPLETED:
        took = "" if view.duration is None else f" · {duration_words(view.duration)}"
        text = f"{look.text}{took}" + (" · reused" if view.reused else "")
    elif view.status == FAILED and view.error:
        text = f"{look.text}: {view.error.get('message') or view.error.get('type', 'error')}"
    lines = [PillLine(text, look.colour(dark), look.icon)]
    if view.decision:
        decided = decision_look(view.decision)
        who = f" by {view.decided_by}" if view.decided_by else ""
        lines.append(PillLine(f"{decided.text}{who}", decided.colour(dark), decided.icon))
    elif view.status == WAITING:
        lines.append(PillLine("Decide in Approvals (Ctrl+Shift+A)", look.colour(dark), ""))
    if view.compensation:
        rolled = status_look(view.compensation)
        lines.append(PillLine(rolled.text, rolled.colour(dark), rolled.icon))
    return lines


def node_tooltip(item: NodeItem, view: NodeView) -> str:
    """The node's tooltip while a run is shown: name, agent, status and what went wrong."""
    look = node_look(view.status, view.error)
    lines = [item.title, f"agent: {item.agent_id}", look.text]
    if look.status == UPSTREAM_FAILED and view.error:
        lines.append(str(view.error.get("message", "")))
    elif view.error:
        lines.append(f"{view.error.get('type', 'Error')}: {view.error.get('message', '')}")
    if view.comment:
        lines.append(f"comment: {view.comment}")
    if view.compensation_error:
        lines.append(f"rollback: {view.compensation_error.get('message', '')}")
    return "\n".join(lines)
