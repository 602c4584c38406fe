"""The Workflows mode: open workflows in tabs with the canvas given most of the window; the
Workflows list, the Inspector and the workflow settings share one column on the right (the
Inspector comes forward when a node or an edge is selected); problems, runs and approvals
share the bottom and come up when they have something to show.

This is where the parts meet: each controller gets the workspace, the tabs and the status
sink (and the shared parts it needs) and never another controller; what one controller's
panel asks of another's is wired here with signals."""

from concurrent.futures import Future

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QHBoxLayout, QMainWindow, QMenu, QWidget

from studio.ui.catalog.agents_panel import AgentsPanel
from studio.ui.run.replay_bar import ReplayBar
from studio.ui.run.run_controller import RunController
from studio.ui.run.sample_pin import pin_sample
from studio.ui.storage_fault_notice import EDITS_KEPT
from studio.ui.window.action_table import ActionSpec, build_toolbar
from studio.ui.window.agent_library_view import AgentLibraryView
from studio.ui.window.blueprint_updates import BlueprintUpdates
from studio.ui.window.catalog_actions import CatalogActions
from studio.ui.window.edit_actions import EditActions
from studio.ui.window.live_problems import LiveProblems
from studio.ui.window.live_runs import LiveRuns
from studio.ui.window.mode import Mode
from studio.ui.window.recent_files import RecentFiles
from studio.ui.window.run_actions import RunActions
from studio.ui.window.run_canvas import RunCanvas
from studio.ui.window.run_docks import RunDocks
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.stored_lists import StoredLists
from studio.ui.window.tab_status import TabStatus
from studio.ui.window.workflow_actions import WorkflowActions
from studio.ui.window.workflow_panels import WorkflowPanels
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_list import WorkflowListPanel
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace

Area = Qt.DockWidgetArea
FIRST_SIDE_WIDTH = 280
FIRST_BOTTOM_HEIGHT = 220
PROBLEMS_HEIGHT = 150
"""The Problems panel when it comes up on its own: its summary and a few problems."""
RUN_SHARE = 0.42
"""The part of the window's height a run below the canvas gets: its steps and a step's data."""


class WorkflowsMode(Mode):
    """Drawing, running and tracing workflows."""

    artifactsRequested = Signal(str)  # an execution id: show what that run produced
    ingestRequested = Signal()  # the welcome page asked to ingest a folder of knowledge

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
        self.live_problems = LiveProblems(workspace, self.tabs, self.panels, self)
        self.agents_panel = AgentsPanel()
        self.agent_library = AgentLibraryView(workspace, status, self.agents_panel)
        self.tab_status = TabStatus(workspace, self.tabs, parent)
        self.blueprint_updates = BlueprintUpdates(workspace, self.tabs, status, parent)
        parent.statusBar().addWidget(self.tab_status, 1)
        badge_box = QWidget(parent)  # shown with the mode; the badge only while an update waits
        row = QHBoxLayout(badge_box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.blueprint_updates.badge)
        parent.statusBar().addPermanentWidget(badge_box)  # a passing message leaves it be
        self.status_widgets += [self.tab_status, badge_box]
        self._problems_brought_up = False
        self._build_docks()
        self._wire()
        self.lists.refresh()

    def _build_docks(self) -> None:
        self.workflows_dock = self.add_dock("Workflows", self.lists.panel, Area.RightDockWidgetArea)
        self.inspector_dock = self.add_dock(
            "Inspector", self.panels.inspector, Area.RightDockWidgetArea
        )
        self.settings_dock = self.add_dock(
            "Workflow", self.panels.config_panel, Area.RightDockWidgetArea
        )
        self.agents_dock = self.add_dock("Agents", self.agents_panel, Area.RightDockWidgetArea)
        self.agents_dock.visibilityChanged.connect(
            lambda shown: self.agent_library.refresh_once() if shown else None
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
        window.tabifyDockWidget(self.workflows_dock, self.inspector_dock)
        window.tabifyDockWidget(self.inspector_dock, self.settings_dock)
        window.tabifyDockWidget(self.settings_dock, self.agents_dock)
        window.tabifyDockWidget(self.problems_dock, self.runs_dock)
        window.tabifyDockWidget(self.problems_dock, self.approvals_dock)
        self.workflows_dock.raise_()
        self.problems_dock.raise_()

    def bring_up(self, dock: QDockWidget) -> None:
        """Show a dock (it may have been closed) and bring it to the front of its group,
        with the room below the canvas it needs to be read (problems a few lines; a run its
        steps and a step's data)."""
        came_up = dock.isHidden()
        if came_up:
            dock.show()
        dock.raise_()
        wanted = self._room_below(dock)
        if came_up or dock.height() < wanted:
            self.window.resizeDocks([dock], [wanted], Qt.Orientation.Vertical)

    def _room_below(self, dock: QDockWidget) -> int:
        if dock is self.problems_dock:
            return PROBLEMS_HEIGHT
        return max(FIRST_BOTTOM_HEIGHT, int(self.window.height() * RUN_SHARE))

    def show_run(self, execution_id: str) -> "Future[ReplayBar | None]":
        """Open a run's workflow and replay the run on its canvas."""
        return self.run_docks.replay(execution_id)

    def _wire(self) -> None:
        self.run_docks.history.artifactsRequested.connect(self.artifactsRequested)
        self._wire_welcome()
        self.tabs.storedChanged.connect(self.lists.refresh)
        self.catalog.blueprintSaved.connect(lambda _blueprint: self.blueprint_updates.check())
        self.tabs.broughtForward.connect(self.showRequested)
        self.tabs.opened.connect(self._opened)
        self.panels.titleChanged.connect(self.titleChanged)
        self.panels.nodeShown.connect(self.run_docks.select_step)
        self.run_docks.history.detail.samplePinned.connect(
            lambda workflow_id, node_id, output: self.status.show(
                pin_sample(self.tabs.of(workflow_id), node_id, output)
            )
        )
        self.panels.inspected.connect(lambda: self.bring_up(self.inspector_dock))
        self.panels.problemsShown.connect(self._problems_shown)
        self.runs.runStarted.connect(lambda *_args: self.bring_up(self.runs_dock))
        self.live_runs.runsChanged.connect(self.run_docks.refresh_timer.start)
        self.run_docks.approvals.countChanged.connect(lambda count: self._approvals_waiting(count))

    def _problems_shown(self, count: int) -> None:
        """The Problems dock comes up when there are problems, and goes again when they are
        gone if it came up on its own (not when the person opened it)."""
        if count and self.problems_dock.isHidden():
            self._problems_brought_up = True
            self.bring_up(self.problems_dock)
        elif not count and self._problems_brought_up:
            self._problems_brought_up = False
            self.problems_dock.hide()

    def _approvals_waiting(self, count: int) -> None:
        self.approvals_dock.setWindowTitle(f"Approvals ({count})" if count else "Approvals")
        if count:
            self.bring_up(self.approvals_dock)

    def _fold_bottom(self) -> None:
        """The first layout: the bottom docks wait until they have something to show, and the
        agent library until it is asked for."""
        for dock in (self.problems_dock, self.runs_dock, self.approvals_dock, self.agents_dock):
            dock.hide()
        self._problems_brought_up = False
        self.workflows_dock.raise_()

    def _wire_welcome(self) -> None:
        welcome = self.tabs.welcome
        welcome.newAsked.connect(self.files.new_workflow)
        welcome.openAsked.connect(self.files.import_file)
        welcome.recentChosen.connect(self.files.open_workflow_file)
        welcome.blueprintAsked.connect(self.catalog.browse)
        welcome.ingestAsked.connect(self.ingestRequested)
        self.tabs.currentChanged.connect(
            lambda tab: welcome.show_recent(self.recent.files()) if tab is None else None
        )
        welcome.show_recent(self.recent.files())

    def _opened(self, tab: WorkflowTab) -> None:
        tab.editor.message.connect(lambda text: self.status.show(text))
        tab.editor.edgeSelected.connect(lambda edge_id: self._edge_shown(tab, edge_id))
        tab.autosaver.faulted.connect(lambda fault: self.status.fault(fault, EDITS_KEPT))

    def _edge_shown(self, tab: WorkflowTab, edge_id: str) -> None:
        """The run shown below follows a selected edge to what flowed along it."""
        edge = tab.editor.document.edge(edge_id)
        if edge is not None:
            self.run_docks.select_step(edge.source)

    # What the window asks of a mode ------------------------------------------------------

    def central(self) -> QWidget:
        return self.tabs.widget

    def action_specs(self) -> list[ActionSpec]:
        controllers = (
            self.files,
            self.catalog,
            self.blueprint_updates,
            self.edits,
            self.run_actions,
            self.run_docks,
        )
        specs = [spec for controller in controllers for spec in controller.action_specs()]
        return [*specs, ActionSpec("agent_library", "Agent &Library", None, self.show_agents)]

    def show_agents(self) -> None:
        """Bring the Agents dock forward (it waits, closed, until asked for)."""
        self.agents_dock.show()
        self.agents_dock.raise_()

    def submenus(self) -> dict[str, QMenu]:
        """Menus inside menus: Open Recent."""
        return {"recent": self.recent.menu}

    def install_actions(self, actions: dict[str, QAction]) -> None:
        """The mode's actions are built: its toolbar shows some of them."""
        actions["add_node"].setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.toolbar = build_toolbar(self.window, "Workflow", actions)

    def first_show(self) -> None:
        window = self.window
        window.resizeDocks([self.workflows_dock], [FIRST_SIDE_WIDTH], Qt.Orientation.Horizontal)
        window.resizeDocks([self.problems_dock], [FIRST_BOTTOM_HEIGHT], Qt.Orientation.Vertical)
        self._fold_bottom()

    def shown(self, restored: bool) -> None:
        if not restored:
            self._fold_bottom()

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
