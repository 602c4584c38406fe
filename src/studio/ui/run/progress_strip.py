"""A thin progress bar that never paints on the spot.

QProgressBar repaints itself at once, inside ``setValue``, so that progress shows during work
that blocks the event loop. A run's progress changes many times a second while the window
stays free, and each such repaint held the window up for tens of milliseconds; this strip only
asks for a repaint, which Qt folds into the next frame."""

from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

HEIGHT = 8


class ProgressStrip(QWidget):
    """How much of a whole is done, as a filled strip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._value, self._maximum = 0, 1
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def setRange(self, minimum: int, maximum: int) -> None:  # named as QProgressBar names it
        """How many steps make the whole (the minimum is always 0)."""
        self._maximum = max(1, maximum - minimum)
        self.update()

    def setValue(self, value: int) -> None:  # named as QProgressBar names it
        """How many steps are done; drawn with the next frame."""
        if value != self._value:
            self._value = value
            self.update()

    def value(self) -> int:
        return self._value

    def maximum(self) -> int:
        return self._maximum

    def sizeHint(self) -> QSize:
        return QSize(120, HEIGHT + 4)

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        track = QRectF(0.5, (self.height() - HEIGHT) / 2 + 0.5, self.width() - 1, HEIGHT - 1)
        painter.setPen(palette.color(QPalette.ColorRole.Mid))
        painter.setBrush(palette.color(QPalette.ColorRole.Base))
        painter.drawRoundedRect(track, 3, 3)
        share = min(1.0, max(0.0, self._value / self._maximum))
        if share > 0:
            done = QRectF(track.left(), track.top(), track.width() * share, track.height())
            painter.setPen(palette.color(QPalette.ColorRole.Highlight))
            painter.setBrush(palette.color(QPalette.ColorRole.Highlight))
            painter.drawRoundedRect(done, 3, 3)
        painter.end()
