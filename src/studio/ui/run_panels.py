"""The run panels of the main window: run history, approvals, replay and comparison, and the
notice about runs a closed or killed Studio left unfinished. A part of MainWindow."""

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QToolButton

from studio.model.execution import FAILED, PENDING, RUNNING
from studio.ui.run.approvals_panel import ApprovalsPanel
from studio.ui.run.compare_view import CompareView
from studio.ui.run.history_panel import RunHistoryPanel
from studio.ui.run.replay_bar import ReplayBar

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


class RunPanels:
    """Docks that list runs and decisions; MainWindow mixes this in."""

    def _build_run_docks(self, below: QDockWidget) -> None:
        self.history = RunHistoryPanel(self.workspace, runner=self.runs.runner)
        self.approvals = ApprovalsPanel(self.workspace, self.runs.decide)
        self.history_dock = self._dock("Runs", self.history, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.approvals_dock = self._dock(
            "Approvals", self.approvals, Qt.DockWidgetArea.BottomDockWidgetArea
        )
        self.tabifyDockWidget(below, self.history_dock)
        self.tabifyDockWidget(self.history_dock, self.approvals_dock)
        below.raise_()
        self.panel_refresh = QTimer(self, singleShot=True, interval=PANEL_REFRESH_MS)
        self.panel_refresh.timeout.connect(self._refresh_run_panels)
        self.compare_windows: list[CompareView] = []
        self._connect_run_panels()
        self.approvals.refresh()

    def _connect_run_panels(self) -> None:
        history = self.history
        history.showOnCanvasRequested.connect(self.show_execution)
        history.executionSelected.connect(self._follow_selection)
        history.replayRequested.connect(self.replay)
        history.compareRequested.connect(self.compare)
        history.resumeRequested.connect(self.resume)
        history.rerunRequested.connect(self.runs.rerun)
        self.approvals.countChanged.connect(self._show_approval_count)
        self.approvals.decided.connect(lambda *_decision: self.panel_refresh.start())
        self.runs.eventArrived.connect(self._refresh_on)
        self.runs.runEnded.connect(lambda *_ended: self.panel_refresh.start())

    # Commands ----------------------------------------------------------------------------

    def resume(self, execution_id: str) -> None:
        """Drive an interrupted run on, showing it on its canvas."""
        self.show_execution(execution_id)
        self.runs.resume(execution_id)
        self.panel_refresh.start()

    def replay(self, execution_id: str) -> ReplayBar | None:
        """Scrub through a past run on its canvas with the timeline under it."""
        overlay = self.show_execution(execution_id)
        tab = self.current_tab()
        if overlay is None or tab is None:
            return None
        executions = self.workspace.executions
        bar = tab.replay_bar
        bar.load(
            execution_id,
            executions.node_ids(execution_id),
            executions.events(execution_id),
            overlay,
        )
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

    def show_history_of_current(self) -> None:
        """Bring the Runs panel forward for the workflow in front."""
        self.history_dock.show()
        self.history_dock.raise_()
        self.history.setFocus()

    def show_approvals(self) -> None:
        """Bring the Approvals panel forward."""
        self.approvals_dock.show()
        self.approvals_dock.raise_()
        self.approvals.refresh()
        self.approvals.list.setFocus()

    # Interrupted runs ---------------------------------------------------------------------

    def announce_interrupted_runs(self) -> list[str]:
        """Runs a closed or killed Studio left unfinished: a status-bar button leads to them."""
        unfinished = [
            record
            for status in (RUNNING, PENDING, FAILED)  # failed: a rollback may be cut short
            for record in self.workspace.executions.find(status=status)
        ]
        interrupted = [r.execution_id for r in unfinished if self.runs.is_interrupted(r)]
        if interrupted:
            button = QToolButton(objectName="interruptedRunsButton")
            button.setToolTip("Runs that stopped when Studio closed; they can be resumed")
            button.clicked.connect(lambda: self._show_interrupted(interrupted, button))
            self.statusBar().addPermanentWidget(button)
            self.interrupted_button = button
            _count_interrupted(button, interrupted)
        return interrupted

    def _show_interrupted(self, interrupted: list[str], button: QToolButton) -> None:
        """Show the next interrupted run; the button stays while others are left."""
        execution_id = interrupted.pop(0)
        self.show_execution(execution_id)
        self.show_history_of_current()
        self.history.select_execution(execution_id)
        _count_interrupted(button, interrupted)

    # Keeping the panels current -----------------------------------------------------------

    def _follow_selection(self, execution_id: str) -> None:
        """Selecting a run in the list shows it on the canvas if its workflow is in front."""
        tab = self.current_tab()
        if tab is None or tab.replay_bar.isVisible():
            return
        record = self.workspace.executions.find(execution_id=execution_id)
        if record and record[0].workflow_id == tab.workflow_id:
            self.show_execution(execution_id)

    def _refresh_on(self, event) -> None:
        if event.type in REFRESHING_EVENTS and not self.panel_refresh.isActive():
            self.panel_refresh.start()

    def _refresh_run_panels(self) -> None:
        tab = self.current_tab()
        workflow_id = tab.workflow_id if tab else None
        if self.history.workflow_id != workflow_id:
            self.history.show_workflow(workflow_id)
        else:
            self.history.refresh()
        self.approvals.refresh()

    def _show_approval_count(self, count: int) -> None:
        self.approvals_dock.setWindowTitle(f"Approvals ({count})" if count else "Approvals")


def _count_interrupted(button: QToolButton, interrupted: list[str]) -> None:
    count = len(interrupted)
    button.setVisible(count > 0)
    button.setText(f"⏹ {count} interrupted run{'s' if count > 1 else ''} · Show")
