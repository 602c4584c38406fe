"""Drawing runs on canvases: which run a canvas shows, the overlay that draws it, and a
stored run opened on its workflow's canvas. Shared by the Run menu and the run docks.

What a canvas draws is read on the store thread and drawn when the answer arrives: the
commands here return a Future the UI thread resolves once the canvas shows it."""

from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar

import shiboken6

from studio.model import Workflow
from studio.model.errors import StudioError
from studio.model.execution import ExecutionEvent, ExecutionRecord
from studio.model.run_view import RunView
from studio.store.errors import StorageFaultError
from studio.ui.run.edge_flow import preview_text
from studio.ui.run.overlay import RunOverlay
from studio.ui.run.run_controller import RunController
from studio.ui.store_calls import StoreCalls
from studio.ui.window.answers import after_store, answered
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace

T = TypeVar("T")
OUTPUTS_KEPT = 64
"""Node outputs kept for the edge previews; older ones are read again when hovered."""
READING_OUTPUT = "(reading the output from the database…)"
"""An edge's preview while its node's output is still being read."""


@dataclass(frozen=True)
class StoredRun:
    """One run as the store has it, read in one go on the store thread."""

    record: ExecutionRecord
    workflow: Workflow
    node_ids: list[str]
    events: list[ExecutionEvent]

    def view(self) -> RunView:
        """The run as its event log tells it."""
        return RunView.folded(self.record.execution_id, self.node_ids, self.events)


class RunCanvas:
    """Runs on the canvases of the open tabs."""

    def __init__(
        self, workspace: Workspace, tabs: WorkflowTabs, status: StatusSink, runs: RunController
    ) -> None:
        self.workspace, self.tabs, self.status, self.runs = workspace, tabs, status, runs
        self.store = StoreCalls(parent=tabs)
        self._outputs: OrderedDict[tuple[str, str], Any] = OrderedDict()

    def show_execution(self, execution_id: str) -> "Future[RunOverlay | None]":
        """Open the execution's workflow and draw the run on it, as the store has it; the
        answer is the overlay, or None when the run could not be read (the person is told)."""
        return after_store(
            self.store,
            lambda: self.read_run(execution_id),
            self.draw,
            lambda failure: self.not_read(failure, execution_id),
        )

    def read_run(self, execution_id: str) -> StoredRun:
        """The run, its workflow and its event log (on the store thread)."""
        executions = self.workspace.executions
        record = executions.get(execution_id)
        return StoredRun(
            record,
            self.workspace.workflows.get(record.workflow_id),
            executions.node_ids(execution_id),
            executions.events(execution_id),
        )

    def draw(self, run: StoredRun, bring_forward: bool = True) -> RunOverlay:
        """Draw a run just read on its workflow's canvas, brought to the front (or, when
        following a selection, on its tab where it is: the person may be in another mode by
        now). A canvas that already shows the run further on (live events came after the
        read) keeps it."""
        tab = None if bring_forward else self.tabs.of(run.record.workflow_id)
        overlay = self.overlay_of(tab if tab is not None else self.tabs.show(run.workflow))
        view, shown = run.view(), overlay.view
        if shown is not None and _further(shown, view):
            view = shown
        if view is not shown and self.runs.is_interrupted(run.record):
            view = view.interrupted()
        overlay.show_view(view)
        if run.record.is_finished and not self.runs.is_driving(run.record.execution_id):
            overlay.fade_timer.stop()
        return overlay

    def not_read(self, failure: Exception, execution_id: str | None = None) -> None:
        """Tell the person a run could not be read: the database's fault, or why not (naming
        the run when it is known)."""
        if isinstance(failure, StorageFaultError):
            self.status.fault(failure)
        elif isinstance(failure, StudioError):
            run = "" if execution_id is None else f"Cannot show run {execution_id}: "
            self.status.problem(f"{run}{failure}")
        else:
            raise failure

    def run_view(self, execution_id: str) -> RunView:
        """The run as its stored event log tells it, read on the calling thread."""
        executions = self.workspace.executions
        node_ids = executions.node_ids(execution_id)
        return RunView.folded(execution_id, node_ids, executions.events(execution_id))

    def overlay_of(self, tab: WorkflowTab) -> RunOverlay:
        """The tab's run overlay, made on first use."""
        overlay = tab.overlay
        if overlay is None:
            overlay = tab.overlay = RunOverlay(tab.editor.scene, self._node_output, tab)
        return overlay

    def overlays_of(self, execution_id: str) -> list[RunOverlay]:
        """The overlays showing an execution now."""
        overlays = [tab.overlay for tab in self.tabs]
        return [o for o in overlays if o is not None and o.execution_id == execution_id]

    def shown_execution(self) -> str | None:
        """The run on the canvas in front."""
        tab = self.tabs.current()
        if tab is None or tab.overlay is None:
            return None
        return tab.overlay.execution_id

    def latest_execution(self, found: Callable[[str | None], T]) -> "Future[T | None]":
        """Read the latest run of the workflow in front, then ``found(its id or None)``; a
        read that fails is told to the person instead."""
        tab = self.tabs.current()
        if tab is None:
            return answered(found(None))
        workflow_id = tab.workflow_id

        def latest() -> str | None:
            records = self.workspace.executions.find(workflow_id=workflow_id, limit=1)
            return records[0].execution_id if records else None

        return after_store(self.store, latest, found, self.not_read)

    def _node_output(self, execution_id: str, node_id: str) -> Any:
        """A node's output for an edge's preview: kept from an earlier read, or asked for
        now; the previews of its edges fill in when it arrives."""
        key = (execution_id, node_id)
        if key in self._outputs:
            self._outputs.move_to_end(key)
            return self._outputs[key]
        self.store.call(
            lambda: self.workspace.executions.node_output(execution_id, node_id),
            lambda output: self._keep_output(key, output),
            self.not_read,
        )
        return READING_OUTPUT

    def _keep_output(self, key: tuple[str, str], output: Any) -> None:
        self._outputs[key] = output
        while len(self._outputs) > OUTPUTS_KEPT:
            self._outputs.popitem(last=False)
        execution_id, node_id = key
        for overlay in self.overlays_of(execution_id):
            for flow in overlay.flows.values():
                if flow.edge.source.node_id == node_id and shiboken6.isValid(flow.label):
                    flow.label.setToolTip(preview_text(output))


def _further(shown: RunView, stored: RunView) -> bool:
    """Whether the canvas shows the same run as the store did, further on."""
    return shown.execution_id == stored.execution_id and shown.last_seq > stored.last_seq
