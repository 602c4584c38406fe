"""Running from the canvas: Run, Cancel, Re-run, Run from here and showing a run on the canvas.
A part of MainWindow."""

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QMessageBox

from studio.model.errors import StudioError
from studio.model.execution import EXECUTION_TERMINAL
from studio.model.run_view import RunView
from studio.store.errors import StorageFaultError
from studio.ui.run.collector_pause import CollectorPause
from studio.ui.run.overlay import RunOverlay
from studio.ui.run.run_controller import RunController
from studio.ui.run.run_input_dialog import RunInputDialog
from studio.ui.run.run_progress import RunProgress
from studio.ui.storage_fault_notice import RUN_NOT_STARTED, RUN_STOPPED
from studio.ui.window_actions import ActionSpec
from studio.ui.workflow_tab import WorkflowTab

FOLLOW_INTERVAL_MS = 500
"""How often a run driven by another process is read from the store while it is shown."""


class RunCommands:
    """What the Run menu does; MainWindow mixes this in."""

    def _build_runs(self) -> None:
        self.runs = RunController(self.workspace, parent=self)
        self.runs.eventArrived.connect(self._on_run_event)
        self.runs.runStarted.connect(self._on_run_started)
        self.runs.runEnded.connect(self._on_run_ended)
        self.runs.problem.connect(self._on_run_problem)
        self.runs.storageFault.connect(
            lambda fault, stopped: self.storage_faults.report(
                fault, RUN_STOPPED if stopped else RUN_NOT_STARTED
            )
        )
        self.run_progress = RunProgress(self)
        self.run_progress.showRequested.connect(self.show_execution)
        self.statusBar().addPermanentWidget(self.run_progress)
        self.live_runs: dict[str, RunView] = {}
        self.collector_pause = CollectorPause()
        self.run_names: dict[str, str] = {}  # execution id → workflow name, for the status bar
        self.run_input_dialog: RunInputDialog | None = None
        self.follow_timer = QTimer(self, interval=FOLLOW_INTERVAL_MS)
        self.follow_timer.timeout.connect(self._follow_stored_runs)
        self.follow_timer.start()

    def run_action_specs(self) -> list[ActionSpec]:
        """The Run menu's commands."""
        spec = ActionSpec
        return [
            spec("run", "&Run…", "F5", self.run_current, "Run the published workflow (F5)"),
            spec("cancel_run", "&Cancel Run", "Shift+F5", self.cancel_current_run),
            spec(
                "rerun", "R&e-run", "Ctrl+F5", self.rerun_current, "Run again with the same input"
            ),
            spec(
                "run_from_here",
                "Run from &Here",
                "Ctrl+Shift+F5",
                lambda: self.run_from_selected(),
                "Re-run the selected node and what depends on it, reusing the rest",
            ),
            spec("show_run", "&Show Last Run", "F6", self.show_last_run),
            spec("hide_run", "&Hide Run Overlay", "Shift+F6", self.hide_run),
        ]

    # Commands ----------------------------------------------------------------------------

    def run_current(self) -> RunInputDialog | None:
        """Ask for the input (filled with the last run's) and run the workflow in front."""
        tab = self.current_tab()
        if tab is None:
            return None
        if tab.autosaver.has_unsaved_changes:
            tab.autosaver.save_now()
        workflow = self._stored(tab.workflow_id)
        if workflow is None:
            return None
        if workflow.status != "PUBLISHED":
            self._on_run_problem(
                f"'{workflow.name}' is a draft. Only published workflows can be executed: "
                "publish it first (Ctrl+Shift+P)."
            )
            return None
        last = self.workspace.executions.find(workflow_id=workflow.id, limit=1)
        dialog = RunInputDialog(workflow.name, last[0].input if last else None, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.runs.start(workflow.id, dialog.value()))
        self.run_input_dialog = dialog
        dialog.open()
        return dialog

    def cancel_current_run(self) -> None:
        """Cancel the run shown on the canvas in front."""
        execution_id = self._shown_execution()
        if execution_id is not None:
            self.runs.cancel(execution_id)

    def rerun_current(self) -> None:
        """Run again with the input of the run shown (or the last run of this workflow)."""
        execution_id = self._shown_execution() or self._latest_execution()
        if execution_id is None:
            self._on_run_problem("This workflow has not run yet: use Run (F5).")
            return
        self.runs.rerun(execution_id)

    def run_from_selected(self, node_id: str | None = None) -> None:
        """Re-run a node (the selected one) and its dependants, reusing the other results."""
        tab = self.current_tab()
        if tab is None:
            return
        if node_id is None:
            selected = tab.editor.scene.selected_node_ids()
            if len(selected) != 1:
                self._on_run_problem("Select one node to run from.")
                return
            node_id = selected[0]
        execution_id = self._shown_execution() or self._latest_execution()
        if execution_id is None:
            self._on_run_problem("Run the workflow once first; Run from here reuses its results.")
            return
        self.runs.run_from(execution_id, node_id)

    def show_last_run(self) -> None:
        """Show the latest run of the workflow in front on its canvas."""
        execution_id = self._latest_execution()
        if execution_id is not None:
            self.show_execution(execution_id)

    def hide_run(self) -> None:
        """Take the run off the canvas in front."""
        tab = self.current_tab()
        if tab is not None and tab.overlay is not None:
            tab.overlay.clear()

    def show_execution(self, execution_id: str) -> RunOverlay | None:
        """Open the execution's workflow and draw the run on it, as the store has it."""
        try:
            record = self.workspace.executions.get(execution_id)
        except StudioError as failure:
            self._on_run_problem(str(failure))
            return None
        tab = self.open_workflow(record.workflow_id)
        if tab is None:
            return None
        overlay = self.overlay_of(tab)
        view = self.run_view(execution_id)
        if self.runs.is_interrupted(record):
            view = view.interrupted()
        overlay.show_view(view)
        if record.is_finished and not self.runs.is_driving(execution_id):
            overlay.fade_timer.stop()
        return overlay

    def run_view(self, execution_id: str) -> RunView:
        """The run as its stored event log tells it."""
        executions = self.workspace.executions
        node_ids = executions.node_ids(execution_id)
        return RunView.folded(execution_id, node_ids, executions.events(execution_id))

    def overlay_of(self, tab: WorkflowTab) -> RunOverlay:
        """The tab's run overlay, made on first use."""
        if tab.overlay is None:
            tab.overlay = RunOverlay(tab.editor.scene, self._node_output, tab)
        return tab.overlay

    # Events ------------------------------------------------------------------------------

    def _follow_stored_runs(self) -> None:
        """Runs shown but driven by another process (the CLI, another window): read their new
        events from the store, so the canvas follows them too."""
        for tab in self._tabs():
            overlay = tab.overlay
            view = overlay.view if overlay is not None else None
            if view is None or view.is_finished or self.runs.is_driving(view.execution_id):
                continue
            if tab.replay_bar.isVisible():
                continue  # a replay shows a past moment on purpose
            try:
                events = self.workspace.executions.events(view.execution_id, view.last_seq)
            except StorageFaultError as fault:  # shown once; the next tick tries again
                self.storage_faults.report(fault)
                return
            for event in events:
                overlay.apply(event)
            if overlay.view is not None and overlay.view.is_finished:
                overlay.fade_later()

    def _on_run_started(self, execution_id: str, workflow_id: str) -> None:
        self.collector_pause.hold(execution_id)
        view = self.live_runs[execution_id] = self.run_view(execution_id)
        tab = self._tab_of(workflow_id)
        if tab is not None:
            if tab.replay_bar.isVisible():
                tab.replay_bar.close_replay()  # the live run takes the canvas
            self.run_names[execution_id] = tab.editor.document.properties.name
            self.overlay_of(tab).show_view(view.copy())
        self._show_progress(execution_id)

    def _on_run_event(self, event) -> None:
        live = self.live_runs.get(event.execution_id)
        if live is None and event.type in ("execution.resumed", "execution.started"):
            self.collector_pause.hold(event.execution_id)
            live = self.live_runs[event.execution_id] = self.run_view(event.execution_id)
        if live is not None:
            live.apply(event)
        for tab in self._tabs():
            if tab.overlay is not None and tab.overlay.execution_id == event.execution_id:
                tab.overlay.apply(event)
        if live is None:
            return
        if live.is_finished:
            self._on_run_ended(event.execution_id, live.status)
        else:
            self._show_progress(event.execution_id)

    def _on_run_ended(self, execution_id: str, status: str) -> None:
        live = self.live_runs.pop(execution_id, None)
        self.collector_pause.release(execution_id)
        if live is None and status in EXECUTION_TERMINAL:
            return  # already told when its last event arrived
        name = self._workflow_name(execution_id)
        seconds = None
        if live is not None and live.started_at and live.finished_at:
            seconds = (live.finished_at - live.started_at).total_seconds()
        self.run_progress.ended(execution_id, name, status, seconds)
        for tab in self._tabs():
            overlay = tab.overlay
            shown = overlay is not None and overlay.execution_id == execution_id
            if shown and status in EXECUTION_TERMINAL:
                overlay.fade_later()
        self._runs_changed()

    def _on_run_problem(self, message: str) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, "Run", message, parent=self)
        box.setObjectName("runProblem")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): the run loop keeps going while the message is up

    def _runs_changed(self) -> None:
        """Hook for panels that list runs (history, approvals)."""

    # Helpers -----------------------------------------------------------------------------

    def _show_progress(self, execution_id: str) -> None:
        live = self.live_runs[execution_id]
        settled, total = live.progress()
        self.run_progress.running(execution_id, self._workflow_name(execution_id), settled, total)

    def _workflow_name(self, execution_id: str) -> str:
        if execution_id in self.run_names:
            return self.run_names[execution_id]
        try:
            (record,) = self.workspace.executions.find(execution_id=execution_id)
            name = self.workspace.workflows.get(record.workflow_id).name
        except (StudioError, ValueError):
            return execution_id[:8]
        self.run_names[execution_id] = name
        return name

    def _node_output(self, execution_id: str, node_id: str) -> Any:
        return self.workspace.executions.node_output(execution_id, node_id)

    def _shown_execution(self) -> str | None:
        tab = self.current_tab()
        if tab is None or tab.overlay is None:
            return None
        return tab.overlay.execution_id

    def _latest_execution(self) -> str | None:
        tab = self.current_tab()
        if tab is None:
            return None
        latest = self.workspace.executions.find(workflow_id=tab.workflow_id, limit=1)
        return latest[0].execution_id if latest else None

    def _stored(self, workflow_id: str):
        try:
            return self.workspace.workflows.get(workflow_id)
        except StudioError as failure:
            self._on_run_problem(str(failure))
            return None

    def _tabs(self) -> list[WorkflowTab]:
        tabs = (self.tabs.widget(index) for index in range(self.tabs.count()))
        return [tab for tab in tabs if isinstance(tab, WorkflowTab)]

    def _tab_of(self, workflow_id: str) -> WorkflowTab | None:
        return next((tab for tab in self._tabs() if tab.workflow_id == workflow_id), None)
