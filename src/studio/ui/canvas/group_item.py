"""A named group on the canvas: a rounded frame drawn around its nodes, below them, with its
name in a title bar; collapsed, a compact box that edges to its hidden nodes are drawn to.

Dragging the frame moves its nodes while the mouse moves; the finished drag, a rename and a
click on the collapse toggle go out as intents with the group's id."""

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QFocusEvent, QFont, QKeyEvent, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneMouseEvent,
    QGraphicsTextItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from studio.model import Position
from studio.model.annotations import Group
from studio.ui.canvas.annotation_look import AnnotationIntents, annotation_look
from studio.ui.canvas.items import NodeItem
from studio.ui.canvas.style import NODE_HEIGHT, NODE_WIDTH

MARGIN = 20.0
TITLE_HEIGHT = 28.0
TOGGLE = 16.0
GROUP_Z = -3.0
"""Below notes, edges and nodes: the frame is the background of its nodes."""


class GroupTitle(QGraphicsTextItem):
    """The group's name opened for typing: Enter keeps it, Escape leaves it as it was."""

    def __init__(self, group_item: "GroupItem") -> None:
        super().__init__(group_item)
        self.group_item = group_item
        self.setPos(6, 2)
        self.setVisible(False)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        if self.isVisible() and event.reason() != Qt.FocusReason.PopupFocusReason:
            self.group_item.finish_rename(keep=True)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.group_item.finish_rename(keep=True)
        elif event.key() == Qt.Key.Key_Escape:
            self.group_item.finish_rename(keep=False)
        else:
            super().keyPressEvent(event)


class GroupItem(QGraphicsItem):
    """One group: its frame (or compact box), title, collapse toggle and members."""

    def __init__(self, group: Group, intents: AnnotationIntents) -> None:
        super().__init__()
        self.group_id, self.intents = group.id, intents
        self.members: list[NodeItem] = []
        self.width, self.height = NODE_WIDTH, NODE_HEIGHT
        self._drag: tuple[QPointF, dict[str, QPointF]] | None = None
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(GROUP_Z)
        self.title_editor = GroupTitle(self)
        self._font = QFont()
        self._font.setBold(True)
        self.update_from(group)

    def update_from(self, group: Group) -> None:
        """Take the group's current name, colour and collapsed state."""
        self.name, self.colour, self.collapsed = group.label, group.colour, group.collapsed
        self.look = annotation_look(self.colour)
        self.setToolTip(f"{self.name}: drag to move its nodes, double-click the name to rename")
        self.refit()

    def set_members(self, members: list[NodeItem]) -> None:
        """The node items the frame surrounds (and hides, when collapsed)."""
        self.members = members
        self.refit()

    def refit(self) -> None:
        """Surround the members again (after they moved), or sit where they begin."""
        if not self.members:
            self.setVisible(False)
            return
        self.setVisible(True)
        area = QRectF()
        for member in self.members:
            area = area.united(QRectF(member.pos(), QPointF(member.pos()) + _NODE_CORNER))
        frame = area.adjusted(-MARGIN, -MARGIN - TITLE_HEIGHT, MARGIN, MARGIN)
        self.prepareGeometryChange()
        self.setPos(frame.topLeft())
        self.width, self.height = (
            (NODE_WIDTH, NODE_HEIGHT) if self.collapsed else (frame.width(), frame.height())
        )
        if self.collapsed:
            for member in self.members:
                member.refresh_edges()
        self.update()

    def output_point(self) -> QPointF:
        """Where edges leaving a hidden member start, in scene coordinates."""
        return self.mapToScene(QPointF(self.width, self.height / 2))

    def input_point(self) -> QPointF:
        """Where edges into a hidden member end, in scene coordinates."""
        return self.mapToScene(QPointF(0, self.height / 2))

    def title_rect(self) -> QRectF:
        """The title bar, in item coordinates."""
        return QRectF(0, 0, self.width, TITLE_HEIGHT)

    def toggle_rect(self) -> QRectF:
        """The collapse/expand toggle at the right of the title bar."""
        return QRectF(self.width - TOGGLE - 8, (TITLE_HEIGHT - TOGGLE) / 2, TOGGLE, TOGGLE)

    # Renaming --------------------------------------------------------------------------

    def begin_rename(self) -> None:
        """Open the name for typing, all of it selected."""
        self.title_editor.setPlainText(self.name)
        self.title_editor.setDefaultTextColor(self.look.text)
        self.title_editor.setTextWidth(max(60.0, self.width - TOGGLE - 24))
        self.title_editor.setTextInteractionFlags(Qt.TextInteractionFlag.TextEditorInteraction)
        self.title_editor.setVisible(True)
        self.title_editor.setFocus(Qt.FocusReason.MouseFocusReason)
        cursor = self.title_editor.textCursor()
        cursor.select(cursor.SelectionType.Document)
        self.title_editor.setTextCursor(cursor)
        self.update()

    def finish_rename(self, keep: bool) -> None:
        """Close the name editor; a changed name, kept, goes out as an intent."""
        if not self.title_editor.isVisible():
            return
        typed = " ".join(self.title_editor.toPlainText().split())
        self.title_editor.setVisible(False)
        self.title_editor.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.update()
        if keep and typed and typed != self.name:
            self.intents.groupRenamed.emit(self.group_id, typed)

    # Mouse -----------------------------------------------------------------------------

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.toggle_rect().contains(event.pos()):
            self.intents.groupToggled.emit(self.group_id)
            event.accept()
            return
        super().mousePressEvent(event)
        if event.button() == Qt.MouseButton.LeftButton:
            # The frame alone is selected, so the view does not move selected nodes as well.
            scene = self.scene()
            if scene is not None:
                scene.clearSelection()
            self.setSelected(True)
            starts = {member.node_id: QPointF(member.pos()) for member in self.members}
            self._drag = (event.scenePos(), starts)

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._drag is None:
            return
        origin, starts = self._drag
        delta = event.scenePos() - origin
        for member in self.members:
            start = starts[member.node_id]
            member.move_to(start.x() + delta.x(), start.y() + delta.y())
        self.refit()

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        if self._drag is None:
            return
        _origin, starts = self._drag
        self._drag = None
        before, after = {}, {}
        for member in self.members:
            start, end = starts[member.node_id], member.pos()
            if start != end:
                before[member.node_id] = Position(x=start.x(), y=start.y())
                after[member.node_id] = Position(x=end.x(), y=end.y())
        if after:
            self.intents.groupDragged.emit(before, after)

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self.title_rect().contains(event.pos()) and not self.toggle_rect().contains(event.pos()):
            self.begin_rename()
        event.accept()

    # Painting --------------------------------------------------------------------------

    def boundingRect(self) -> QRectF:
        return QRectF(-2, -2, self.width + 4, self.height + 4)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        look, selected = self.look, self.isSelected()
        fill = look.fill
        if not self.collapsed:
            fill = fill.lighter(100)
            fill.setAlpha(110)
        border = option.palette.highlight().color() if selected else look.border
        painter.setPen(QPen(border, 2.5 if selected else 1.5))
        painter.setBrush(QBrush(fill))
        painter.drawRoundedRect(QRectF(0, 0, self.width, self.height), 10, 10)
        painter.setPen(QPen(look.text))
        painter.setFont(self._font)
        if not self.title_editor.isVisible():
            title = QRectF(12, 0, self.width - TOGGLE - 28, TITLE_HEIGHT)
            painter.drawText(title, Qt.AlignmentFlag.AlignVCenter, self.name)
        if self.collapsed:
            count = len(self.members)
            words = f"{count} node{'s' if count != 1 else ''} hidden"
            painter.setFont(QFont())
            painter.drawText(
                QRectF(12, TITLE_HEIGHT, self.width - 24, self.height - TITLE_HEIGHT - 6),
                Qt.AlignmentFlag.AlignVCenter,
                words,
            )
        self._paint_toggle(painter)

    def _paint_toggle(self, painter: QPainter) -> None:
        box = self.toggle_rect()
        painter.setPen(QPen(self.look.border, 1.2))
        painter.setBrush(QBrush(self.look.fill))
        painter.drawRect(box)
        painter.setPen(QPen(self.look.text, 1.5))
        middle = box.center()
        painter.drawLine(QPointF(box.left() + 4, middle.y()), QPointF(box.right() - 4, middle.y()))
        if self.collapsed:  # "+": expand
            painter.drawLine(
                QPointF(middle.x(), box.top() + 4), QPointF(middle.x(), box.bottom() - 4)
            )


_NODE_CORNER = QPointF(NODE_WIDTH, NODE_HEIGHT)
