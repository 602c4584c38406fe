"""What a person may do to a work item — put it back on the queue, kill it, return it to
intake — when each applies, and the dialog that asks why (every such action says why, on the
item's work log)."""

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from studio.model.work_items import WorkItem

OPEN = frozenset({"queued", "leased", "in-build", "needs-context", "escalated"})


@dataclass(frozen=True)
class ItemAction:
    """One of a person's actions on an item."""

    name: str
    """The action's name in the window's action table."""
    call: str
    """The queue's method that does it."""
    text: str
    button: str
    shortcut: str
    applies_to: frozenset[str]
    question: str
    """What the reason dialog asks; ``{id}`` is the item's id."""
    done: str
    """What the status bar says after; ``{id}`` is the item's id."""

    def applies(self, item: WorkItem | None) -> bool:
        return item is not None and item.status in self.applies_to


RELEASE = ItemAction(
    "work_release",
    "requeue",
    "&Release to Queue…",
    "Release",
    "Ctrl+R",
    OPEN - {"queued"},
    "Put {id} back on the queue, for any worker to pull again. Why?",
    "{id} is back on the queue",
)
KILL = ItemAction(
    "work_kill",
    "kill",
    "&Kill Work Item…",
    "Kill",
    "Ctrl+Shift+K",
    OPEN,
    "Kill {id}: it ends here and files to its subject as killed. Why?",
    "{id} was killed",
)
RETURN_TO_INTAKE = ItemAction(
    "work_return",
    "return_to_intake",
    "Return to &Intake…",
    "Return to intake",
    "Ctrl+I",
    OPEN - {"needs-context"},
    "Return {id} to intake: it needs context before anyone builds it. Why?",
    "{id} went back to intake",
)
ITEM_ACTIONS = (RELEASE, KILL, RETURN_TO_INTAKE)


class ReasonDialog(QDialog):
    """Asks why; the action's button works once a reason is written."""

    def __init__(self, action: ItemAction, item: WorkItem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workReasonDialog")
        self.setWindowTitle(action.text.replace("&", "").replace("…", ""))
        self.setMinimumWidth(440)
        question = QLabel(action.question.format(id=item.id))
        question.setWordWrap(True)
        self.reason = QLineEdit()
        self.reason.setObjectName("workReason")
        self.reason.setAccessibleName("Reason")
        self.reason.setPlaceholderText("The reason, for the work log")
        question.setBuddy(self.reason)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.ok = self.buttons.addButton(action.button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.ok.setObjectName("workReasonOk")
        self.ok.setEnabled(False)
        self.reason.textChanged.connect(lambda text: self.ok.setEnabled(bool(text.strip())))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(question)
        layout.addWidget(self.reason)
        layout.addWidget(self.buttons)

    def accept(self) -> None:
        if self.reason.text().strip():
            super().accept()


def ask_reason(action: ItemAction, item: WorkItem, parent: QWidget | None) -> str | None:
    """The reason a person gives for ``action`` on ``item``; None when they cancel."""
    dialog = ReasonDialog(action, item, parent)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.reason.text().strip()
    finally:
        dialog.deleteLater()
