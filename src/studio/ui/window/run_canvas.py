"""Drawing runs on canvases: which run a canvas shows, the overlay that draws it, and a
stored run opened on its workflow's canvas. Shared by the Run menu and the run docks."""

from typing import Any

from studio.model.errors import StudioError
from studio.model.run_view import RunView
from studio.ui.run.overlay import RunOverlay
from studio.ui.run.run_controller import RunController
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace


class RunCanvas:
    """Runs on the canvases of the open tabs."""

    def __init__(
        self, workspace: Workspace, tabs: WorkflowTabs, status: StatusSink, runs: RunController
    ) -> None:
        self.workspace, self.tabs, self.status, self.runs = workspace, tabs, status, runs

    def show_execution(self, execution_id: str) -> RunOverlay | None:
        """Open the execution's workflow and draw the run on it, as the store has it."""
        try:
            record = self.workspace.executions.get(execution_id)
        except StudioError as failure:
            self.status.problem(str(failure))
            return None
        tab = self.tabs.open(record.workflow_id)
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

    def latest_execution(self) -> str | None:
        """The latest run of the workflow in front."""
        tab = self.tabs.current()
        if tab is None:
            return None
        latest = self.workspace.executions.find(workflow_id=tab.workflow_id, limit=1)
        return latest[0].execution_id if latest else None

    def _node_output(self, execution_id: str, node_id: str) -> Any:
        return self.workspace.executions.node_output(execution_id, node_id)
