"""The status bar's account of the workflow in front: its name, state and version, and how
many nodes and edges it has, kept up to date as it is edited and as tabs change; with no
workflow open, what the workspace holds (counting the agents reads the agent registry, so it is
counted on the store thread and shows a moment after the window). News in the status bar
covers it for a moment."""

from concurrent.futures import Future

from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from studio.model import Workflow
from studio.ui.store_calls import StoreCalls
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace


def tab_summary(workflow: Workflow) -> str:
    """ "Greet · draft v2 · 3 nodes, 2 edges"."""
    nodes, edges = len(workflow.nodes), len(workflow.edges)
    return (
        f"{workflow.name} · {workflow.status.lower()} v{workflow.version} · "
        f"{nodes} node{'' if nodes == 1 else 's'}, {edges} edge{'' if edges == 1 else 's'}"
    )


def workspace_summary(workspace: Workspace) -> str:
    """ "2 agents · 5 blueprints · data in /home/me/.studio"."""
    agents, blueprints = len(workspace.agents), len(workspace.blueprints)
    return (
        f"{agents} agent{'' if agents == 1 else 's'} · "
        f"{blueprints} blueprint{'' if blueprints == 1 else 's'} · data in {workspace.data_dir}"
    )


class TabStatus(QLabel):
    """Follows the tab in front."""

    def __init__(self, workspace: Workspace, tabs: WorkflowTabs, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("tabStatus")
        # A long name or data path is cut at the window's edge, never widens the window.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.workspace, self.tabs = workspace, tabs
        self.store = StoreCalls(parent=self)
        self.summary_shown: Future[str] = Future()
        """The workspace's summary, once it shows (or why it could not be read)."""
        tabs.opened.connect(self._watch)
        tabs.currentChanged.connect(lambda _tab: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        """Say what the tab in front is now (or what the workspace holds, once counted)."""
        tab = self.tabs.current()
        if tab is None:
            self._count_workspace()
        else:
            self.setText(tab_summary(tab.editor.document.snapshot()))

    def _count_workspace(self) -> None:
        shown: Future[str] = Future()
        self.summary_shown = shown
        self.store.call(
            lambda: workspace_summary(self.workspace),
            lambda text: self._summary_read(shown, text),
            lambda failure: self._summary_read(shown, f"cannot count the agents: {failure}"),
        )

    def _summary_read(self, shown: "Future[str]", text: str) -> None:
        if shown is self.summary_shown and self.tabs.current() is None:
            self.setText(text)
        shown.set_result(text)

    def _watch(self, tab: WorkflowTab) -> None:
        tab.editor.document.subscribe(lambda _event: self._edited(tab))

    def _edited(self, tab: WorkflowTab) -> None:
        if tab is self.tabs.current():
            self.refresh()
