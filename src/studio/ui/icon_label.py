"""A label with an icon before its words: a status badge, a message, a run's progress.

The icon is painted, not typed, so it shows whatever fonts the machine has; the label's text
(what a screen reader reads) is the words alone."""

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QWidget

from studio.ui.icons import icon

ICON_SIZE = 16
ICON_GAP = 5


class IconLabel(QLabel):
    """A QLabel whose words follow one of Studio's icons."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.icon_name = ""
        self._icon = QIcon()

    def set_icon(self, name: str | None, colour: QColor | str | None = None) -> None:
        """Show Studio's icon ``name`` (in ``colour``, else the theme's text colour) before
        the words; None takes it away."""
        self.icon_name = name or ""
        self._icon = icon(name, colour) if name else QIcon()
        indent = ICON_SIZE + ICON_GAP if name else 0
        self.setContentsMargins(indent, 0, 0, 0)
        self.setMinimumHeight(ICON_SIZE if name else 0)
        self.update()

    def icon(self) -> QIcon:
        """The icon shown before the words (a null icon when there is none)."""
        return self._icon

    def icon_rect(self) -> QRect:
        """Where the icon is drawn: left of the words, level with their first line."""
        words = self.contentsRect()
        block = min(words.height(), self._text_height())
        alignment = self.alignment()
        if alignment & Qt.AlignmentFlag.AlignBottom:
            top = words.bottom() + 1 - block
        elif alignment & Qt.AlignmentFlag.AlignTop:
            top = words.top()
        else:
            top = words.top() + (words.height() - block) // 2
        top += (self.fontMetrics().height() - ICON_SIZE) // 2
        return QRect(words.left() - ICON_SIZE - ICON_GAP, max(0, top), ICON_SIZE, ICON_SIZE)

    def _text_height(self) -> int:
        """How tall the words are, wrapped as they are shown."""
        frame = self.height() - self.contentsRect().height()
        wrapped = self.heightForWidth(self.width()) if self.wordWrap() else -1
        return (wrapped if wrapped > 0 else self.sizeHint().height()) - frame

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self._icon.isNull():
            return
        painter = QPainter(self)
        self._icon.paint(painter, self.icon_rect())
        painter.end()
