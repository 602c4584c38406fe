"""Runs as they happen: the events of runs this window drives (and of runs driven by another
process that a canvas shows) reach the canvases and the progress in the status bar."""

from PySide6.QtCore import QObject, QTimer, Signal

from studio.model.errors import StudioError
from studio.model.execution import EXECUTION_TERMINAL, ExecutionEvent
from studio.model.run_view import RunView
from studio.store.errors import StorageFaultError
from studio.ui.run.collector_pause import CollectorPause
from studio.ui.run.run_controller import RunController
from studio.ui.run.run_progress import RunProgress
from studio.ui.window.run_canvas import RunCanvas
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.workspace import Workspace

FOLLOW_INTERVAL_MS = 500
"""How often a run driven by another process is read from the store while it is shown."""
PROGRESS_INTERVAL_MS = 100
"""The status bar's progress is drawn at most this often: a run of many quick nodes sends
hundreds of events a second, and repainting the bar for each would stall the window."""


class LiveRuns(QObject):
    """Folds run events into each run's view and onto the canvases showing it."""

    runsChanged = Signal()  # a run ended: lists of runs are stale

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
        self.progress = RunProgress()
        self.progress.showRequested.connect(canvas.show_execution)
        status.add_permanent(self.progress)
        self.views: dict[str, RunView] = {}
        self.collector_pause = CollectorPause()
        self.names: dict[str, str] = {}  # execution id → workflow name, for the status bar
        runs.eventArrived.connect(self.on_event)
        runs.runStarted.connect(self.on_started)
        runs.runEnded.connect(self.on_ended)
        self.follow_timer = QTimer(self)
        self.follow_timer.setInterval(FOLLOW_INTERVAL_MS)
        self.follow_timer.timeout.connect(self.follow_stored_runs)
        self.follow_timer.start()
        self._progress_due: set[str] = set()
        self.progress_timer = QTimer(self)
        self.progress_timer.setSingleShot(True)
        self.progress_timer.setInterval(PROGRESS_INTERVAL_MS)
        self.progress_timer.timeout.connect(self._draw_progress)

    def on_started(self, execution_id: str, workflow_id: str) -> None:
        """A run this window started: draw it on its canvas from the first moment."""
        self.collector_pause.hold(execution_id)
        view = self.views[execution_id] = self.canvas.run_view(execution_id)
        tab = self.tabs.of(workflow_id)
        if tab is not None:
            if tab.replay_bar.isVisible():
                tab.replay_bar.close_replay()  # the live run takes the canvas
            self.names[execution_id] = tab.editor.document.properties.name
            self.canvas.overlay_of(tab).show_view(view.copy())
        self._show_progress(execution_id)
        self._draw_progress()  # the first moment at once; later ones at most every 100 ms

    def on_event(self, event: ExecutionEvent) -> None:
        """One transition, already stored: onto the run's view and the canvases."""
        live = self.views.get(event.execution_id)
        if live is None and event.type in ("execution.resumed", "execution.started"):
            self.collector_pause.hold(event.execution_id)
            live = self.views[event.execution_id] = self.canvas.run_view(event.execution_id)
        if live is not None:
            live.apply(event)
        for overlay in self.canvas.overlays_of(event.execution_id):
            overlay.apply(event)
        if live is None:
            return
        if live.is_finished:
            self.on_ended(event.execution_id, live.status)
        else:
            self._show_progress(event.execution_id)

    def on_ended(self, execution_id: str, status: str) -> None:
        """A run stopped: say how it ended, and let its overlay fade."""
        live = self.views.pop(execution_id, None)
        self._progress_due.discard(execution_id)
        self.collector_pause.release(execution_id)
        if live is None and status in EXECUTION_TERMINAL:
            return  # already told when its last event arrived
        seconds = None
        if live is not None and live.started_at and live.finished_at:
            seconds = (live.finished_at - live.started_at).total_seconds()
        self.progress.ended(execution_id, self._workflow_name(execution_id), status, seconds)
        if status in EXECUTION_TERMINAL:
            for overlay in self.canvas.overlays_of(execution_id):
                overlay.fade_later()
        self.runsChanged.emit()

    def follow_stored_runs(self) -> None:
        """Runs shown but driven by another process (the CLI, another window): read their new
        events from the store, so the canvas follows them too."""
        for tab in self.tabs:
            overlay = tab.overlay
            view = overlay.view if overlay is not None else None
            if overlay is None or view is None or view.is_finished:
                continue
            if self.runs.is_driving(view.execution_id) or tab.replay_bar.isVisible():
                continue  # a replay shows a past moment on purpose
            try:
                events = self.workspace.executions.events(view.execution_id, view.last_seq)
            except StorageFaultError as fault:  # shown once; the next tick tries again
                self.status.fault(fault)
                return
            for event in events:
                overlay.apply(event)
            if overlay.view is not None and overlay.view.is_finished:
                overlay.fade_later()

    def _show_progress(self, execution_id: str) -> None:
        self._progress_due.add(execution_id)
        if not self.progress_timer.isActive():
            self.progress_timer.start()

    def _draw_progress(self) -> None:
        for execution_id in sorted(self._progress_due & set(self.views)):
            settled, total = self.views[execution_id].progress()
            name = self._workflow_name(execution_id)
            self.progress.running(execution_id, name, settled, total)
        self._progress_due.clear()

    def _workflow_name(self, execution_id: str) -> str:
        if execution_id in self.names:
            return self.names[execution_id]
        try:
            (record,) = self.workspace.executions.find(execution_id=execution_id)
            name = self.workspace.workflows.get(record.workflow_id).name
        except (StudioError, ValueError):
            return execution_id[:8]
        self.names[execution_id] = name
        return name
