"""The graph view: pan (drag on empty space, middle button, arrow keys), wheel zoom around the
cursor, fit (F), and clicks on nodes and on their "+N hidden" chips turned into intents."""

import shiboken6
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView

from studio.ui.knowledge.graph_items import DETAIL_THRESHOLD, HiddenChip, NodeItem
from studio.ui.knowledge.graph_scene import GraphScene

ZOOM_STEP = 1.15
MIN_ZOOM, MAX_ZOOM = 0.02, 4.0
PAN_STEP = 60
CLICK_SLOP = 4.0
"""A press and release closer than this (pixels) is a click, not a pan."""


class CanvasView(QGraphicsView):
    """Shows a GraphScene and turns mouse and keyboard gestures into intents (ids)."""

    nodeClicked = Signal(str)  # a node's id, or "" for a click on empty space
    nodeActivated = Signal(str)  # double-click on a node
    chipClicked = Signal(str)  # the node whose "+N hidden" chip was clicked
    fitRequested = Signal()
    findRequested = Signal()  # Ctrl+F
    zoomed = Signal()
    _fitting = False
    """True while fit_rect passes through zoom levels on its way to the one it fits."""
    holding = False
    """True while a first graph is drawn before it is fitted: no text is made for the zoom
    level the view has before the fit."""

    def __init__(self, scene: GraphScene) -> None:
        super().__init__(scene)
        self.graph_scene = scene
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._pan_origin: QPointF | None = None
        self._press_at: QPointF | None = None

    # Zoom ---------------------------------------------------------------------------------

    def zoom_by(self, factor: float) -> None:
        """Zoom in (factor > 1) or out, within sensible limits."""
        current = self.zoom_level()
        factor = max(MIN_ZOOM / current, min(MAX_ZOOM / current, factor))
        self.scale(factor, factor)
        self._zoom_changed()

    def zoom_level(self) -> float:
        """The current scale: 1.0 is 100 %."""
        return self.transform().m11()

    def fit_rect(self, bounds: QRectF) -> None:
        """Show ``bounds`` whole, never magnified beyond 100 %."""
        if bounds.isNull():
            return
        self._fitting = True  # no detail for the zoom levels fitting passes through
        try:
            self.fitInView(bounds.adjusted(-40, -40, 40, 40), Qt.AspectRatioMode.KeepAspectRatio)
            if self.zoom_level() > 1.0:
                self.resetTransform()
                self.centerOn(bounds.center())
        finally:
            self._fitting = False
        self._zoom_changed()

    def visible_scene_rect(self) -> QRectF:
        """The part of the scene the view shows."""
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            super().wheelEvent(event)
            return
        self.zoom_by(ZOOM_STEP ** (event.angleDelta().y() / 120))

    def _zoom_changed(self) -> None:
        self._reveal()
        self.zoomed.emit()

    def _reveal(self) -> None:
        """Text and arrowheads only when they can be read, made for what is in view; smooth
        edges only then too."""
        if self._fitting or self.holding:
            return
        if not shiboken6.isValid(self.graph_scene) or self.scene() is not self.graph_scene:
            return  # the scene is going away
        detail = self.zoom_level() >= DETAIL_THRESHOLD
        self.graph_scene.set_detail(detail)
        self.setRenderHint(QPainter.RenderHint.Antialiasing, detail)
        self.graph_scene.reveal(self.visible_scene_rect())

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        self._reveal()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._reveal()

    # Mouse --------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        button = event.button()
        point = event.position().toPoint()
        if button == Qt.MouseButton.MiddleButton or (
            button == Qt.MouseButton.LeftButton
            and self.node_at(point) is None
            and self.chip_at(point) is None
        ):
            self._pan_origin = self._press_at = event.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        if button == Qt.MouseButton.LeftButton:
            self._press_at = event.position()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._pan_origin is not None:
            delta = event.position() - self._pan_origin
            self._pan_origin = event.position()
            self.pan_by(-delta.x(), -delta.y())
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        press, self._press_at = self._press_at, None
        was_panning, self._pan_origin = self._pan_origin is not None, None
        self.viewport().unsetCursor()
        clicked = press is not None and _distance(press, event.position()) <= CLICK_SLOP
        if event.button() == Qt.MouseButton.LeftButton and clicked:
            self._clicked(event.position().toPoint())
        if not was_panning:
            super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        point = event.position().toPoint()
        node = self.node_at(point)
        if node is not None and self.chip_at(point) is None:
            self.nodeActivated.emit(node.node_id)
            return
        super().mouseDoubleClickEvent(event)

    def _clicked(self, point: QPoint) -> None:
        chip = self.chip_at(point)
        if chip is not None:
            self.chipClicked.emit(chip.node_id)
            return
        node = self.node_at(point)
        self.nodeClicked.emit(node.node_id if node is not None else "")

    def node_at(self, point: QPoint) -> NodeItem | None:
        """The live node (not a ghost) under a point of the viewport."""
        for item in self.items(point):
            node = _owner(item, NodeItem)
            if isinstance(node, NodeItem) and not node.ghost:
                return node
        return None

    def chip_at(self, point: QPoint) -> HiddenChip | None:
        """The "+N hidden" chip under a point of the viewport."""
        for item in self.items(point):
            chip = _owner(item, HiddenChip)
            if isinstance(chip, HiddenChip) and chip.isVisible():
                return chip
        return None

    # Keys ---------------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        steps = {
            Qt.Key.Key_Left: (-PAN_STEP, 0),
            Qt.Key.Key_Right: (PAN_STEP, 0),
            Qt.Key.Key_Up: (0, -PAN_STEP),
            Qt.Key.Key_Down: (0, PAN_STEP),
        }
        key = Qt.Key(event.key())
        if event.matches(QKeySequence.StandardKey.Find):
            self.findRequested.emit()
        elif key in steps:
            self.pan_by(*steps[key])
        elif key == Qt.Key.Key_F and not event.modifiers():
            self.fitRequested.emit()
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_by(ZOOM_STEP)
        elif key == Qt.Key.Key_Minus:
            self.zoom_by(1 / ZOOM_STEP)
        else:
            super().keyPressEvent(event)

    def pan_by(self, dx: float, dy: float) -> None:
        """Move the view by (dx, dy) pixels."""
        horizontal, vertical = self.horizontalScrollBar(), self.verticalScrollBar()
        horizontal.setValue(int(horizontal.value() + dx))
        vertical.setValue(int(vertical.value() + dy))


def _owner(item: QGraphicsItem, kind: type) -> QGraphicsItem | None:
    """The item itself or the nearest parent of ``kind`` (a node's label belongs to the node)."""
    current: QGraphicsItem | None = item
    while current is not None and not isinstance(current, kind):
        current = current.parentItem()
    return current


def _distance(a: QPointF, b: QPointF) -> float:
    return ((a.x() - b.x()) ** 2 + (a.y() - b.y()) ** 2) ** 0.5
