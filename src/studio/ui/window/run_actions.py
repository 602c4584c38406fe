"""The Run menu: run the workflow in front, cancel, run again, run from a node, and show or
hide a run on the canvas."""

from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from PySide6.QtCore import QObject, Qt

from studio.model.errors import StudioError
from studio.model.workflow import Workflow
from studio.store.errors import StorageFaultError
from studio.ui.run.run_controller import RunController
from studio.ui.run.run_input_dialog import RunInputDialog
from studio.ui.storage_fault_notice import RUN_NOT_STARTED, RUN_STOPPED
from studio.ui.store_calls import StoreCalls
from studio.ui.window.action_table import ActionSpec
from studio.ui.window.answers import after_store, answered
from studio.ui.window.run_canvas import RunCanvas
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.workspace import Workspace


class RunActions(QObject):
    """Starting and steering runs from the canvas."""

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
        self.input_dialog: RunInputDialog | None = None
        self.store = StoreCalls(parent=self)
        runs.problem.connect(status.problem)
        runs.storageFault.connect(
            lambda fault, stopped: status.fault(fault, RUN_STOPPED if stopped else RUN_NOT_STARTED)
        )
        tabs.opened.connect(
            lambda tab: tab.editor.node_actions.append(("Run from here", self.run_from_selected))
        )

    def action_specs(self) -> list[ActionSpec]:
        """The Run menu's commands."""
        spec = ActionSpec
        return [
            spec("run", "&Run…", "F5", self.run_current, "Run the published workflow"),
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

    def run_current(self) -> "Future[RunInputDialog | None]":
        """Ask for the input (filled with the last run's) and run the workflow in front; the
        workflow and its last input are read off the UI thread, and the answer is the
        dialog, or None when there is nothing to run."""
        tab = self.tabs.current()
        if tab is None:
            return answered(None)
        if tab.autosaver.has_unsaved_changes:
            tab.autosaver.save_now()
        workflow_id = tab.workflow_id
        return after_store(
            self.store, lambda: self._stored(workflow_id), self._ask_input, self._not_read
        )

    def _stored(self, workflow_id: str) -> tuple[Workflow, Any]:
        """The stored workflow and the input of its last run (on the store thread)."""
        workflow = self.workspace.workflows.get(workflow_id)
        last = self.workspace.executions.find(workflow_id=workflow.stored_id, limit=1)
        return workflow, last[0].input if last else None

    def _ask_input(self, stored: tuple[Workflow, Any]) -> RunInputDialog | None:
        workflow, last_input = stored
        if workflow.status != "PUBLISHED":
            self.status.problem(
                f"'{workflow.name}' is a draft. Only published workflows can be executed: "
                "publish it first (Ctrl+Shift+P)."
            )
            return None
        dialog = RunInputDialog(workflow.name, last_input, self.status.dialog_parent())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.runs.start(workflow.stored_id, dialog.value()))
        self.input_dialog = dialog
        dialog.open()
        return dialog

    def cancel_current_run(self) -> None:
        """Cancel the run shown on the canvas in front."""
        execution_id = self.canvas.shown_execution()
        if execution_id is not None:
            self.runs.cancel(execution_id)

    def rerun_current(self) -> "Future[object]":
        """Run again with the input of the run shown (or the last run of this workflow)."""
        return self._with_run(self.runs.rerun, "This workflow has not run yet: use Run (F5).")

    def run_from_selected(self, node_id: str | None = None) -> "Future[object]":
        """Re-run a node (the selected one) and its dependants, reusing the other results."""
        tab = self.tabs.current()
        if tab is None:
            return answered(None)
        if node_id is None:
            selected = tab.editor.scene.selected_node_ids()
            if len(selected) != 1:
                self.status.problem("Select one node to run from.")
                return answered(None)
            node_id = selected[0]
        chosen = node_id
        return self._with_run(
            lambda execution_id: self.runs.run_from(execution_id, chosen),
            "Run the workflow once first; Run from here reuses its results.",
        )

    def show_last_run(self) -> "Future[object]":
        """Show the latest run of the workflow in front on its canvas."""
        return self.canvas.latest_execution(
            lambda latest: None if latest is None else self.canvas.show_execution(latest)
        )

    def _with_run(self, act: Callable[[str], object], never_ran: str) -> "Future[object]":
        """``act`` on the run shown, or else on the latest run (read off the UI thread)."""
        shown = self.canvas.shown_execution()
        if shown is not None:
            return answered(act(shown))

        def on_latest(latest: str | None) -> object:
            if latest is None:
                self.status.problem(never_ran)
                return None
            return act(latest)

        return self.canvas.latest_execution(on_latest)

    def hide_run(self) -> None:
        """Take the run off the canvas in front."""
        tab = self.tabs.current()
        if tab is not None and tab.overlay is not None:
            tab.overlay.clear()

    def _not_read(self, failure: Exception) -> None:
        if isinstance(failure, StorageFaultError):
            self.status.fault(failure, RUN_NOT_STARTED)
        elif isinstance(failure, StudioError):
            self.status.problem(str(failure))
        else:
            raise failure
