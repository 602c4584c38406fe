"""The execution overlay: each node's run status drawn on the canvas, live or replayed.

A badge under every node says what the node is doing in a glyph, words and a colour (never by
colour alone); edges that carried data are highlighted with how many items went through and
a preview on hover. The overlay holds a RunView and draws it; the live path applies one event
at a time and repaints only the node that changed and its edges."""

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QPointF, QRectF, Qt, QTimer, QVariantAnimation
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from studio.model.execution import (
    CANCELLED,
    COMPLETED,
    FAILED,
    PENDING,
    RETRYING,
    RUNNING,
    SKIPPED,
    WAITING,
    ExecutionEvent,
)
from studio.model.run_view import NodeView, RunView
from studio.ui.canvas.items import DETAIL_THRESHOLD, EdgeItem, NodeItem
from studio.ui.canvas.scene import WorkflowScene
from studio.ui.canvas.style import NODE_HEIGHT, NODE_WIDTH
from studio.ui.run.edge_flow import EdgeFlow
from studio.ui.run.status_look import decision_look, status_look
from studio.ui.run.time_text import step_seconds_text

REDRAWN_ON = frozenset({"node_added", "edge_added", "reset"})
"""Document changes after which the run is drawn again on what came back."""
FADE_AFTER_MS = 10_000
FADE_DURATION_MS = 800
TICK_MS = 100
PILL_HEIGHT = 20.0
PILL_GAP = 4.0
ANIMATED = (RUNNING, RETRYING)
FAR_MARKS = {
    COMPLETED: ((0.38, 0.5), (0.48, 0.75), (0.64, 0.25)),
    FAILED: ((0.4, 0.2), (0.6, 0.8), (0.5, 0.5), (0.6, 0.2), (0.4, 0.8)),
    WAITING: ((0.45, 0.2), (0.45, 0.8), (0.45, 0.5), (0.55, 0.5), (0.55, 0.2), (0.55, 0.8)),
}
"""Shapes drawn on a node seen from far away, so status is never told by colour alone."""
SETTLED = (COMPLETED, FAILED, SKIPPED, CANCELLED)


class NodeBadge(QGraphicsItem):
    """A node's status while a run is shown: a coloured outline and a labelled pill below."""

    def __init__(self, node_item: NodeItem, dark: bool) -> None:
        super().__init__(node_item)
        self.dark = dark
        self.view = NodeView()
        self.lines: list[tuple[str, QColor]] = []
        self.outline = QColor()
        self.spin = 0
        self.heat: QColor | None = None
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(2)

    def show(self, view: NodeView, now: datetime) -> None:
        """Draw this view of the node (with times relative to ``now``)."""
        self.view = view
        self.prepareGeometryChange()
        self.lines = _badge_lines(view, now, self.dark)
        self.outline = status_look(view.status).colour(self.dark)
        parent = self.parentItem()
        parent.setOpacity(0.45 if view.status == SKIPPED else 1.0)
        parent.setToolTip(_node_tooltip(parent, view))
        self.update()

    def tick(self, now: datetime) -> None:
        """Advance the running spinner and the retry countdown."""
        self.spin = (self.spin + 30) % 360
        if self.view.status == RETRYING:
            self.lines = _badge_lines(self.view, now, self.dark)
        self.update()

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
        dash = (
            Qt.PenStyle.DashLine
            if self.view.status in (PENDING, SKIPPED)
            else Qt.PenStyle.SolidLine
        )
        painter.setPen(QPen(self.outline, 3, dash))
        painter.drawRoundedRect(QRectF(-3, -3, NODE_WIDTH + 6, NODE_HEIGHT + 6), 10, 10)
        top = NODE_HEIGHT + PILL_GAP
        for index, (text, colour) in enumerate(self.lines):
            self._paint_pill(
                painter, QRectF(0, top + index * PILL_HEIGHT, NODE_WIDTH, 18), text, colour
            )
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
        mark = FAR_MARKS.get(self.view.status)
        if mark is not None:
            painter.drawPolyline(
                QPolygonF([QPointF(x * NODE_WIDTH, y * NODE_HEIGHT) for x, y in mark])
            )

    def _paint_pill(self, painter: QPainter, rect: QRectF, text: str, colour: QColor) -> None:
        path = QPainterPath()
        path.addRoundedRect(rect, 9, 9)
        fill = QColor(colour)
        fill.setAlpha(40)
        painter.fillPath(path, QBrush(fill))
        painter.setPen(QPen(colour, 1))
        painter.drawPath(path)
        painter.drawText(
            rect.adjusted(8, 0, -8, 0),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            painter.fontMetrics().elidedText(
                text, Qt.TextElideMode.ElideRight, int(rect.width() - 16)
            ),
        )

    def _paint_spinner(self, painter: QPainter, rect: QRectF) -> None:
        painter.setPen(QPen(self.outline, 2.5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.drawArc(rect, -self.spin * 16, 270 * 16)


class RunOverlay(QObject):
    """Draws one execution's RunView on a workflow's canvas."""

    def __init__(
        self, scene: WorkflowScene, preview: Callable[[str, str], Any] | None = None, parent=None
    ) -> None:
        super().__init__(parent)
        self.scene = scene
        self.preview = preview  # (execution id, node id) → that node's output
        self.view: RunView | None = None
        self.badges: dict[str, NodeBadge] = {}
        self.flows: dict[str, EdgeFlow] = {}
        self.ticker = QTimer(self, interval=TICK_MS)
        self.ticker.timeout.connect(self._tick)
        self.fade_timer = QTimer(self, singleShot=True)
        self.fade_timer.timeout.connect(self._fade)
        self.fading: QVariantAnimation | None = None
        self.frozen_now: datetime | None = None  # a replay shows times as of its moment
        # After the scene has redrawn a node or edge (an undo, a paste, a reload) draw the run
        # on it again; the scene subscribed first, so its items exist by then.
        scene.document.subscribe(self._document_changed)

    @property
    def execution_id(self) -> str | None:
        """The execution shown, if any."""
        return self.view.execution_id if self.view else None

    def show_view(self, view: RunView, at: datetime | None = None) -> None:
        """Draw a whole view (a run opened from history, or a replay at ``at``)."""
        self._stop_fading()
        self._prune()
        self.view, self.frozen_now = view, at
        for node_id in list(self.badges):
            if node_id not in view.nodes:
                self._remove_badge(node_id)
        for node_id in view.nodes:
            self._draw_node(node_id)
        self._draw_flows()
        self._keep_ticking()

    def apply(self, event: ExecutionEvent) -> None:
        """Take one live event of the shown execution and repaint what it changed."""
        if self.view is None or event.execution_id != self.view.execution_id:
            return
        self._stop_fading()
        self._prune()
        node_id = self.view.apply(event)
        if node_id is not None:
            self._draw_node(node_id)
            self._draw_flows_around(node_id)
        self._keep_ticking()

    def set_heat(self, seconds: dict[str, float] | None) -> None:
        """Tint nodes by how long they took (a heat map), or remove the tint."""
        self._prune()
        longest = max((s for s in (seconds or {}).values()), default=0.0)
        for node_id, badge in self.badges.items():
            value = (seconds or {}).get(node_id)
            badge.heat = None if value is None or longest <= 0 else _heat_colour(value / longest)
            badge.update()

    def fade_later(self, delay_ms: int | None = None) -> None:
        """Fade the overlay out ``delay_ms`` (10 s unless told) after the run ended."""
        self.fade_timer.start(FADE_AFTER_MS if delay_ms is None else delay_ms)

    def clear(self) -> None:
        """Remove every badge and edge highlight."""
        self._stop_fading()
        self.ticker.stop()
        self._prune()
        for node_id in list(self.badges):
            self._remove_badge(node_id)
        for edge_id in list(self.flows):
            self._remove_flow(edge_id)
        self.view = None

    @property
    def is_shown(self) -> bool:
        """Whether a run is drawn on the canvas now."""
        return self.view is not None

    # Nodes ------------------------------------------------------------------------------

    def _document_changed(self, event) -> None:
        if self.view is None or event.kind not in REDRAWN_ON:
            return
        self._prune()
        for node_id in self.view.nodes:
            if node_id not in self.badges:
                self._draw_node(node_id)
        self._draw_flows()

    def _prune(self) -> None:
        """Forget badges and edge marks whose node or edge left the canvas (deleted, or the
        scene was rebuilt by an undo or a reload): Qt deleted them with their item."""
        for node_id, badge in list(self.badges.items()):
            item = self.scene.node_items.get(node_id)
            if not shiboken6.isValid(badge) or badge.parentItem() is not item:
                del self.badges[node_id]
        for edge_id, flow in list(self.flows.items()):
            edge = self.scene.edge_items.get(edge_id)
            if not shiboken6.isValid(flow.label) or flow.edge is not edge:
                del self.flows[edge_id]

    def _badge(self, node_id: str) -> NodeBadge | None:
        item = self.scene.node_items.get(node_id)
        badge = self.badges.get(node_id)
        if item is None:
            return None
        if badge is None or badge.parentItem() is not item:  # the scene was rebuilt
            badge = NodeBadge(item, self.scene.colors.background.lightness() < 128)
            self.badges[node_id] = badge
        return badge

    def _draw_node(self, node_id: str) -> None:
        badge = self._badge(node_id)
        if badge is not None and self.view is not None:
            badge.show(self.view.nodes[node_id], self._now())

    def _remove_badge(self, node_id: str) -> None:
        badge = self.badges.pop(node_id)
        parent = badge.parentItem()
        if parent is not None and parent.scene() is not None:
            parent.setOpacity(1.0)
            parent.setToolTip(parent.title + f"\nagent: {parent.agent_id}")
        if badge.scene() is not None:
            badge.scene().removeItem(badge)

    # Edges ------------------------------------------------------------------------------

    def _draw_flows(self) -> None:
        for edge_id in list(self.flows):
            self._remove_flow(edge_id)
        for edge_id, edge in self.scene.edge_items.items():
            self._draw_flow(edge_id, edge)

    def _draw_flows_around(self, node_id: str) -> None:
        item = self.scene.node_items.get(node_id)
        for edge in item.edges if item else ():
            self._draw_flow(edge.edge_id, edge)

    def _draw_flow(self, edge_id: str, edge: EdgeItem) -> None:
        view = self.view
        source = view.nodes.get(edge.source.node_id) if view else None
        target = view.nodes.get(edge.target.node_id) if view else None
        carried = (
            source is not None
            and target is not None
            and source.status == COMPLETED
            and target.status not in (PENDING, SKIPPED)
        )
        if not carried:
            if edge_id in self.flows:
                self._remove_flow(edge_id)
            return
        flow = self.flows.get(edge_id)
        if flow is None or flow.edge is not edge:
            colour = status_look(COMPLETED).colour(self.scene.colors.background.lightness() < 128)
            flow = EdgeFlow(edge, colour, self._preview_of(edge.source.node_id))
            self.flows[edge_id] = flow
        flow.show_items(source.items)

    def _remove_flow(self, edge_id: str) -> None:
        self.flows.pop(edge_id).remove()

    def _preview_of(self, node_id: str) -> Callable[[], Any]:
        execution_id = self.execution_id

        def preview() -> Any:
            if self.preview is None or execution_id is None:
                return None
            return self.preview(execution_id, node_id)

        return preview

    # Time -------------------------------------------------------------------------------

    def _now(self) -> datetime:
        return self.frozen_now or datetime.now(UTC)

    def _keep_ticking(self) -> None:
        animated = self.frozen_now is None and any(
            badge.view.status in ANIMATED for badge in self.badges.values()
        )
        if animated and not self.ticker.isActive():
            self.ticker.start()
        elif not animated:
            self.ticker.stop()

    def _tick(self) -> None:
        self._prune()
        now = self._now()
        for badge in self.badges.values():
            if badge.view.status in ANIMATED:
                badge.tick(now)

    def _fade(self) -> None:
        self.fading = QVariantAnimation(self, startValue=1.0, endValue=0.0)
        self.fading.setDuration(FADE_DURATION_MS)
        self.fading.valueChanged.connect(self._set_opacity)
        self.fading.finished.connect(self.clear)
        self.fading.start()

    def _set_opacity(self, value: float) -> None:
        self._prune()
        for badge in self.badges.values():
            badge.setOpacity(value)
        for flow in self.flows.values():
            flow.set_opacity(value)

    def _stop_fading(self) -> None:
        self.fade_timer.stop()
        if self.fading is not None:
            self.fading.finished.disconnect(self.clear)
            self.fading.stop()
            self.fading = None
            self._set_opacity(1.0)


def _badge_lines(view: NodeView, now: datetime, dark: bool) -> list[tuple[str, QColor]]:
    """The pill texts under a node: its status with a detail, then decision and rollback."""
    look = status_look(view.status)
    text = look.text
    if view.status == RETRYING:
        text = f"{look.glyph} {view.retry_text(now)}"
    elif view.status == RUNNING and view.attempt > 1:
        text = f"{look.text} · attempt {view.attempt}"
    elif view.status == COMPLETED:
        took = "" if view.duration is None else f" · {step_seconds_text(view.duration)}"
        text = f"{look.text}{took}" + (" · reused" if view.reused else "")
    elif view.status == FAILED and view.error:
        text = f"{look.text}: {view.error.get('type', 'error')}"
    lines = [(text, look.colour(dark))]
    if view.decision:
        decided = decision_look(view.decision)
        who = f" by {view.decided_by}" if view.decided_by else ""
        lines.append((f"{decided.text}{who}", decided.colour(dark)))
    elif view.status == WAITING:
        lines.append(("Decide in Approvals (Ctrl+Shift+A)", look.colour(dark)))
    if view.compensation:
        rolled = status_look(view.compensation)
        lines.append((rolled.text, rolled.colour(dark)))
    return lines


def _node_tooltip(item: NodeItem, view: NodeView) -> str:
    lines = [item.title, f"agent: {item.agent_id}", status_look(view.status).text]
    if view.error:
        lines.append(f"{view.error.get('type', 'Error')}: {view.error.get('message', '')}")
    if view.comment:
        lines.append(f"comment: {view.comment}")
    if view.compensation_error:
        lines.append(f"rollback: {view.compensation_error.get('message', '')}")
    return "\n".join(lines)


def _heat_colour(share: float) -> QColor:
    """Cool (short) to hot (long), translucent so the node stays readable."""
    colour = QColor.fromHsvF(0.33 * (1.0 - min(1.0, max(0.0, share))), 0.85, 0.95)
    colour.setAlphaF(0.35)
    return colour
