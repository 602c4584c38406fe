"""A minimap in the canvas corner: every node as a small box, the visible part framed;
click or drag on it to move the view there. It draws boxes itself rather than rendering the
scene a second time, so it costs little even for thousands of nodes."""

import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from studio.ui.canvas.style import NODE_HEIGHT, NODE_WIDTH
from studio.ui.canvas.view import WorkflowView

SIZE = (180, 120)
MARGIN = 60.0


class Minimap(QWidget):
    """An overview of the workflow the main view shows."""

    def __init__(self, view: WorkflowView) -> None:
        super().__init__(view)
        self.main_view = view
        self.setObjectName("minimap")
        self.setFixedSize(*SIZE)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self._bounds = QRectF()
        self._refit_pending = False
        view.horizontalScrollBar().valueChanged.connect(lambda _value: self.refit())
        view.verticalScrollBar().valueChanged.connect(lambda _value: self.refit())
        view.zoomed.connect(self.refit)
        view.scene().changed.connect(lambda _regions: self.refit())
        self.refit()

    def refit(self) -> None:
        """Refit soon: many changes in one go (a load, a drag) cost one refit."""
        if not self._refit_pending and self._alive():
            self._refit_pending = True
            QTimer.singleShot(0, self._refit_now)

    def _refit_now(self) -> None:
        """Keep to the lower right corner; show only when part of the workflow is out of
        sight (otherwise it would only hide nodes)."""
        self._refit_pending = False
        if not self._alive():
            return
        self._bounds = self._node_bounds()
        parent = self.main_view.viewport().geometry()
        self.move(parent.right() - SIZE[0] - 8, parent.bottom() - SIZE[1] - 8)
        shown = self.main_view.visible_scene_rect()
        nodes = self._bounds.adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)  # without the frame
        self.setVisible(not self._bounds.isNull() and not shown.contains(nodes))
        self.update()

    def _alive(self) -> bool:
        """Whether the view and its scene still exist (not while the canvas closes)."""
        if not shiboken6.isValid(self) or not shiboken6.isValid(self.main_view):
            return False
        scene = self.main_view.scene()
        return scene is not None and shiboken6.isValid(scene)

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self._alive():
            return
        painter = QPainter(self)
        colors = self.main_view.workflow_scene.colors
        painter.fillRect(self.rect(), QBrush(colors.background))
        painter.setPen(QPen(colors.node_border, 0))
        painter.setBrush(QBrush(colors.node_fill))
        scale, offset = self._transform()
        for item in self.main_view.workflow_scene.node_items.values():
            corner = item.pos() * scale + offset
            painter.drawRect(
                QRectF(corner.x(), corner.y(), NODE_WIDTH * scale, NODE_HEIGHT * scale)
            )
        visible = self.main_view.visible_scene_rect()
        frame = QRectF(visible.topLeft() * scale + offset, visible.size() * scale)
        painter.setPen(QPen(QColor(90, 120, 200), 1))
        painter.setBrush(QBrush(QColor(90, 120, 200, 40)))
        painter.drawRect(frame)
        painter.setPen(QPen(colors.node_border, 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(self.rect().adjusted(0, 0, -1, -1))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._centre_main_view(event.position())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._centre_main_view(event.position())

    def scene_point(self, point: QPointF) -> QPointF:
        """The scene point under a point of the minimap."""
        scale, offset = self._transform()
        return (point - offset) / scale

    def minimap_point(self, scene_point: QPointF) -> QPointF:
        """Where a scene point is drawn on the minimap."""
        scale, offset = self._transform()
        return scene_point * scale + offset

    def _centre_main_view(self, point: QPointF) -> None:
        self.main_view.centerOn(self.scene_point(point))
        self.update()

    def _node_bounds(self) -> QRectF:
        bounds = QRectF()
        for item in self.main_view.workflow_scene.node_items.values():
            bounds = bounds.united(QRectF(item.pos().x(), item.pos().y(), NODE_WIDTH, NODE_HEIGHT))
        return bounds.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN) if not bounds.isNull() else bounds

    def _transform(self) -> tuple[float, QPointF]:
        bounds = self._bounds if not self._bounds.isNull() else QRectF(0, 0, 1, 1)
        scale = min(SIZE[0] / bounds.width(), SIZE[1] / bounds.height())
        offset = QPointF(
            (SIZE[0] - bounds.width() * scale) / 2, (SIZE[1] - bounds.height() * scale) / 2
        )
        return scale, offset - bounds.topLeft() * scale
