"""A splitter that gives its widgets their shares of its room until the person drags it (a
plain QSplitter sizes them by their size hints and applies its stretch factors only to later
changes, so a list with long rows takes half of a wide dock)."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QSplitter, QWidget


class ShareSplitter(QSplitter):
    """Splits its room by ``shares`` as it is sized, until the person drags a handle."""

    def __init__(
        self, orientation: Qt.Orientation, shares: tuple[int, ...], parent: QWidget | None = None
    ) -> None:
        super().__init__(orientation, parent)
        self.shares = shares
        self.dragged = False
        for index, share in enumerate(shares):
            self.setStretchFactor(index, share)
        self.splitterMoved.connect(self._dragged)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        room = self.width() if self.orientation() == Qt.Orientation.Horizontal else self.height()
        if not self.dragged and room > 0 and self.count() == len(self.shares):
            total = sum(self.shares)
            self.setSizes([room * share // total for share in self.shares])

    def _dragged(self, _position: int, _index: int) -> None:
        self.dragged = True
