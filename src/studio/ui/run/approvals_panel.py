"""The approvals panel: every node, across all workflows, that waits for a person's decision.

It lists the waiting tasks, shows the input the selected node would receive and hands a
decision to the ``decide`` function it was given. Resuming the run is left to whoever passed
that function; the panel announces each decision with ``decided``. The store is read on the
store thread; the list follows when the answer arrives.
"""

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.model import Workflow
from studio.model.errors import NotFoundError
from studio.store.human_tasks import HumanTask
from studio.ui.icons import icon
from studio.ui.panels.inline_message import InlineMessage, window_is_dark
from studio.ui.run.json_view import JsonView
from studio.ui.run.status_look import decision_look, status_look
from studio.ui.run.time_text import short_id, timestamp_text, waited_text
from studio.ui.store_calls import StoreCalls
from studio.workspace import Workspace

WORKFLOW, RUN, NODE, WAITING, TITLE = 0, 1, 2, 3, 4
TASK_ROLE = Qt.ItemDataRole.UserRole
EMPTY_TEXT = "Nothing waits for a decision."
COMMENT_PLACEHOLDER = "Comment (optional, kept with the decision)"
APPROVE_KEYS = ("Ctrl+Return", "Ctrl+Enter")
REJECT_KEYS = ("Ctrl+Shift+Return", "Ctrl+Shift+Enter")
TICK_MS = 30_000

Decide = Callable[[str, str, bool, str | None], "Future[HumanTask]"]
"""``decide(execution_id, node_id, approved, comment)``: the decision, stored off the UI
thread; the future fails with a StudioError when the decision is refused."""


@dataclass(frozen=True)
class WaitingApproval:
    """A waiting task with the names a person knows its workflow and node by."""

    task: HumanTask
    workflow_name: str
    node_label: str


def waiting_approvals(workspace: Workspace) -> list[WaitingApproval]:
    """Every task still waiting for a decision, oldest first, named after its workflow version."""
    versions: dict[tuple[str, int], Workflow | None] = {}
    return [_named(workspace, task, versions) for task in workspace.human_tasks.waiting()]


def _named(
    workspace: Workspace, task: HumanTask, versions: dict[tuple[str, int], Workflow | None]
) -> WaitingApproval:
    record = workspace.executions.get(task.execution_id)
    key = (record.workflow_id, record.workflow_version)
    if key not in versions:
        try:
            versions[key] = workspace.workflows.get_version(*key)
        except NotFoundError:  # the workflow was deleted; its run can still be decided
            versions[key] = None
    workflow = versions[key]
    node = workflow.node(task.node_id) if workflow else None
    name = workflow.name if workflow else f"workflow {record.workflow_id}"
    return WaitingApproval(task, name, node.label if node else task.node_id)


class ApprovalsPanel(QWidget):
    """Waiting approvals of all workflows; approve or reject the selected one with a comment."""

    decided = Signal(str, str, bool)  # execution id, node id, approved
    countChanged = Signal(int)

    def __init__(
        self,
        workspace: Workspace,
        decide: Decide,
        parent: QWidget | None = None,
        store: StoreCalls | None = None,
    ) -> None:
        super().__init__(parent)
        self._workspace, self._decide = workspace, decide
        self._store = store or StoreCalls(parent=self)
        self._deciding = False
        self._load_failed = False
        self._loading = False
        self._load_again: tuple[str | None, str | None] | None = None
        self._after_load: list[Callable[[], None]] = []  # told once the list is read again
        self.message = InlineMessage()
        self.message.setObjectName("approvalMessage")
        self.retry_button = QPushButton("Retry")
        self.retry_button.setObjectName("retryButton")
        self.retry_button.setIcon(icon("kg_refresh"))
        self.retry_button.setToolTip("Read the waiting approvals again")
        self.retry_button.hide()
        self.retry_button.clicked.connect(self.refresh)
        self.list = self._build_list()
        self.input_view = self._build_input_view()
        self.comment = QLineEdit()
        self.comment.setObjectName("approvalComment")
        self.comment.setPlaceholderText(COMMENT_PLACEHOLDER)
        self.comment.setAccessibleName("Comment on the decision")
        self.approve_button = self._button("Approve", "approveButton", APPROVE_KEYS[0])
        self.reject_button = self._button("Reject", "rejectButton", REJECT_KEYS[0])
        dark = window_is_dark()
        self.approve_button.setIcon(decision_look("approved").qicon(dark))
        self.reject_button.setIcon(decision_look("rejected").qicon(dark))
        self._waiting_icon = status_look("waiting").qicon(dark)
        self.approve_button.clicked.connect(self.approve_selected)
        self.reject_button.clicked.connect(self.reject_selected)
        self.empty_label = QLabel(EMPTY_TEXT)
        self.empty_label.setObjectName("approvalsEmpty")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.empty_label)
        self.pages.addWidget(self._build_splitter())
        self._lay_out()
        self._add_shortcuts()
        self._ticker = QTimer(self, interval=TICK_MS)
        self._ticker.timeout.connect(self._update_waited_times)
        self._ticker.start()
        self._show_selected()

    def _build_list(self) -> QTreeWidget:
        tree = QTreeWidget()
        tree.setObjectName("approvalsList")
        tree.setAccessibleName("Waiting approvals")
        tree.setColumnCount(5)
        tree.setHeaderLabels(["Workflow", "Run", "Node", "Waiting", "Title"])
        tree.setRootIsDecorated(False)
        tree.setUniformRowHeights(True)
        tree.setAlternatingRowColors(True)
        tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = tree.header()
        header.setStretchLastSection(True)
        for column in (WORKFLOW, RUN, NODE, WAITING):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        tree.itemSelectionChanged.connect(self._show_selected)
        return tree

    def _build_input_view(self) -> JsonView:
        view = JsonView()
        view.setObjectName("approvalInput")
        view.setAccessibleName("Input the node would receive")
        view.show_nothing("Select a task to see the input its node would receive.")
        return view

    def _button(self, text: str, name: str, keys: str) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        shown = QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText)
        button.setToolTip(f"{text} the selected task ({shown})")
        return button

    def _build_splitter(self) -> QSplitter:
        details = QWidget()
        layout = QVBoxLayout(details)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("Input the node would receive"))
        layout.addWidget(self.input_view, 1)
        layout.addWidget(self.comment)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.reject_button)
        buttons.addWidget(self.approve_button)
        layout.addLayout(buttons)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.list)
        splitter.addWidget(details)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        return splitter

    def _lay_out(self) -> None:
        message_row = QHBoxLayout()
        message_row.addWidget(self.message, 1)
        message_row.addWidget(self.retry_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(message_row)
        layout.addWidget(self.pages, 1)

    def _add_shortcuts(self) -> None:
        # Bound to the panel, not the window: Ctrl+Return elsewhere must not decide anything.
        bindings = ((APPROVE_KEYS, self.approve_selected), (REJECT_KEYS, self.reject_selected))
        for keys, slot in bindings:
            for key in keys:
                shortcut = QShortcut(QKeySequence(key), self)
                shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                shortcut.activated.connect(slot)

    def refresh(self) -> None:
        """Reload the waiting tasks of every workflow, keeping the selection while it waits.

        ``countChanged`` follows every refresh that could read the store; when the store
        fails, the panel says why and offers Retry. The outcome of the last decision stays in
        view: the window refreshes on every run event, sooner than a person reads.
        """
        self._reload()

    def focus_list(self) -> None:
        """Put the keyboard focus on the waiting tasks."""
        self.list.setFocus()

    def selected_task(self) -> tuple[str, str] | None:
        """The (execution id, node id) of the selected task, if one is selected."""
        task = self._selected()
        return (task.execution_id, task.node_id) if task else None

    def approve_selected(self) -> None:
        """Approve the selected task with the comment typed, if any."""
        self._decide_selected(approved=True)

    def reject_selected(self) -> None:
        """Reject the selected task with the comment typed, if any."""
        self._decide_selected(approved=False)

    def _decide_selected(self, *, approved: bool) -> None:
        task = self._selected()
        if task is None or self._deciding:
            return
        node_label = self.list.selectedItems()[0].text(NODE)
        self.message.clear_message()
        comment = self.comment.text().strip() or None
        self._deciding = True
        decision = self._decide(task.execution_id, task.node_id, approved, comment)

        def stored(_task: HumanTask) -> None:
            self._deciding = False
            self.comment.clear()
            self.list.clearSelection()
            self._after_load.append(
                lambda: self.decided.emit(task.execution_id, task.node_id, approved)
            )
            self._reload(note=f"{'Approved' if approved else 'Rejected'} '{node_label}'.")

        def refused(failure: Exception) -> None:  # the comment stays, so nothing typed is lost
            self._deciding = False
            self._reload(error=str(failure))

        self._store.deliver(decision, stored, refused)

    def _reload(self, error: str | None = None, note: str | None = None) -> None:
        """Reload the list on the store thread; ``error`` (a refused decision) is shown above
        any load failure, ``note`` (a decision made) when the list could be read."""
        if self._loading:  # one read at a time; what to say is kept for the next
            earlier_error, earlier_note = self._load_again or (None, None)
            self._load_again = (error or earlier_error, note or earlier_note)
            return
        self._loading = True
        self._store.call(
            lambda: waiting_approvals(self._workspace),
            lambda approvals: self._loaded(approvals, error, note),
            lambda failure: self._not_loaded(failure, error),
        )

    def _loaded(
        self, approvals: list[WaitingApproval], error: str | None, note: str | None
    ) -> None:
        if self._reload_requested_meanwhile():
            return
        if self._load_failed:
            self.message.clear_message()
            self._load_failed = False
        self.retry_button.setIcon(icon("kg_refresh"))
        self.retry_button.setToolTip("Read the waiting approvals again")
        self.retry_button.hide()
        self.pages.show()
        self._fill(approvals)
        if error:
            self.message.show_error(error)
        elif note:
            self.message.show_note(note)
        self.countChanged.emit(len(approvals))
        self._tell_loaded()

    def _not_loaded(self, failure: Exception, error: str | None) -> None:
        if self._reload_requested_meanwhile():
            return
        self.list.clear()  # a locked or broken database is not a StudioError
        self.pages.hide()
        reason = f"Cannot load the waiting approvals: {failure}"
        self.message.show_error("\n".join(filter(None, (error, reason))))
        self.retry_button.show()
        self._load_failed = True
        self._tell_loaded()

    def _tell_loaded(self) -> None:
        waiting, self._after_load = self._after_load, []
        for callback in waiting:
            callback()

    def _reload_requested_meanwhile(self) -> bool:
        self._loading = False
        again, self._load_again = self._load_again, None
        if again is not None:
            self._reload(*again)
        return again is not None

    def _fill(self, approvals: list[WaitingApproval]) -> None:
        chosen = self.selected_task()
        self.list.clear()
        now = datetime.now(UTC)
        for approval in approvals:
            item = self._item(approval, now)
            self.list.addTopLevelItem(item)
            if (approval.task.execution_id, approval.task.node_id) == chosen:
                self.list.setCurrentItem(item)
        self.pages.setCurrentIndex(1 if approvals else 0)
        self._show_selected()

    def _item(self, approval: WaitingApproval, now: datetime) -> QTreeWidgetItem:
        task = approval.task
        when = waited_text(task.created_at, now)
        run = short_id(task.execution_id)
        texts = [approval.workflow_name, run, approval.node_label, when, task.title]
        item = QTreeWidgetItem(texts)
        item.setData(WORKFLOW, TASK_ROLE, task)
        item.setToolTip(WORKFLOW, f"Execution {task.execution_id}")
        item.setToolTip(RUN, f"Execution {task.execution_id}")
        item.setToolTip(NODE, f"Node id: {task.node_id}")
        item.setToolTip(WAITING, timestamp_text(task.created_at))
        item.setIcon(WAITING, self._waiting_icon)
        item.setToolTip(TITLE, task.title)
        return item

    def _selected(self) -> HumanTask | None:
        items = self.list.selectedItems()
        return items[0].data(WORKFLOW, TASK_ROLE) if items else None

    def _show_selected(self) -> None:
        task = self._selected()
        if task is None:
            self.input_view.show_nothing("Select a task to see the input its node would receive.")
        else:
            self.input_view.show_value(task.input)
        for button in (self.approve_button, self.reject_button):
            button.setEnabled(task is not None)

    def _update_waited_times(self) -> None:
        now = datetime.now(UTC)
        for row in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(row)
            if item is None:
                continue
            item.setText(WAITING, waited_text(item.data(WORKFLOW, TASK_ROLE).created_at, now))
