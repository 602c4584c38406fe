"""The problems panel: validation findings, each with its severity in an icon and in words."""

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QStyle,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.model import Problem

SEVERITY, MESSAGE, PLACE = 0, 1, 2
_SEVERITY_WORDS = {"error": "Error", "warning": "Warning"}
_SEVERITY_ICONS = {
    "error": QStyle.StandardPixmap.SP_MessageBoxCritical,
    "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
}


def summary_text(problems: list[Problem], sound: bool = False) -> str:
    """ "2 errors, 1 warning", or "No problems found"; for a ``sound`` workflow whose errors
    are only what publishing asks more, "Not publishable yet: <the first>" with the count."""
    errors = [problem for problem in problems if problem.is_error]
    warnings = len(problems) - len(errors)
    if not problems:
        return "No problems found."
    if sound and errors:
        more = f" ({len(errors) - 1} more)" if len(errors) > 1 else ""
        return f"Not publishable yet: {errors[0].message}{more}"
    parts = [(len(errors), "error"), (warnings, "warning")]
    return ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in parts if n)


class ProblemsPanel(QWidget):
    """Lists problems; double-click or Enter on one emits ``problemActivated`` with it."""

    problemActivated = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._problems: list[Problem] = []
        self.summary = QLabel()
        self.summary.setObjectName("problemsSummary")
        self.tree = QTreeWidget()
        self.tree.setAccessibleName("Problems")
        self.tree.setColumnCount(3)
        self.tree.setHeaderLabels(["Severity", "Problem", "Place"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(SEVERITY, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(MESSAGE, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(PLACE, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.itemActivated.connect(self._on_activated)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree, 1)
        self.show_problems([])

    def show_problems(self, problems: list[Problem], sound: bool = False) -> None:
        """Replace the list with ``problems``, in the order given (``sound``: of a workflow
        that only publishing finds fault with)."""
        self._problems = list(problems)
        self.tree.clear()
        self.tree.addTopLevelItems([self._item(problem) for problem in self._problems])
        self.summary.setText(summary_text(self._problems, sound))

    def problems(self) -> list[Problem]:
        """The problems shown, in order."""
        return list(self._problems)

    def _item(self, problem: Problem) -> QTreeWidgetItem:
        severity = _SEVERITY_WORDS.get(problem.severity, problem.severity)
        item = QTreeWidgetItem([severity, problem.message, problem.place])
        item.setIcon(SEVERITY, self._icon(problem.severity))
        item.setToolTip(MESSAGE, f"{problem.message}\n[{problem.code}]")
        item.setData(SEVERITY, Qt.ItemDataRole.AccessibleTextRole, problem.severity)
        return item

    def _icon(self, severity: str) -> QIcon:
        pixmap = _SEVERITY_ICONS.get(severity, QStyle.StandardPixmap.SP_MessageBoxInformation)
        return self.style().standardIcon(pixmap)

    def _on_activated(self, item: QTreeWidgetItem) -> None:
        row = self.tree.indexOfTopLevelItem(item)
        if 0 <= row < len(self._problems):
            self.problemActivated.emit(self._problems[row])
