"""A minimap in the canvas corner: the whole workflow small, the visible part framed;
click or drag on it to move the view there."""

import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import QGraphicsView

from studio.ui.canvas.view import WorkflowView

SIZE = (180, 120)


class Minimap(QGraphicsView):
    """An overview of the same scene the main view shows."""

    def __init__(self, view: WorkflowView) -> None:
        super().__init__(view.scene(), view)
        self.main_view = view
        self.setObjectName("minimap")
        self.setFixedSize(*SIZE)
        self.setInteractive(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setRenderHints(QPainter.RenderHint.Antialiasing)
        self.setStyleSheet("QGraphicsView#minimap { border: 1px solid palette(mid); }")
        view.horizontalScrollBar().valueChanged.connect(lambda _value: self.refit())
        view.verticalScrollBar().valueChanged.connect(lambda _value: self.refit())
        view.scene().changed.connect(lambda _regions: self.refit())
        view.zoomed.connect(self.refit)
        self.refit()

    def refit(self) -> None:
        """Show every node, and keep to the lower right corner of the canvas."""
        scene = self.scene() if shiboken6.isValid(self) else None
        if scene is None or not shiboken6.isValid(scene):
            return  # the canvas is being closed
        bounds = scene.itemsBoundingRect()
        if not bounds.isNull():
            self.fitInView(bounds.adjusted(-60, -60, 60, 60), Qt.AspectRatioMode.KeepAspectRatio)
        parent = self.main_view.viewport().geometry()
        self.move(parent.right() - SIZE[0] - 8, parent.bottom() - SIZE[1] - 8)
        # Only useful when part of the workflow is out of sight; otherwise it would hide nodes.
        everything_shown = self.main_view.visible_scene_rect().contains(bounds)
        self.setVisible(not bounds.isNull() and not everything_shown)
        self.viewport().update()

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        painter.fillRect(rect, QBrush(self.main_view.workflow_scene.colors.background))

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        visible = self.main_view.visible_scene_rect()
        painter.setPen(QPen(QColor(90, 120, 200), 0))
        painter.setBrush(QBrush(QColor(90, 120, 200, 40)))
        painter.drawRect(visible)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._centre_main_view(self.mapToScene(event.position().toPoint()))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._centre_main_view(self.mapToScene(event.position().toPoint()))

    def _centre_main_view(self, point: QPointF) -> None:
        self.main_view.centerOn(point)
        self.viewport().update()
