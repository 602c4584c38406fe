"""The middle of the knowledge view: the graph canvas over its timeline, or, while the store
is empty, a page that says how to fill it."""

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

TEXT_WIDTH = 460
EMPTY_TEXT = (
    "<h2>No knowledge yet</h2>"
    "<p>Artifacts your runs land, and Markdown files you land yourself, are drawn here: "
    "artifacts, the runs that made them, typed items and units, with their lineage and "
    "every version.</p><p>Drop Markdown files or a folder here, or:</p>"
)


class EmptyState(QWidget):
    """What the view says while nothing has landed."""

    ingestAsked = Signal()
    landAsked = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("knowledgeEmpty")
        text = QLabel(EMPTY_TEXT)
        text.setObjectName("knowledgeEmptyText")
        text.setWordWrap(True)
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        text.setFixedWidth(TEXT_WIDTH)  # a fixed width lets the label ask for all its lines
        self.text = text
        self.ingest = QPushButton("Ingest a folder…")
        self.ingest.setObjectName("ingestFolderButton")
        self.land = QPushButton("Land a file…")
        self.land.setObjectName("landFileButton")
        self.ingest.clicked.connect(self.ingestAsked)
        self.land.clicked.connect(self.landAsked)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.ingest, self.land):
            buttons.addWidget(button)
        buttons.addStretch(1)
        centred = QHBoxLayout()
        centred.addStretch(1)
        centred.addWidget(text)
        centred.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addLayout(centred)
        layout.addLayout(buttons)
        layout.addStretch(2)


class KnowledgePage(QStackedWidget):
    """The canvas and timeline, or the empty state."""

    def __init__(self, canvas: QWidget, timeline: QWidget) -> None:
        super().__init__()
        self.setObjectName("knowledgePage")
        self.empty = EmptyState()
        graph = QWidget()
        column = QVBoxLayout(graph)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(canvas, 1)
        column.addWidget(timeline)
        self.graph = graph
        self.addWidget(self.empty)
        self.addWidget(graph)

    def set_empty(self, empty: bool) -> None:
        """Show the empty state (nothing landed) or the graph."""
        self.setCurrentWidget(self.empty if empty else self.graph)

    def is_empty_shown(self) -> bool:
        """Whether the empty state is what shows."""
        return self.currentWidget() is self.empty
