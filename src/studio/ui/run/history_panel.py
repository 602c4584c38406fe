"""The run history of one workflow: its executions above, the selected one in detail below.

It reads the store on the store thread, shows what it read when the answer arrives, and emits
intents carrying execution ids (show on canvas, replay, re-run, resume, compare); the main
window carries them out."""

import logging
from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.engine.runner import StepRunner
from studio.model.execution import ExecutionRecord
from studio.ui.panels.share_splitter import ShareSplitter
from studio.ui.run.execution_detail import ExecutionDetail
from studio.ui.run.history_reads import HistoryReads, RunDetail, RunRows
from studio.ui.run.run_filter import STATUS_CHOICES
from studio.ui.run.run_list import ID_ROLE, RunList
from studio.ui.store_calls import StoreCalls
from studio.workspace import Workspace

log = logging.getLogger("studio.ui.run")

RUN_LIMIT = 200
NO_WORKFLOW = "Open a workflow to see its runs."
NO_RUNS = "No runs yet. Publish the workflow and press Run (F5)."
NO_MATCHES = "No runs match the filter."
LIST_PAGE, MESSAGE_PAGE = 0, 1
BUTTONS_A_ROW = 3
ACTIONS = (  # key, text, tool tip, button object name
    ("canvas", "Show on canvas", "Show this run on the canvas (Enter)", "showOnCanvasButton"),
    ("replay", "Replay", "Step through this run event by event", "replayButton"),
    ("rerun", "Re-run", "Run again with the same input on the published version", "rerunButton"),
    ("resume", "Resume", "Continue an interrupted run", "resumeRunButton"),
    ("compare", "Compare", "Compare the two selected runs", "compareButton"),
    (
        "artifacts",
        "Show artifacts",
        "Open the knowledge graph on what this run produced",
        "showArtifactsButton",
    ),
)


class RunHistoryPanel(QWidget):
    """A workflow's executions, newest first, filterable, with the selected one in detail."""

    executionSelected = Signal(str)
    replayRequested = Signal(str)
    compareRequested = Signal(str, str)  # older, newer
    resumeRequested = Signal(str)
    rerunRequested = Signal(str)
    showOnCanvasRequested = Signal(str)
    artifactsRequested = Signal(str)  # the knowledge graph of what a run produced
    loaded = Signal()  # an answer from the store was shown (runs, a run, or why not)

    def __init__(
        self,
        workspace: Workspace,
        parent: QWidget | None = None,
        runner: StepRunner | None = None,
        store: StoreCalls | None = None,
        runner_of: Callable[[], StepRunner] | None = None,
    ) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self._runner = runner
        self._runner_of = runner_of
        self.reads = HistoryReads(
            workspace, store or StoreCalls(parent=self), lambda: self.runner, self.loaded.emit
        )
        self._to_select: str | None = None  # a run to select once its workflow's runs arrive
        self._workflow_id: str | None = None
        self._shown_id: str | None = None
        self.run_actions = {key: self._action(key, text, tip) for key, text, tip, _ in ACTIONS}
        self.pages = QStackedWidget()
        self.pages.setObjectName("historyPages")
        self.pages.addWidget(self._list_page())
        self.pages.addWidget(self._message_page())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.pages)
        self.show_workflow(None)

    def _action(self, key: str, text: str, tip: str) -> QAction:
        action = QAction(text, self)
        action.setToolTip(tip)
        action.setEnabled(False)
        action.triggered.connect(lambda _checked=False, key=key: self._trigger(key))
        return action

    def _list_page(self) -> QWidget:
        self.filter_edit = QLineEdit()
        self.filter_edit.setObjectName("historyFilter")
        self.filter_edit.setAccessibleName("Filter runs")
        self.filter_edit.setPlaceholderText("Filter by id, status or version (v3)")
        self.filter_edit.setClearButtonEnabled(True)
        self.status_filter = QComboBox()
        self.status_filter.setObjectName("statusFilter")
        self.status_filter.addItems(list(STATUS_CHOICES))
        self.tree = RunList()
        self.tree.itemSelectionChanged.connect(self._on_selection_changed)
        self.tree.itemActivated.connect(self._on_activated)
        self.tree.customContextMenuRequested.connect(self._open_context_menu)
        self.detail = ExecutionDetail()
        self.detail.resumeRequested.connect(self.resumeRequested)
        self.filter_edit.textChanged.connect(self._apply_filter)
        self.status_filter.currentTextChanged.connect(self._apply_filter)
        filters = QHBoxLayout()
        filters.addWidget(self.filter_edit, 1)
        filters.addWidget(self.status_filter)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addLayout(filters)
        top_layout.addWidget(self.tree, 1)
        top_layout.addLayout(self._buttons())
        # Docked below the canvas the panel is wide and short: runs on the left, the selected
        # one on the right, scrolling rather than asking the window for height.
        scroller = QScrollArea(widgetResizable=True)
        scroller.setFrameShape(QFrame.Shape.NoFrame)
        scroller.setWidget(self.detail)
        self.splitter = ShareSplitter(Qt.Orientation.Horizontal, (2, 5))
        self.splitter.setObjectName("historySplitter")
        self.splitter.addWidget(top)
        self.splitter.addWidget(scroller)
        self.splitter.setChildrenCollapsible(False)
        return self.splitter

    def _buttons(self) -> QVBoxLayout:
        # The count on a line of its own and the commands three to a row: the list stays
        # narrow enough to leave the run's detail most of a wide dock.
        self.summary = QLabel()
        self.summary.setObjectName("historySummary")
        grid = QGridLayout()
        grid.setSpacing(4)
        for index, (key, _text, _tip, name) in enumerate(ACTIONS):
            button = QToolButton()
            button.setObjectName(name)
            button.setDefaultAction(self.run_actions[key])
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            grid.addWidget(button, index // BUTTONS_A_ROW, index % BUTTONS_A_ROW)
        column = QVBoxLayout()
        column.addWidget(self.summary)
        column.addLayout(grid)
        return column

    def _message_page(self) -> QWidget:
        page = QWidget()
        self.message = QLabel()
        self.message.setObjectName("historyMessage")
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.retry_button = QPushButton("Retry")
        self.retry_button.setObjectName("retryButton")
        self.retry_button.clicked.connect(self.refresh)
        layout = QVBoxLayout(page)
        layout.addStretch(1)
        layout.addWidget(self.message)
        layout.addWidget(self.retry_button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(1)
        return page

    # --- loading ---------------------------------------------------------------------------

    @property
    def runner(self) -> StepRunner:
        """Tells interrupted runs from live ones; the window passes its own runner so the runs
        it drives never read as interrupted (``runner_of`` gives it when first needed). Made
        on first use, as it opens the database."""
        if self._runner is None:
            self._runner = self._runner_of() if self._runner_of else self.workspace.runner()
        return self._runner

    @property
    def workflow_id(self) -> str | None:
        """The workflow whose runs are listed."""
        return self._workflow_id

    def show_workflow(self, workflow_id: str | None) -> None:
        """List the runs of ``workflow_id`` (None: no workflow open)."""
        if workflow_id != self._workflow_id:
            self._shown_id = None
            self.tree.show_runs([], set())
        self._workflow_id = workflow_id
        self.refresh()

    def is_loading(self) -> bool:
        """Whether a read of the store is on its way."""
        return self.reads.is_reading()

    def refresh(self) -> None:
        """Reload the runs from the store, keeping the selection and the filter."""
        if self._workflow_id is None:
            self._show_message(NO_WORKFLOW)
            return
        self.reads.runs(self._workflow_id, RUN_LIMIT, self._show_runs, self._show_failure)

    def _show_runs(self, rows: RunRows) -> None:
        if rows.workflow_id != self._workflow_id:
            return  # another workflow was chosen meanwhile; its runs are on their way
        self.tree.show_runs(rows.records, rows.interrupted)
        if not rows.records:
            self._shown_id = None
            self._show_message(NO_RUNS)
            return
        self.pages.setCurrentIndex(LIST_PAGE)
        self._apply_filter()
        waiting, self._to_select = self._to_select, None
        if waiting is not None and self.select_execution(waiting):
            return
        self._on_selection_changed(reload=True)

    def _show_message(self, text: str, retry: bool = False) -> None:
        self.message.setText(text)
        self.retry_button.setVisible(retry)
        self.pages.setCurrentIndex(MESSAGE_PAGE)
        self._update_actions([])

    def _show_failure(self, error: Exception) -> None:
        log.warning("could not load runs", exc_info=error)
        self._show_message(f"Could not load the runs: {error}", retry=True)

    def _load_detail(self, execution_id: str, announce: bool) -> None:
        def show(detail: RunDetail) -> None:
            if self.tree.selected_ids() != [execution_id]:
                return  # the person moved on while it was read
            self._shown_id = execution_id
            self.detail.show_execution(
                detail.record, detail.workflow, detail.tasks, detail.interrupted
            )
            if announce:
                self.executionSelected.emit(execution_id)

        # Any failure to read is shown with a way to try again, as for the list.
        self.reads.detail(execution_id, show, self._show_failure)

    def select_step(self, node_id: str) -> bool:
        """Show one step of the run in detail; False when the run shown has no such step."""
        return self.detail.select_step(node_id)

    # --- selection and filter --------------------------------------------------------------

    def selected_ids(self) -> list[str]:
        """The selected runs' ids, in list order (newest first)."""
        return self.tree.selected_ids()

    def select_execution(self, execution_id: str) -> bool:
        """Select one run; True when it was listed. Otherwise its workflow's runs are read
        (off the UI thread) and it is selected when they arrive, if it exists."""
        item = self.tree.item_for(execution_id)
        if item is None:
            self._load_owner_of(execution_id)
            return False
        if item.isHidden():
            self.filter_edit.clear()
            self.status_filter.setCurrentIndex(0)
        return self.tree.select_only(execution_id)

    def _load_owner_of(self, execution_id: str) -> None:
        def show_owner(record: ExecutionRecord) -> None:
            self._to_select = execution_id
            if record.workflow_id != self._workflow_id:
                self.show_workflow(record.workflow_id)
            else:
                self.refresh()

        self.reads.record(execution_id, show_owner)

    def _apply_filter(self) -> None:
        shown = self.tree.apply_filter(self.filter_edit.text(), self.status_filter.currentText())
        total = self.tree.run_count()
        runs = f"{total} run{'' if total == 1 else 's'}"
        text = runs if shown == total else f"{shown} of {runs}"
        if total >= RUN_LIMIT:
            text += f" (the newest {RUN_LIMIT})"
        self.summary.setText(text if shown else NO_MATCHES)

    def _on_selection_changed(self, reload: bool = False) -> None:
        ids = self.tree.selected_ids()
        self._update_actions(ids)
        if not ids:
            self._shown_id = None
            self.detail.show_nothing()
        if len(ids) != 1:
            return
        changed = ids[0] != self._shown_id
        if changed or reload:
            self._load_detail(ids[0], announce=changed)

    def _update_actions(self, ids: list[str]) -> None:
        one = len(ids) == 1
        for key in ("canvas", "replay", "rerun", "artifacts"):
            self.run_actions[key].setEnabled(one)
        self.run_actions["resume"].setEnabled(one and self.tree.is_interrupted(ids[0]))
        self.run_actions["compare"].setEnabled(len(ids) == 2)

    # --- intents ---------------------------------------------------------------------------

    def _trigger(self, key: str) -> None:
        ids = self.tree.selected_ids()
        if key == "compare" and len(ids) == 2:
            older, newer = self.tree.oldest_first(ids)
            self.compareRequested.emit(older, newer)
            return
        signals = {
            "canvas": self.showOnCanvasRequested,
            "replay": self.replayRequested,
            "rerun": self.rerunRequested,
            "resume": self.resumeRequested,
            "artifacts": self.artifactsRequested,
        }
        if len(ids) == 1 and key in signals:
            signals[key].emit(ids[0])

    def _on_activated(self, item: QTreeWidgetItem) -> None:
        self.showOnCanvasRequested.emit(item.data(0, ID_ROLE))

    def context_menu(self) -> QMenu:
        """The menu for the selected rows: the actions that apply to them."""
        menu = QMenu(self)
        for key, *_ in ACTIONS:
            if self.run_actions[key].isEnabled():
                menu.addAction(self.run_actions[key])
        return menu

    def _open_context_menu(self, position: QPoint) -> None:
        menu = self.context_menu()
        if not menu.isEmpty():
            menu.exec(self.tree.viewport().mapToGlobal(position))
