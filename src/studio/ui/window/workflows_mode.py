"""The Workflows mode: open workflows in tabs, the Workflows dock on the left, the Inspector
and workflow settings on the right, problems, runs and approvals below.

This is where the parts meet: each controller gets the workspace, the tabs and the status
sink (and the shared parts it needs) and never another controller; what one controller's
panel asks of another's is wired here with signals."""

from concurrent.futures import Future

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu, QWidget

from studio.ui.run.replay_bar import ReplayBar
from studio.ui.run.run_controller import RunController
from studio.ui.storage_fault_notice import EDITS_KEPT
from studio.ui.window.action_table import ActionSpec, build_toolbar
from studio.ui.window.catalog_actions import CatalogActions
from studio.ui.window.edit_actions import EditActions
from studio.ui.window.live_runs import LiveRuns
from studio.ui.window.mode import Mode
from studio.ui.window.recent_files import RecentFiles
from studio.ui.window.run_actions import RunActions
from studio.ui.window.run_canvas import RunCanvas
from studio.ui.window.run_docks import RunDocks
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.stored_lists import StoredLists
from studio.ui.window.workflow_actions import WorkflowActions
from studio.ui.window.workflow_panels import WorkflowPanels
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_list import WorkflowListPanel
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace

Area = Qt.DockWidgetArea
FIRST_SIDE_WIDTHS = (220, 320)
FIRST_BOTTOM_HEIGHT = 250


class WorkflowsMode(Mode):
    """Drawing, running and tracing workflows."""

    artifactsRequested = Signal(str)  # an execution id: show what that run produced

    def __init__(
        self, workspace: Workspace, status: StatusSink, settings: QSettings, parent: QMainWindow
    ) -> None:
        super().__init__("workflows", "Workflows", "Ctrl+1", parent)
        self.workspace, self.status = workspace, status
        self.tabs = WorkflowTabs(workspace, parent)
        self.panels = WorkflowPanels(workspace, self.tabs, parent)
        self.lists = StoredLists(workspace, WorkflowListPanel())
        self.recent = RecentFiles(settings, parent)
        self.runs = RunController(workspace, parent=self)
        self.run_canvas = RunCanvas(workspace, self.tabs, status, self.runs)
        self.live_runs = LiveRuns(workspace, self.tabs, status, self.runs, self.run_canvas)
        parts = (workspace, self.tabs, status)
        self.files = WorkflowActions(*parts, self.lists, self.panels, self.recent)
        self.catalog = CatalogActions(*parts, self.lists, self.panels)
        self.edits = EditActions(*parts)
        self.run_actions = RunActions(*parts, self.runs, self.run_canvas)
        self.run_docks = RunDocks(*parts, self.runs, self.run_canvas)
        self._build_docks()
        self._wire()
        self.lists.refresh()

    def _build_docks(self) -> None:
        self.workflows_dock = self.add_dock("Workflows", self.lists.panel, Area.LeftDockWidgetArea)
        self.inspector_dock = self.add_dock(
            "Inspector", self.panels.inspector, Area.RightDockWidgetArea
        )
        self.settings_dock = self.add_dock(
            "Workflow", self.panels.config_panel, Area.RightDockWidgetArea
        )
        self.problems_dock = self.add_dock(
            "Problems", self.panels.problems, Area.BottomDockWidgetArea
        )
        self.runs_dock = self.add_dock("Runs", self.run_docks.history, Area.BottomDockWidgetArea)
        self.approvals_dock = self.add_dock(
            "Approvals", self.run_docks.approvals, Area.BottomDockWidgetArea
        )
        self.place_docks()

    def place_docks(self) -> None:
        window = self.window
        window.tabifyDockWidget(self.settings_dock, self.inspector_dock)
        window.tabifyDockWidget(self.problems_dock, self.runs_dock)
        window.tabifyDockWidget(self.problems_dock, self.approvals_dock)
        self.problems_dock.raise_()

    def show_run(self, execution_id: str) -> "Future[ReplayBar | None]":
        """Open a run's workflow and replay the run on its canvas."""
        return self.run_docks.replay(execution_id)

    def _wire(self) -> None:
        self.run_docks.history.artifactsRequested.connect(self.artifactsRequested)
        self.tabs.storedChanged.connect(self.lists.refresh)
        self.tabs.broughtForward.connect(self.showRequested)
        self.tabs.opened.connect(self._opened)
        self.panels.titleChanged.connect(self.titleChanged)
        self.panels.nodeShown.connect(self.run_docks.select_step)
        self.live_runs.runsChanged.connect(self.run_docks.refresh_timer.start)
        self.run_docks.approvals.countChanged.connect(
            lambda count: self.approvals_dock.setWindowTitle(
                f"Approvals ({count})" if count else "Approvals"
            )
        )

    def _opened(self, tab: WorkflowTab) -> None:
        tab.editor.message.connect(lambda text: self.status.show(text))
        tab.autosaver.faulted.connect(lambda fault: self.status.fault(fault, EDITS_KEPT))

    # What the window asks of a mode ------------------------------------------------------

    def central(self) -> QWidget:
        return self.tabs.widget

    def action_specs(self) -> list[ActionSpec]:
        controllers = (self.files, self.catalog, self.edits, self.run_actions, self.run_docks)
        return [spec for controller in controllers for spec in controller.action_specs()]

    def submenus(self) -> dict[str, QMenu]:
        """Menus inside menus: Open Recent."""
        return {"recent": self.recent.menu}

    def install_actions(self, actions: dict[str, QAction]) -> None:
        """The mode's actions are built: its toolbar shows some of them."""
        actions["add_node"].setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.toolbar = build_toolbar(self.window, "Workflow", actions)

    def first_show(self) -> None:
        window = self.window
        sides = [self.workflows_dock, self.inspector_dock]
        window.resizeDocks(sides, list(FIRST_SIDE_WIDTHS), Qt.Orientation.Horizontal)
        window.resizeDocks([self.problems_dock], [FIRST_BOTTOM_HEIGHT], Qt.Orientation.Vertical)

    def theme_changed(self) -> None:
        for tab in self.tabs:
            tab.editor.scene.apply_colors()

    def can_close(self) -> bool:
        return self.tabs.close_all()

    def shutdown(self) -> None:
        self.runs.shutdown()

    def title(self) -> str:
        tab = self.tabs.current()
        return f"{tab.editor.document.properties.name} — Studio" if tab else "Studio"

    def start(self) -> None:
        """The window is built: point at runs a closed or killed Studio left unfinished."""
        self.run_docks.announce_interrupted_runs()
