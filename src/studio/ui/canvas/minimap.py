"""A minimap in a canvas corner: every node as a small box, the visible part framed; click or
drag on it to move the view there. It draws boxes itself rather than rendering the scene a
second time, and keeps the boxes as a picture until the nodes change, so scrolling costs only
the frame even for tens of thousands of nodes.

``SceneMinimap`` is shared by the workflow canvas (``Minimap``) and the knowledge graph canvas;
each says where its nodes are and which colours to use."""

from collections import defaultdict
from collections.abc import Iterable

import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, SignalInstance
from PySide6.QtGui import QBrush, QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QPixmap
from PySide6.QtWidgets import QGraphicsView, QWidget

from studio.ui.canvas.style import NODE_HEIGHT, NODE_WIDTH, CanvasColors
from studio.ui.canvas.view import WorkflowView

SIZE = (180, 120)
MARGIN = 60.0
NodeBox = tuple[float, float, float, float, QColor | None]
"""A node's box in scene coordinates (left, top, right, bottom) and its colour (None: the
theme's node colour)."""
PIXEL_CELLS = 1500
"""Above this many nodes each is drawn as the minimap pixel it falls on: its box would be
smaller than a pixel anyway, and a box each would cost more than the overview is worth."""


class SceneMinimap(QWidget):
    """An overview of the nodes a canvas view shows, in the view's lower right corner."""

    def __init__(self, view: QGraphicsView, zoomed: SignalInstance) -> None:
        super().__init__(view)
        self.main_view = view
        self.setObjectName("minimap")
        self.setFixedSize(*SIZE)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self._bounds = QRectF()
        self._picture: QPixmap | None = None
        self._contents_dirty = True
        self._refit_pending = False
        view.horizontalScrollBar().valueChanged.connect(lambda _value: self.refit())
        view.verticalScrollBar().valueChanged.connect(lambda _value: self.refit())
        zoomed.connect(self.refit)
        self.refit()

    def node_boxes(self) -> Iterable[NodeBox]:
        """Every node's box (scene coordinates) and colour; subclasses say where."""
        raise NotImplementedError

    def minimap_colors(self) -> CanvasColors:
        """The colours of the canvas the minimap belongs to."""
        raise NotImplementedError

    def contents_changed(self) -> None:
        """The nodes moved, came or went: redraw their boxes soon."""
        self._contents_dirty = True
        self.refit()

    def refit(self) -> None:
        """Refit soon: many changes in one go (a load, a drag) cost one refit."""
        if not self._refit_pending and self._alive():
            self._refit_pending = True
            QTimer.singleShot(0, self._refit_now)

    def _refit_now(self) -> None:
        """Keep to the lower right corner; show only when part of the graph is out of sight
        (otherwise it would only hide nodes)."""
        self._refit_pending = False
        if not self._alive():
            return
        if self._contents_dirty:
            self._bounds = _with_margin(self.nodes_bounds())
        parent = self.main_view.viewport().geometry()
        self.move(parent.right() - SIZE[0] - 8, parent.bottom() - SIZE[1] - 8)
        nodes = self._bounds.adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)  # without the frame
        shown = not self._bounds.isNull() and not self._visible_rect().contains(nodes)
        if shown and self._contents_dirty:  # hidden, the boxes wait until it shows
            self._contents_dirty = False
            self._draw_boxes()
        self.setVisible(shown)
        self.update()

    def nodes_bounds(self) -> QRectF:
        """The box around every node (null when there are none); a canvas that keeps it at
        hand says so, and spares a walk over every node when the minimap stays hidden."""
        return _bounds_of(list(self.node_boxes()))

    def _alive(self) -> bool:
        """Whether the view and its scene still exist (not while the canvas closes)."""
        if not shiboken6.isValid(self) or not shiboken6.isValid(self.main_view):
            return False
        scene = self.main_view.scene()
        return scene is not None and shiboken6.isValid(scene)

    def _draw_boxes(self) -> None:
        """Draw every node's box once, grouped by colour, into the picture the frame goes on
        (a dot per node when there are many)."""
        boxes = list(self.node_boxes())
        self._bounds = _with_margin(_bounds_of(boxes))
        colors = self.minimap_colors()
        picture = QPixmap(*SIZE)
        picture.fill(colors.background)
        painter = QPainter(picture)
        scale, offset = self._transform()
        shift_x, shift_y = offset.x(), offset.y()
        by_colour: dict[str, list[QRectF]] = defaultdict(list)
        if len(boxes) > PIXEL_CELLS:
            cells: dict[tuple[int, int], str] = {}
            for left, top, right, bottom, colour in boxes:
                cell = (
                    int((left + right) / 2 * scale + shift_x),
                    int((top + bottom) / 2 * scale + shift_y),
                )
                cells[cell] = (colour or colors.node_fill).name()
            for (x, y), name in cells.items():
                by_colour[name].append(QRectF(x, y, 1.5, 1.5))
            painter.setPen(Qt.PenStyle.NoPen)
        else:
            for left, top, right, bottom, colour in boxes:
                shown = QRectF(
                    left * scale + shift_x,
                    top * scale + shift_y,
                    (right - left) * scale,
                    (bottom - top) * scale,
                )
                by_colour[(colour or colors.node_fill).name()].append(shown)
            painter.setPen(QPen(colors.node_border, 0))
        for name, rects in by_colour.items():
            painter.setBrush(QBrush(QColor(name)))
            painter.drawRects(rects)
        painter.end()
        self._picture = picture

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self._alive() or self._picture is None:
            return
        painter = QPainter(self)
        painter.drawPixmap(0, 0, self._picture)
        scale, offset = self._transform()
        visible = self._visible_rect()
        frame = QRectF(visible.topLeft() * scale + offset, visible.size() * scale)
        painter.setPen(QPen(QColor(90, 120, 200), 1))
        painter.setBrush(QBrush(QColor(90, 120, 200, 40)))
        painter.drawRect(frame)
        painter.setPen(QPen(self.minimap_colors().node_border, 1))
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

    def _visible_rect(self) -> QRectF:
        return self.main_view.mapToScene(self.main_view.viewport().rect()).boundingRect()

    def _transform(self) -> tuple[float, QPointF]:
        bounds = self._bounds if not self._bounds.isNull() else QRectF(0, 0, 1, 1)
        scale = min(SIZE[0] / bounds.width(), SIZE[1] / bounds.height())
        offset = QPointF(
            (SIZE[0] - bounds.width() * scale) / 2, (SIZE[1] - bounds.height() * scale) / 2
        )
        return scale, offset - bounds.topLeft() * scale


class Minimap(SceneMinimap):
    """An overview of the workflow the main view shows."""

    def __init__(self, view: WorkflowView) -> None:
        super().__init__(view, view.zoomed)
        self.workflow_view = view
        view.scene().changed.connect(lambda _regions: self.contents_changed())

    def node_boxes(self) -> Iterable[NodeBox]:
        for item in self.workflow_view.workflow_scene.node_items.values():
            x, y = item.pos().x(), item.pos().y()
            yield x, y, x + NODE_WIDTH, y + NODE_HEIGHT, None

    def minimap_colors(self) -> CanvasColors:
        return self.workflow_view.workflow_scene.colors


def _bounds_of(boxes: list[NodeBox]) -> QRectF:
    """The box around the node boxes; a null box when there are none."""
    if not boxes:
        return QRectF()
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
    return QRectF(left, top, right - left, bottom - top)


def _with_margin(bounds: QRectF) -> QRectF:
    """The nodes' box with room around it (null stays null)."""
    if bounds.isNull():
        return QRectF()
    return bounds.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)
