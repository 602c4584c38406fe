"""The canvas view: zoom, pan, rubber-band selection, dragging nodes and drawing links.

Gestures become intents (signals carrying ids); the editor turns them into undo commands."""

from dataclasses import dataclass

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QWheelEvent,
)
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsTextItem, QGraphicsView, QToolTip

from studio.model import Position
from studio.ui.canvas.items import OUTPUT, NodeItem, PortItem, curve_between
from studio.ui.canvas.scene import WorkflowScene
from studio.ui.canvas.style import GRID

ZOOM_STEP = 1.15
MIN_ZOOM, MAX_ZOOM = 0.05, 4.0


@dataclass
class LinkDrag:
    """A link being drawn: the output port it starts at and the dashed curve that follows."""

    port: PortItem
    preview: QGraphicsPathItem


class WorkflowView(QGraphicsView):
    """Shows a WorkflowScene and turns mouse and keyboard gestures into intents."""

    nodesMoved = Signal(dict, dict)  # before {id: Position}, after {id: Position}
    selectionMoved = Signal(dict, dict, dict, dict)  # nodes before, after; notes before, after
    linkRequested = Signal(str, str, QPointF)  # source id, target id, where (global)
    nodeActivated = Signal(str)  # double-click on a node
    paletteRequested = Signal(QPointF)  # where a new node should go (scene)
    deleteRequested = Signal()
    menuRequested = Signal(QPointF, QPoint, str)  # scene point, global point, node id or ""

    def __init__(self, scene: WorkflowScene) -> None:
        super().__init__(scene)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.snap_to_grid = False
        self._press_positions: dict[str, Position] = {}
        self._press_notes: dict[str, Position] = {}
        self._link: LinkDrag | None = None
        self._pan_origin: QPointF | None = None
        self._space_held = False

    @property
    def workflow_scene(self) -> WorkflowScene:
        """The scene, typed."""
        return self.scene()  # type: ignore[return-value]

    # Zoom -------------------------------------------------------------------------------

    zoomed = Signal()

    def zoom_by(self, factor: float) -> None:
        """Zoom in (factor > 1) or out, within sensible limits."""
        current = self.transform().m11()
        factor = max(MIN_ZOOM / current, min(MAX_ZOOM / current, factor))
        self.scale(factor, factor)
        self.zoomed.emit()

    def zoom_level(self) -> float:
        """The current scale: 1.0 is 100 %."""
        return self.transform().m11()

    def fit_all(self) -> None:
        """Show every node."""
        bounds = self.workflow_scene.itemsBoundingRect()
        if bounds.isNull():
            return
        self.fitInView(bounds.adjusted(-40, -40, 40, 40), Qt.AspectRatioMode.KeepAspectRatio)
        if self.zoom_level() > 1.0:
            self.resetTransform()
            self.centerOn(bounds.center())
        self.zoomed.emit()

    def center_on_node(self, node_id: str) -> None:
        """Scroll so that a node is in the middle, and select it."""
        item = self.workflow_scene.node_items.get(node_id)
        if item is not None:
            self.workflow_scene.select_only([node_id])
            self.centerOn(item.sceneBoundingRect().center())

    def paintEvent(self, event: QPaintEvent) -> None:
        self.workflow_scene.follow_zoom(self.zoom_level())  # however the zoom was changed
        super().paintEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            super().wheelEvent(event)
            return
        steps = event.angleDelta().y() / 120
        self.zoom_by(ZOOM_STEP**steps)

    # Mouse ------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.MiddleButton or (
            event.button() == Qt.MouseButton.LeftButton and self._space_held
        ):
            self._start_pan(event)
            return
        item = self.itemAt(event.position().toPoint())
        if (
            isinstance(item, PortItem)
            and item.direction == OUTPUT
            and event.button() == Qt.MouseButton.LeftButton
        ):
            self._start_link(item)
            return
        super().mousePressEvent(event)
        self._press_positions = self._selected_positions()
        self._press_notes = self.workflow_scene.annotations.selected_note_positions()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._pan_origin is not None:
            self._pan_to(event, self._pan_origin)
            return
        if self._link is not None:
            end = self.mapToScene(event.position().toPoint())
            start = self._link.port.node_item.output_point()
            self._link.preview.setPath(curve_between(start, end))
            return
        super().mouseMoveEvent(event)
        if self._press_positions:  # dragging nodes: their edges follow
            items = self.workflow_scene.node_items
            for node_id in self._press_positions:
                items[node_id].refresh_edges()
            self.workflow_scene.annotations.refresh_groups_for(self._press_positions)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan_origin is not None:
            self._pan_origin = None
            self.setCursor(Qt.CursorShape.ArrowCursor)
            return
        if self._link is not None:
            self._finish_link(event, self._link)
            return
        super().mouseReleaseEvent(event)
        self._report_move()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        item = self.itemAt(event.position().toPoint())
        node = item if isinstance(item, NodeItem) else getattr(item, "node_item", None)
        if node is not None:
            self.nodeActivated.emit(node.node_id)
        elif item is None:
            self.paletteRequested.emit(self.mapToScene(event.position().toPoint()))
        else:
            super().mouseDoubleClickEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        point = event.pos()
        node = self._node_at(point)
        if node is not None and not node.isSelected():
            self.workflow_scene.select_only([node.node_id])
        self.menuRequested.emit(
            self.mapToScene(point), event.globalPos(), node.node_id if node else ""
        )

    # Keys -------------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if self.is_typing():
            super().keyPressEvent(event)  # a note or a group's name is being edited
        elif key == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_held = True
            self.setCursor(Qt.CursorShape.OpenHandCursor)
        elif key == Qt.Key.Key_Tab:
            center = self.mapToScene(self.viewport().rect().center())
            self.paletteRequested.emit(center)
        elif key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.deleteRequested.emit()
        else:
            super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_held = False
            self.setCursor(Qt.CursorShape.ArrowCursor)
        super().keyReleaseEvent(event)

    def focusNextPrevChild(self, next_child: bool) -> bool:
        return False  # Tab opens the palette instead of moving focus away

    # Helpers ----------------------------------------------------------------------------

    def _selected_positions(self) -> dict[str, Position]:
        items = self.workflow_scene.node_items
        return {
            node_id: Position(x=items[node_id].pos().x(), y=items[node_id].pos().y())
            for node_id in self.workflow_scene.selected_node_ids()
        }

    def is_typing(self) -> bool:
        """Whether a note or a group's name on the canvas is open for typing."""
        focus = self.workflow_scene.focusItem()
        return isinstance(focus, QGraphicsTextItem) and bool(
            focus.textInteractionFlags() & Qt.TextInteractionFlag.TextEditorInteraction
        )

    def _report_move(self) -> None:
        before, self._press_positions = self._press_positions, {}
        notes_before, self._press_notes = self._press_notes, {}
        nodes = _moved(before, self._selected_positions(), self.snap_to_grid)
        notes = _moved(
            notes_before,
            self.workflow_scene.annotations.selected_note_positions(),
            self.snap_to_grid,
        )
        if notes[1]:
            self.selectionMoved.emit(*nodes, *notes)
        elif nodes[1]:
            self.nodesMoved.emit(*nodes)

    def _start_pan(self, event: QMouseEvent) -> None:
        self._pan_origin = event.position()
        self.setCursor(Qt.CursorShape.ClosedHandCursor)

    def _pan_to(self, event: QMouseEvent, origin: QPointF) -> None:
        delta = event.position() - origin
        self._pan_origin = event.position()
        self.horizontalScrollBar().setValue(int(self.horizontalScrollBar().value() - delta.x()))
        self.verticalScrollBar().setValue(int(self.verticalScrollBar().value() - delta.y()))

    def _start_link(self, port: PortItem) -> None:
        preview = QGraphicsPathItem()
        preview.setPen(QPen(self.workflow_scene.colors.port, 2, Qt.PenStyle.DashLine))
        self.workflow_scene.addItem(preview)
        self._link = LinkDrag(port, preview)

    def _finish_link(self, event: QMouseEvent, link: LinkDrag) -> None:
        self._link = None
        self.workflow_scene.removeItem(link.preview)
        source = link.port
        target = self._node_at(event.position().toPoint())
        if target is not None and target.node_id != source.node_id:
            where = QPointF(self.mapToGlobal(event.position().toPoint()))
            self.linkRequested.emit(source.node_id, target.node_id, where)

    def _node_at(self, point: QPoint) -> NodeItem | None:
        for item in self.items(point):
            if isinstance(item, NodeItem):
                return item
            if isinstance(item, PortItem):
                return item.node_item
        return None

    def show_message_at(self, where: QPointF, message: str) -> None:
        """A short message next to the cursor (e.g. why a link was refused)."""
        QToolTip.showText(where.toPoint(), message, self)

    def visible_scene_rect(self) -> QRectF:
        """The part of the scene the view shows."""
        return self.mapToScene(self.viewport().rect()).boundingRect()


def _moved(
    before: dict[str, Position], now: dict[str, Position], snap: bool
) -> tuple[dict[str, Position], dict[str, Position]]:
    """Where the things that really moved were, and where they are now (snapped if asked)."""
    after = {key: snapped(position) if snap else position for key, position in now.items()}
    changed = [key for key in before if key in after and after[key] != before[key]]
    return {key: before[key] for key in changed}, {key: after[key] for key in changed}


def snapped(position: Position) -> Position:
    """The nearest grid point."""
    return Position(x=round(position.x / GRID) * GRID, y=round(position.y / GRID) * GRID)
