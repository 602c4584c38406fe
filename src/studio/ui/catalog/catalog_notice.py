"""What the catalog says in place of cards: that it is being read, that nothing matches, that
it is empty, or that reading it failed (with a Retry button)."""

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget


class CatalogNotice(QWidget):
    """A centred message, and a Retry button when there is something to retry."""

    retryRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.message = QLabel()
        self.message.setObjectName("catalog-notice")
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setWordWrap(True)
        self.retry_button = QPushButton("Retry")
        self.retry_button.clicked.connect(self.retryRequested)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.message)
        layout.addWidget(self.retry_button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(1)

    def say(self, text: str, *, retry: bool = False) -> None:
        """Show ``text``; with ``retry``, the Retry button under it."""
        self.message.setText(text)
        self.retry_button.setVisible(retry)
