"""What a person sees of a landing: its progress (with Cancel) and the files that did not land.

``LandingDialogs`` watches a LandingController: a progress dialog while it checks and lands
(not modal: the window stays usable), and a problems dialog listing each file that did not
land, with each of its problems, once it ends with any.
"""

from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QProgressDialog,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.knowledge.drop_check import FileProblem
from studio.ui.knowledge.landing import LandingController

NOTHING_LANDED = (
    "Nothing was landed: a drop lands only when every file in it can land. "
    "Fix the files below and drop them again."
)


def problems_heading(problems: list[FileProblem], landed: int, cancelled: bool) -> str:
    """What the problems dialog says above its list."""
    files = f"{len(problems)} file{'s' if len(problems) != 1 else ''}"
    if landed == 0 and not cancelled:
        return f"{files} cannot land. {NOTHING_LANDED}"
    done = f"{landed} file{'s' if landed != 1 else ''} landed before landing stopped"
    return f"{done}; {files} did not land:"


class ProblemsDialog(QDialog):
    """The files that did not land, each with its problems (lint places name the line)."""

    def __init__(
        self, problems: list[FileProblem], heading: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Files not landed")
        self.resize(760, 380)
        self._problems = list(problems)
        label = QLabel(heading)
        label.setWordWrap(True)
        self.heading = heading
        tree = QTreeWidget()
        tree.setHeaderLabels(["File", "Problem"])
        tree.setColumnWidth(0, 200)
        tree.setWordWrap(True)
        for problem in problems:
            tree.addTopLevelItem(_file_row(problem))
        tree.expandAll()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(tree)
        layout.addWidget(buttons)

    def listed(self) -> list[tuple[Path, tuple[str, ...]]]:
        """Each file listed with its problems, in the order shown."""
        return [(problem.path, problem.messages) for problem in self._problems]


def _file_row(problem: FileProblem) -> QTreeWidgetItem:
    count = len(problem.messages)
    row = QTreeWidgetItem([problem.path.name, f"{count} problem{'s' if count != 1 else ''}"])
    row.setToolTip(0, str(problem.path))
    for message in problem.messages:
        child = QTreeWidgetItem(["", message])
        child.setToolTip(1, message)
        row.addChild(child)
    return row


class LandingDialogs(QObject):
    """Shows a LandingController's progress and, at the end, what did not land."""

    def __init__(self, controller: LandingController, parent: QWidget) -> None:
        super().__init__(parent)
        self.controller, self._parent = controller, parent
        self.progress = QProgressDialog("Checking files...", "Cancel", 0, 0, parent)
        self.progress.setWindowTitle("Landing")
        self.progress.setWindowModality(Qt.WindowModality.NonModal)
        self.progress.setAutoReset(False)
        self.progress.setAutoClose(False)
        self.progress.setMinimumDuration(0)
        self.progress.reset()
        self.progress.canceled.connect(controller.cancel)
        self.problems: ProblemsDialog | None = None
        """The problems dialog of the last landing, if it had problems."""
        self._landed = 0
        controller.started.connect(self._started)
        controller.checking.connect(self._checking)
        controller.progress.connect(self._progress)
        controller.landed.connect(self._count_landed)
        controller.failed.connect(self._show_problems)
        controller.finished.connect(self._finished)

    def _started(self) -> None:
        self._landed = 0
        self.progress.setLabelText("Checking files...")
        self.progress.setRange(0, 0)
        self.progress.show()

    def _checking(self, done: int, total: int) -> None:
        self.progress.setLabelText(f"Checking files: {done} of {total}")
        self.progress.setRange(0, total)
        self.progress.setValue(done)

    def _progress(self, done: int, total: int, name: str) -> None:
        self.progress.setLabelText(f"Landing {name}: {done} of {total}")
        self.progress.setRange(0, total)
        self.progress.setValue(done)

    def _finished(self) -> None:
        self.progress.reset()
        self.progress.hide()

    def _count_landed(self, refs: list[str]) -> None:
        self._landed = len(refs)

    def _show_problems(self, problems: list[FileProblem]) -> None:
        cancelled = self.controller.was_cancelled
        heading = problems_heading(problems, self._landed, cancelled)
        if self.problems is not None:
            self.problems.deleteLater()
        self.problems = ProblemsDialog(problems, heading, self._parent)
        self.problems.open()
