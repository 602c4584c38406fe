"""A message shown under a field: an error or a warning, told apart by an icon and words as
well as by colour."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QWidget

from studio.ui.icon_label import IconLabel

_COLOURS = {  # (on a light window, on a dark window)
    "error": ("#b3261e", "#ff8a80"),
    "warning": ("#8a5300", "#ffcc66"),
    "note": ("#5f6368", "#b0b4b8"),
}


def window_is_dark() -> bool:
    """Whether the application's window colour is dark, so text colours can follow."""
    return QApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def message_colour(kind: str) -> str:
    """The text colour for an "error", "warning" or "note" on the current palette."""
    light, dark = _COLOURS[kind]
    return dark if window_is_dark() else light


class InlineMessage(IconLabel):
    """A word-wrapped, hidden-until-needed line of feedback under a field."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.kind: str | None = None
        self.hide()

    def show_error(self, text: str | None) -> None:
        """Show ``text`` as an error, or hide the message when it is None."""
        self._show("error", text)

    def show_warning(self, text: str | None) -> None:
        """Show ``text`` as a warning, or hide the message when it is None."""
        self._show("warning", text)

    def show_note(self, text: str | None) -> None:
        """Show ``text`` as a neutral note, or hide the message when it is None."""
        self._show("note", text)

    def clear_message(self) -> None:
        """Hide the message."""
        self._show("note", None)

    def _show(self, kind: str, text: str | None) -> None:
        if not text:
            self.kind = None
            self.setText("")
            self.hide()
            return
        self.kind = kind
        colour = message_colour(kind)
        self.setStyleSheet(f"color: {colour};")
        self.set_icon(f"message_{kind}", colour)
        self.setText(text)
        self.show()
