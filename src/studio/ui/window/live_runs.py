"""Runs as they happen: the events of runs this window drives (and of runs driven by another
process that a canvas shows) reach the canvases and the progress in the status bar."""

from collections.abc import Callable

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
        self._reading: dict[str, list[ExecutionEvent]] = {}
        """Runs whose view is being read, with the events that arrived meanwhile."""
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
        """A run this window started: draw it on its canvas from the first moment (its view
        was read on the store thread as it started; read it there now if it was not)."""
        first = self.runs.first_view(execution_id)
        if first is None:
            self._read_view(execution_id, lambda view: self._started(view, workflow_id))
            return
        self.collector_pause.hold(execution_id)
        self.views[execution_id] = first
        self._started(first, workflow_id)

    def _started(self, view: RunView, workflow_id: str) -> None:
        tab = self.tabs.of(workflow_id)
        if tab is not None:
            if tab.replay_bar.isVisible():
                tab.replay_bar.close_replay()  # the live run takes the canvas
            self.names[view.execution_id] = tab.editor.document.properties.name
            self.canvas.overlay_of(tab).show_live(view.copy())
        self._carry_on(view)

    def on_event(self, event: ExecutionEvent) -> None:
        """One transition, already stored: onto the run's view and the canvases."""
        waiting = self._reading.get(event.execution_id)
        if waiting is not None:
            waiting.append(event)  # the run's view is being read: applied once it is there
            return
        live = self.views.get(event.execution_id)
        if live is None and event.type in ("execution.resumed", "execution.started"):
            self._read_view(event.execution_id, self._carry_on)
            self._reading[event.execution_id].append(event)
            return
        if live is not None:
            live.apply(event)
        for overlay in self.canvas.overlays_of(event.execution_id):
            overlay.apply(event)
        if live is not None:
            self._settle(live)

    def _read_view(self, execution_id: str, then: Callable[[RunView], None]) -> None:
        """Read a run's view on the store thread; events that arrive meanwhile wait for it.
        The answer comes after the events stored before the read and before those after."""
        self.collector_pause.hold(execution_id)
        self._reading[execution_id] = []
        read = self.canvas.run_view

        def arrived(view: RunView) -> None:
            for event in self._reading.pop(execution_id, []):
                if event.seq > view.last_seq:
                    view.apply(event)
            self.views[execution_id] = view
            then(view)

        def failed(failure: Exception) -> None:
            self._reading.pop(execution_id, None)
            self.collector_pause.release(execution_id)
            self.canvas.not_read(failure)

        self.canvas.store.call(lambda: read(execution_id), arrived, failed)

    def _carry_on(self, view: RunView) -> None:
        """A run's view is there: its progress now (later at most every 100 ms), or its end."""
        self._settle(view)
        self._draw_progress()

    def _settle(self, live: RunView) -> None:
        if live.is_finished:
            self.on_ended(live.execution_id, live.status)
        else:
            self._show_progress(live.execution_id)

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
                overlay.finish()
                overlay.fade_later()
        self.runsChanged.emit()

    def follow_stored_runs(self) -> None:
        """Runs shown but driven by another process (the CLI, another window): read their new
        events on the store thread, so the canvas follows them too. The timer waits while a
        read is out, so a busy database never piles reads up."""
        wanted: dict[str, int] = {}  # execution id → the last event its canvas shows
        for tab in self.tabs:
            overlay = tab.overlay
            view = overlay.view if overlay is not None else None
            if overlay is None or view is None or view.is_finished:
                continue
            if self.runs.is_driving(view.execution_id) or tab.replay_bar.isVisible():
                continue  # a replay shows a past moment on purpose
            shown = wanted.get(view.execution_id, view.last_seq)
            wanted[view.execution_id] = min(view.last_seq, shown)
        if not wanted:
            return
        executions = self.workspace.executions

        def read() -> dict[str, list[ExecutionEvent]]:
            return {eid: executions.events(eid, after) for eid, after in wanted.items()}

        def follow(news: dict[str, list[ExecutionEvent]]) -> None:
            self.follow_timer.start()
            for overlay in (tab.overlay for tab in self.tabs if not tab.replay_bar.isVisible()):
                view = overlay.view if overlay is not None else None
                if overlay is None or view is None or view.execution_id not in news:
                    continue
                for event in news[view.execution_id]:
                    if event.seq > view.last_seq:
                        overlay.apply(event)
                if view.is_finished:
                    overlay.fade_later()

        def failed(failure: Exception) -> None:
            self.follow_timer.start()  # shown once; the next tick tries again
            if not isinstance(failure, StorageFaultError):
                raise failure
            self.status.fault(failure)

        self.follow_timer.stop()
        self.canvas.store.call(read, follow, failed)

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
        """The run's workflow name for the status bar; read on the store thread the first
        time, its short id until the answer comes (a run still going is drawn again then)."""
        if execution_id in self.names:
            return self.names[execution_id]
        short = self.names[execution_id] = execution_id[:8]
        workspace = self.workspace

        def read() -> str:
            (record,) = workspace.executions.find(execution_id=execution_id)
            return workspace.workflows.get(record.workflow_id).name

        def named(name: str) -> None:
            self.names[execution_id] = name
            if execution_id in self.views:
                self._show_progress(execution_id)

        def unnamed(failure: Exception) -> None:
            if not isinstance(failure, (StudioError, ValueError)):
                raise failure

        self.canvas.store.call(read, named, unnamed)
        return short
