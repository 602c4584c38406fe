"""A plain-text area that commits when it loses focus, like a line edit does on Enter."""

from PySide6.QtCore import Signal
from PySide6.QtGui import QFocusEvent, QFontDatabase
from PySide6.QtWidgets import QPlainTextEdit, QWidget


class CommitTextEdit(QPlainTextEdit):
    """A QPlainTextEdit that emits ``committed`` on focus-out when its text was edited.

    Tab moves focus on rather than inserting a tab, so a form can be walked with the keyboard.
    """

    committed = Signal()

    def __init__(self, parent: QWidget | None = None, *, monospace: bool = False) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)
        self._edited = False
        self.textChanged.connect(self._mark_edited)
        if monospace:
            self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))

    def set_visible_lines(self, lines: int) -> None:
        """Size the box to show this many lines of text without scrolling."""
        margins = self.contentsMargins()
        frame = 2 * self.frameWidth() + margins.top() + margins.bottom()
        padding = 2 * int(self.document().documentMargin())
        self.setFixedHeight(self.fontMetrics().lineSpacing() * lines + frame + padding)

    def set_text_quietly(self, text: str) -> None:
        """Replace the text without it counting as an edit to commit."""
        if text != self.toPlainText():
            self.setPlainText(text)
        self._edited = False

    def focusOutEvent(self, event: QFocusEvent) -> None:
        """Commit an edited text when focus leaves the box."""
        super().focusOutEvent(event)
        if self._edited:
            self._edited = False
            self.committed.emit()

    def _mark_edited(self) -> None:
        self._edited = True
