"""The page in the canvas's place while no workflow is open: the ways to begin (a new
workflow, a file, a blueprint, a folder of knowledge), each a button that says its shortcut,
and the files opened lately."""

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

RECENT_SHOWN = 5
STARTS = (
    ("new", "New workflow", "Ctrl+N", "An empty canvas: press Tab on it to add a node."),
    ("open", "Open a file…", "Ctrl+O", "A workflow file, YAML or JSON, as a new draft."),
    ("blueprint", "Start from a blueprint…", "Ctrl+Shift+B", "Pick one in the catalog for an app."),
    ("ingest", "Ingest knowledge…", "", "A folder of Markdown artifacts, into the graph."),
)  # fmt: skip
"""Each way to begin: its name, the button's words, its shortcut and one line of help."""


class WelcomePage(QWidget):
    """The ways to begin, and the recent files; each emits what the person chose."""

    newAsked = Signal()
    openAsked = Signal()
    blueprintAsked = Signal()
    ingestAsked = Signal()
    recentChosen = Signal(str)  # a workflow file's path

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcome")
        self.buttons: dict[str, QPushButton] = {}
        self.recent = QVBoxLayout()
        self.recent.setSpacing(2)
        self.recent_title = _muted("Opened lately")
        column = QVBoxLayout()
        column.setSpacing(14)
        column.addWidget(_title("Studio"))
        column.addWidget(_muted("Draw, run and trace agent workflows."))
        column.addLayout(self._starts())
        column.addWidget(self.recent_title)
        column.addLayout(self.recent)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        outer.addLayout(column)
        outer.addStretch(2)
        outer.setAlignment(column, Qt.AlignmentFlag.AlignHCenter)
        self.show_recent([])

    def show_recent(self, paths: list[str]) -> None:
        """List the recent workflow files that still exist (a few, newest first)."""
        while self.recent.count():
            item = self.recent.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        shown = [path for path in paths if Path(path).is_file()][:RECENT_SHOWN]
        for path in shown:
            link = QPushButton(Path(path).name)
            link.setFlat(True)
            link.setToolTip(path)
            link.setAccessibleName(f"Open {Path(path).name}")
            link.setStyleSheet("text-align: left; padding: 2px 4px;")
            link.clicked.connect(lambda _checked=False, p=path: self.recentChosen.emit(p))
            self.recent.addWidget(link)
        self.recent_title.setVisible(bool(shown))

    def _starts(self) -> QGridLayout:
        grid = QGridLayout()
        grid.setHorizontalSpacing(16)
        grid.setVerticalSpacing(4)
        signals = {
            "new": self.newAsked,
            "open": self.openAsked,
            "blueprint": self.blueprintAsked,
            "ingest": self.ingestAsked,
        }
        for row, (name, words, shortcut, help_text) in enumerate(STARTS):
            button = QPushButton(words)
            button.setObjectName(f"welcome_{name}")
            button.setMinimumWidth(160)
            tip = f"{help_text} ({shortcut})" if shortcut else help_text
            button.setToolTip(tip)
            button.setAccessibleName(words.rstrip("…"))
            button.clicked.connect(signals[name].emit)
            self.buttons[name] = button
            grid.addWidget(button, row, 0)
            hint = _muted(f"{help_text}  {shortcut}".rstrip())
            hint.setWordWrap(False)  # one line beside its button: wrapped, it was cut off
            hint.setMinimumWidth(1)  # and no wider a window for it: a narrow one cuts it
            grid.addWidget(hint, row, 1)
        return grid


def _title(text: str) -> QLabel:
    label = QLabel(f"<h1>{text}</h1>")
    label.setAlignment(Qt.AlignmentFlag.AlignLeft)
    return label


def _muted(text: str) -> QLabel:
    label = QLabel(text)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    label.setWordWrap(True)  # a narrow window wraps it rather than growing for it
    return label
