"""The Enqueue dialog: a work item's text, checked against Gate A as it is typed.

The check runs on the store thread a moment after the typing stops (it asks the queue whether
the id is taken, what the capability's published manifest offers and whether each eager
source resolves). The rules the text breaks are listed with their numbers, and Enqueue works
only while none is broken. A person may also open a Markdown file and enqueue what it says."""

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.fabric.queue import WorkQueue
from studio.fabric.queue_errors import GateARefusedError
from studio.model.capabilities import PublishedManifest
from studio.model.gate_a import GateFailure
from studio.model.work_item_documents import WorkItemFormatError
from studio.model.work_items import WorkItem
from studio.ui.icons import icon
from studio.ui.store_calls import StoreCalls
from studio.ui.work.work_feed import WorkFeed
from studio.ui.work.work_template import offered_pair, work_template

CHECK_AFTER_MS = 350
"""How long after the last keystroke Gate A is asked."""


class EnqueueDialog(QDialog):
    """Write (or open) a work item and put it on the queue once Gate A passes."""

    def __init__(self, feed: WorkFeed, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("enqueueDialog")
        self.setWindowTitle("Enqueue Work Item")
        self.resize(760, 640)
        self.feed = feed
        self.calls = StoreCalls(parent=self)
        self.enqueued: WorkItem | None = None
        self.failures: list[GateFailure] | None = None
        """What the last check found (None: not checked since the last edit)."""
        self._asked = 0  # which check is the latest: older answers are dropped
        self._template = work_template(feed.person, datetime.now())
        self._build()
        self.editor.setPlainText(self._template)
        self.calls.call(lambda: self._queue().manifests(), self._fill_offer)

    def _build(self) -> None:
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("workItemText")
        self.editor.setAccessibleName("Work item text")
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.verdict = QLabel()
        self.verdict.setObjectName("gateVerdict")
        self.rules = QListWidget()
        self.rules.setObjectName("gateFailures")
        self.rules.setAccessibleName("Gate A failures")
        self.rules.setWordWrap(True)
        below = QWidget()
        below_layout = QVBoxLayout(below)
        below_layout.setContentsMargins(0, 0, 0, 0)
        below_layout.addWidget(self.verdict)
        below_layout.addWidget(self.rules)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.editor)
        split.addWidget(below)
        split.setSizes([460, 140])
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.open_button = self.buttons.addButton(
            "Open File…", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.open_button.setObjectName("openWorkItemFile")
        self.enqueue_button = self.buttons.addButton(
            "Enqueue", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.enqueue_button.setObjectName("enqueueButton")
        self.enqueue_button.setEnabled(False)
        self.open_button.clicked.connect(self.choose_file)
        self.buttons.accepted.connect(self.enqueue)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)
        layout.addWidget(self.buttons)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(CHECK_AFTER_MS)
        self.timer.timeout.connect(self.check)
        self.editor.textChanged.connect(self._edited)

    def _queue(self) -> WorkQueue:
        return self.feed.queue()

    # Checking ----------------------------------------------------------------------------

    def _edited(self) -> None:
        self.failures = None
        self._asked += 1
        self.enqueue_button.setEnabled(False)
        self.verdict.setText("Checking Gate A…")
        self.timer.start()

    def check(self) -> None:
        """Ask Gate A about the text as it is now."""
        self.timer.stop()
        asked, text = self._asked, self.editor.toPlainText()
        self.calls.call(
            lambda: _lint(self._queue(), text),
            lambda failures: self._checked(asked, failures),
            lambda error: self._checked(asked, [GateFailure(0, str(error))]),
        )

    def _checked(self, asked: int, failures: list[GateFailure]) -> None:
        if asked != self._asked:
            return  # the text changed since: a newer check is coming
        self.show_failures(failures)

    def show_failures(self, failures: list[GateFailure]) -> None:
        """List the broken rules; Enqueue works when there are none."""
        self.failures = failures
        self.rules.clear()
        for failure in failures:
            words = f"Rule {failure.rule}: " if failure.rule else ""
            row = QListWidgetItem(icon("message_error", "#c5221f"), words + failure.message)
            self.rules.addItem(row)
        if failures:
            count = len({failure.rule for failure in failures})
            self.verdict.setText(f"Gate A refuses this item: {count} rule(s) broken")
        else:
            self.verdict.setText("Gate A passes: the item can be enqueued")
        self.enqueue_button.setEnabled(not failures)

    def failure_texts(self) -> list[str]:
        """The broken rules as listed."""
        return [self.rules.item(row).text() for row in range(self.rules.count())]

    # Enqueueing --------------------------------------------------------------------------

    def enqueue(self) -> None:
        """Put the item on the queue; closes once it is there, or lists why not."""
        if self.failures != []:
            return
        self.enqueue_button.setEnabled(False)
        text, person = self.editor.toPlainText(), self.feed.person
        self.calls.call(lambda: self._queue().enqueue(text, by=person), self._done, self._refused)

    def _done(self, item: WorkItem) -> None:
        self.enqueued = item
        self.accept()

    def _refused(self, error: Exception) -> None:
        if isinstance(error, GateARefusedError):
            self.show_failures(error.failures)
        else:
            self.show_failures([GateFailure(0, f"Cannot enqueue: {error}")])

    # Files and the template --------------------------------------------------------------

    def choose_file(self) -> None:
        """Open a Markdown work item in the editor."""
        path, _ = QFileDialog.getOpenFileName(
            self, "Open Work Item", "", "Work items (*.md *.markdown);;All files (*)"
        )
        if path:
            self.load_file(Path(path))

    def load_file(self, path: Path) -> None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as failure:
            self.show_failures([GateFailure(0, f"Cannot read {path.name}: {failure}")])
            return
        self.editor.setPlainText(text)

    def _fill_offer(self, manifests: list[PublishedManifest]) -> None:
        """Name a capability and a live type in the template, while it is untouched."""
        pair = offered_pair(manifests)
        if pair is not None and self.editor.toPlainText() == self._template:
            self._template = work_template(self.feed.person, datetime.now(), *pair)
            self.editor.setPlainText(self._template)


def _lint(queue: WorkQueue, text: str) -> list[GateFailure]:
    try:
        return queue.lint(text)
    except WorkItemFormatError as failure:
        return [GateFailure(0, f"Not a work item yet: {failure}")]
