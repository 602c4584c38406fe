"""A sticky note on the canvas: a coloured card that shows its Markdown rendered, and the raw
Markdown while it is edited in place. Resized from its bottom-right corner.

The item paints and reports: a finished edit or resize goes out as an intent with the note's
id; the note changes when the document says so."""

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QFocusEvent, QKeyEvent, QPainter, QPen, QTextCursor
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneMouseEvent,
    QGraphicsTextItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from studio.model.annotations import Note
from studio.ui.canvas.annotation_look import AnnotationIntents, annotation_look

PADDING = 10.0
GRIP = 16.0
"""The side of the corner square a resize starts from."""
MIN_WIDTH, MIN_HEIGHT = 80.0, 50.0
NOTE_Z = -2.0
"""Above group frames, below edges and nodes."""


class NoteBody(QGraphicsTextItem):
    """The note's text: rendered Markdown, or an editor on the raw Markdown."""

    def __init__(self, note_item: "NoteItem") -> None:
        super().__init__(note_item)
        self.note_item = note_item
        self.setPos(PADDING, PADDING)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # clicks go to the card

    @property
    def editing(self) -> bool:
        """Whether the raw Markdown is open for typing."""
        return bool(self.textInteractionFlags() & Qt.TextInteractionFlag.TextEditorInteraction)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        if self.editing and event.reason() != Qt.FocusReason.PopupFocusReason:
            self.note_item.finish_editing()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.note_item.finish_editing()
            return
        super().keyPressEvent(event)


class NoteItem(QGraphicsItem):
    """One note: its card, its text and its resize corner."""

    def __init__(self, note: Note, intents: AnnotationIntents) -> None:
        super().__init__()
        self.note_id, self.intents = note.id, intents
        self.text, self.colour = "", note.colour
        self.width, self.height = note.size.width, note.size.height
        self.look = annotation_look(note.colour)
        self._resize_start: tuple[QPointF, float, float] | None = None
        flags = QGraphicsItem.GraphicsItemFlag
        self.setFlags(
            flags.ItemIsMovable
            | flags.ItemIsSelectable
            | flags.ItemIsFocusable
            | flags.ItemClipsChildrenToShape
        )
        self.setZValue(NOTE_Z)
        self.body = NoteBody(self)
        self.update_from(note)

    def update_from(self, note: Note) -> None:
        """Take the note's current text, colour, place and size."""
        self.prepareGeometryChange()
        self.text, self.colour = note.text, note.colour
        self.width, self.height = note.size.width, note.size.height
        self.setPos(note.position.x, note.position.y)
        self.apply_colors()
        self.setToolTip("Double-click or press Enter to edit; Markdown is rendered")

    def apply_colors(self) -> None:
        """Repaint in the current theme's shade of the note's colour."""
        self.look = annotation_look(self.colour)
        self.body.setDefaultTextColor(self.look.text)
        if not self.body.editing:
            self._show_markdown()
        self.update()

    def _show_markdown(self) -> None:
        self.body.setTextWidth(self.width - 2 * PADDING)
        self.body.document().setMarkdown(self.text)

    @property
    def rendered_text(self) -> str:
        """The text as shown, without Markdown's marks."""
        return self.body.toPlainText()

    # Editing ---------------------------------------------------------------------------

    def begin_editing(self) -> None:
        """Open the raw Markdown for typing, with the cursor at its end."""
        if self.body.editing:
            return
        self.body.setPlainText(self.text)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextEditorInteraction)
        self.body.setAcceptedMouseButtons(Qt.MouseButton.LeftButton)
        self.body.setFocus(Qt.FocusReason.MouseFocusReason)
        cursor = self.body.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        self.body.setTextCursor(cursor)

    def finish_editing(self) -> None:
        """Close the editor; a changed text goes out as an intent."""
        if not self.body.editing:
            return
        typed = self.body.toPlainText()
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.body.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.body.clearFocus()
        self._show_markdown()
        if typed != self.text:
            self.intents.noteTextEdited.emit(self.note_id, typed)

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self.begin_editing()
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.begin_editing()
            return
        super().keyPressEvent(event)

    # Resizing --------------------------------------------------------------------------

    def grip_rect(self) -> QRectF:
        """The corner a resize starts from, in item coordinates."""
        return QRectF(self.width - GRIP, self.height - GRIP, GRIP, GRIP)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.grip_rect().contains(event.pos()):
            self._resize_start = (event.scenePos(), self.width, self.height)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._resize_start is None:
            super().mouseMoveEvent(event)
            return
        start, width, height = self._resize_start
        delta = event.scenePos() - start
        self.prepareGeometryChange()
        self.width = max(MIN_WIDTH, width + delta.x())
        self.height = max(MIN_HEIGHT, height + delta.y())
        self.body.setTextWidth(self.width - 2 * PADDING)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._resize_start is None:
            super().mouseReleaseEvent(event)
            return
        _start, width, height = self._resize_start
        self._resize_start = None
        if (self.width, self.height) != (width, height):
            self.intents.noteResized.emit(self.note_id, self.width, self.height)

    # Painting --------------------------------------------------------------------------

    def boundingRect(self) -> QRectF:
        return QRectF(-2, -2, self.width + 4, self.height + 4)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        selected = self.isSelected()
        border = option.palette.highlight().color() if selected else self.look.border
        painter.setPen(QPen(border, 2.5 if selected else 1.0))
        painter.setBrush(QBrush(self.look.fill))
        painter.drawRoundedRect(QRectF(0, 0, self.width, self.height), 4, 4)
        painter.setPen(QPen(self.look.border, 1.2))
        right, bottom = self.width - 4, self.height - 4
        for step in (4.0, 8.0, 12.0):  # the resize corner's three strokes
            painter.drawLine(QPointF(right - step, bottom), QPointF(right, bottom - step))
