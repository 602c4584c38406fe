"""The run docks: run history with replay and comparison, the approvals waiting for a
person, and the notice about runs a closed or killed Studio left unfinished."""

from concurrent.futures import Future

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QToolButton, QWidget

from studio.model.execution import FAILED, PENDING, RUNNING, ExecutionEvent
from studio.ui.panels.inline_message import window_is_dark
from studio.ui.run.approvals_panel import ApprovalsPanel
from studio.ui.run.compare_view import CompareView
from studio.ui.run.history_panel import RunHistoryPanel
from studio.ui.run.overlay import RunOverlay
from studio.ui.run.replay_bar import ReplayBar
from studio.ui.run.run_controller import RunController
from studio.ui.run.status_look import execution_look
from studio.ui.store_calls import StoreCalls
from studio.ui.window.action_table import ActionSpec
from studio.ui.window.answers import after_store, answered
from studio.ui.window.run_canvas import RunCanvas, StoredRun
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.workspace import Workspace

PANEL_REFRESH_MS = 250
"""Run events arrive in bursts; the lists are read again at most this often."""
REFRESHING_EVENTS = frozenset(
    {
        "execution.created",
        "execution.started",
        "execution.resumed",
        "execution.waiting",
        "execution.completed",
        "execution.failed",
        "execution.cancelled",
        "node.waiting",
        "approval.decided",
        "compensation.completed",
        "compensation.partial",
    }
)


class RunDocks(QObject):
    """The Runs and Approvals panels and what they ask for."""

    def __init__(
        self,
        workspace: Workspace,
        tabs: WorkflowTabs,
        status: StatusSink,
        runs: RunController,
        canvas: RunCanvas,
    ) -> None:
        super().__init__(tabs)
        self.workspace, self.tabs, self.status = workspace, tabs, status
        self.runs, self.canvas = runs, canvas
        self.store = StoreCalls(parent=self)
        self.history = RunHistoryPanel(workspace, runner_of=lambda: runs.runner)
        self.approvals = ApprovalsPanel(workspace, runs.decide)
        self.compare_windows: list[CompareView] = []
        self.interrupted_button: QToolButton | None = None
        self.refresh_timer = QTimer(self)
        self.refresh_timer.setSingleShot(True)
        self.refresh_timer.setInterval(PANEL_REFRESH_MS)
        self.refresh_timer.timeout.connect(self.refresh)
        self._connect()
        self.approvals.refresh()

    def action_specs(self) -> list[ActionSpec]:
        """Bringing the Runs and Approvals panels forward."""
        return [
            ActionSpec("runs_panel", "&Runs", "Ctrl+Shift+H", self.show_history),
            ActionSpec("approvals_panel", "A&pprovals", "Ctrl+Shift+A", self.show_approvals),
        ]

    def _connect(self) -> None:
        history = self.history
        history.showOnCanvasRequested.connect(self.canvas.show_execution)
        history.executionSelected.connect(self._follow_selection)
        history.replayRequested.connect(self.replay)
        history.compareRequested.connect(self.compare)
        history.resumeRequested.connect(self.resume)
        history.rerunRequested.connect(self.runs.rerun)
        self.approvals.decided.connect(lambda *_decision: self.refresh_timer.start())
        self.runs.eventArrived.connect(self._refresh_on)
        self.runs.runEnded.connect(lambda *_ended: self.refresh_timer.start())
        self.tabs.currentChanged.connect(
            lambda tab: history.show_workflow(tab.workflow_id if tab else None)
        )

    # Commands ----------------------------------------------------------------------------

    def resume(self, execution_id: str) -> None:
        """Drive an interrupted run on, showing it on its canvas."""
        self.canvas.show_execution(execution_id)
        self.runs.resume(execution_id)
        self.refresh_timer.start()

    def replay(self, execution_id: str) -> "Future[ReplayBar | None]":
        """Scrub through a past run on its canvas with the timeline under it (the run is
        read off the UI thread; the answer is the timeline, or None)."""
        canvas = self.canvas
        return after_store(
            self.store,
            lambda: canvas.read_run(execution_id),
            self._replay,
            lambda failure: canvas.not_read(failure, execution_id),
        )

    def _replay(self, run: StoredRun) -> ReplayBar | None:
        overlay = self.canvas.draw(run)
        tab = self.tabs.current()
        if tab is None:
            return None
        execution_id = run.record.execution_id
        bar = tab.replay_bar
        bar.load(execution_id, run.node_ids, run.events, overlay)
        bar.show()
        self.history.select_execution(execution_id)
        bar.slider.setFocus()
        return bar

    def compare(self, left_id: str, right_id: str) -> CompareView:
        """Two runs of one workflow side by side, in a window of their own."""
        view = CompareView(self.workspace)
        view.setWindowFlag(Qt.WindowType.Window)
        view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        view.setWindowTitle("Compare runs — Studio")
        view.resize(980, 620)
        view.compare(left_id, right_id)
        view.destroyed.connect(lambda: self.compare_windows.remove(view))
        self.compare_windows.append(view)
        view.show()
        return view

    def show_history(self) -> None:
        """Bring the Runs panel forward for the workflow in front."""
        _bring_forward(self.history)
        self.history.setFocus()

    def show_approvals(self) -> None:
        """Bring the Approvals panel forward."""
        _bring_forward(self.approvals)
        self.approvals.refresh()
        self.approvals.focus_list()

    def select_step(self, node_id: str) -> None:
        """The run shown below follows the node selected on the canvas."""
        self.history.select_step(node_id)

    # Interrupted runs ---------------------------------------------------------------------

    def announce_interrupted_runs(self) -> "Future[list[str]]":
        """Runs a closed or killed Studio left unfinished (read off the UI thread): a
        status-bar button leads to them. The answer is their ids."""

        def interrupted() -> list[str]:
            unfinished = [
                record
                for status in (RUNNING, PENDING, FAILED)  # failed: a rollback may be cut short
                for record in self.workspace.executions.find(status=status)
            ]
            return [r.execution_id for r in unfinished if self.runs.is_interrupted(r)]

        return after_store(self.store, interrupted, self._announce, self._not_listed)

    def _announce(self, interrupted: list[str]) -> list[str]:
        if interrupted:
            button = QToolButton()
            button.setObjectName("interruptedRunsButton")
            button.setIcon(execution_look(RUNNING, interrupted=True).qicon(window_is_dark()))
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            button.setToolTip("Runs that stopped when Studio closed; they can be resumed")
            button.clicked.connect(lambda: self._show_interrupted(interrupted, button))
            self.status.add_permanent(button)
            self.interrupted_button = button
            _count_interrupted(button, interrupted)
        return list(interrupted)

    def _not_listed(self, failure: Exception) -> list[str]:
        self.canvas.not_read(failure)
        return []

    def _show_interrupted(self, interrupted: list[str], button: QToolButton) -> None:
        """Show the next interrupted run; the button stays while others are left."""
        execution_id = interrupted.pop(0)
        self.canvas.show_execution(execution_id)
        self.show_history()
        self.history.select_execution(execution_id)
        _count_interrupted(button, interrupted)

    # Keeping the panels current -----------------------------------------------------------

    def _follow_selection(self, execution_id: str) -> "Future[RunOverlay | None]":
        """Selecting a run in the list shows it on the canvas if its workflow is in front
        (read off the UI thread, drawn if that is still so when the answer comes)."""
        if not self._canvas_follows():
            return answered(None)
        return after_store(
            self.store,
            lambda: self.canvas.read_run(execution_id),
            self._follow,
            self.canvas.not_read,
        )

    def _follow(self, run: StoredRun) -> RunOverlay | None:
        tab = self.tabs.current()
        if not self._canvas_follows() or tab is None or tab.workflow_id != run.record.workflow_id:
            return None
        return self.canvas.draw(run, bring_forward=False)

    def _canvas_follows(self) -> bool:
        tab = self.tabs.current()
        return tab is not None and not tab.replay_bar.isVisible()

    def _refresh_on(self, event: ExecutionEvent) -> None:
        if event.type in REFRESHING_EVENTS and not self.refresh_timer.isActive():
            self.refresh_timer.start()

    def refresh(self) -> None:
        """Read the runs of the workflow in front and the waiting decisions again."""
        tab = self.tabs.current()
        workflow_id = tab.workflow_id if tab else None
        if self.history.workflow_id != workflow_id:
            self.history.show_workflow(workflow_id)
        else:
            self.history.refresh()
        self.approvals.refresh()


def _bring_forward(panel: QWidget) -> None:
    dock = panel.parentWidget()
    if isinstance(dock, QDockWidget):
        dock.show()
        dock.raise_()


def _count_interrupted(button: QToolButton, interrupted: list[str]) -> None:
    count = len(interrupted)
    button.setVisible(count > 0)
    button.setText(f"{count} interrupted run{'s' if count > 1 else ''} · Show")
