"""The Knowledge mode: the graph of landed artifacts in the middle with its timeline, Filters on
the left, the Artifact pane on the right, Insights and Changes below it.

The parts are built here and wired by ``GraphBrowser``; the mode adds the docks, the actions
and their toolbar, landing (drop, File menu) and export."""

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMainWindow, QWidget

from studio.knowledge.graph_view import ViewQuery
from studio.knowledge.knowledge_history import KnowledgeHistory
from studio.ui.knowledge.artifact_pane import ArtifactPane
from studio.ui.knowledge.artifact_reads import ArtifactReads
from studio.ui.knowledge.changes_list import ChangesList
from studio.ui.knowledge.export import choose_and_export
from studio.ui.knowledge.filters_panel import FiltersPanel
from studio.ui.knowledge.graph_browser import GraphBrowser
from studio.ui.knowledge.graph_canvas import KnowledgeCanvas
from studio.ui.knowledge.graph_session import GraphSession
from studio.ui.knowledge.insights_panel import InsightsPanel
from studio.ui.knowledge.knowledge_page import KnowledgePage
from studio.ui.knowledge.landing import (
    DropTarget,
    LandingController,
    choose_and_ingest_folder,
    choose_and_land_files,
)
from studio.ui.knowledge.landing_dialogs import LandingDialogs
from studio.ui.knowledge.timeline import Timeline
from studio.ui.window.action_table import ActionSpec, build_toolbar
from studio.ui.window.mode import Mode
from studio.ui.window.status_sink import StatusSink
from studio.workspace import Workspace

Area = Qt.DockWidgetArea
TOOLBAR = [
    "kg_ingest_folder", "kg_land_file", "kg_export", None, "kg_items", "kg_units", "kg_sections",
    None, "kg_focus", "kg_unfocus", None, "kg_upstream", "kg_downstream", "kg_clear_lineage",
    None, "kg_fit", None, "kg_compare", "kg_now",
]  # fmt: skip
"""The Knowledge mode's toolbar."""
SHORT_TEXTS = {
    "kg_ingest_folder": "Ingest",
    "kg_land_file": "Land",
    "kg_export": "Export",
    "kg_items": "Items",
    "kg_units": "Units",
    "kg_sections": "Sections",
    "kg_focus": "Focus",
    "kg_unfocus": "Whole graph",
    "kg_clear_lineage": "Clear",
    "kg_fit": "Fit",
    "kg_compare": "Compare…",
    "kg_now": "Now",
}
"""What the toolbar buttons say (the menus say more)."""
FIRST_SIDE_WIDTHS = (230, 380)
LIVE_RELOAD_MS = 300
"""How long after a run lands an artifact the graph reads the store again."""


class KnowledgeMode(Mode):
    """Browsing the knowledge graph: lineage, filters, time, insights, the artifacts' text."""

    def __init__(self, workspace: Workspace, status: StatusSink, parent: QMainWindow) -> None:
        super().__init__("knowledge", "Knowledge", "Ctrl+2", parent)
        self.workspace, self.status = workspace, status
        self.session = GraphSession(workspace, parent=self)
        self.canvas = KnowledgeCanvas()
        self.timeline = Timeline()
        self.page = KnowledgePage(self.canvas, self.timeline)
        self.filters = FiltersPanel()
        self.pane = ArtifactPane()
        self.insights = InsightsPanel()
        self.changes = ChangesList()
        self.artifacts = ArtifactReads(workspace, self.pane, self)
        parts = (self.filters, self.insights, self.changes, self.artifacts, status)
        self.browser = GraphBrowser(self.session, self.canvas, self.timeline, *parts)
        self.landing = LandingController(lambda: workspace.knowledge, parent=self)
        self.landing_dialogs = LandingDialogs(self.landing, parent)
        self.drop_targets = (  # the empty page, and the graph once there is one
            DropTarget(self.page, self.landing),
            DropTarget(self.canvas.view.viewport(), self.landing),
        )
        self.land_files = lambda: choose_and_land_files(status.dialog_parent(), self.landing)
        """Choose Markdown files and land them."""
        self.ingest_folder = lambda: choose_and_ingest_folder(status.dialog_parent(), self.landing)
        """Choose a folder and land its Markdown files in date order."""
        self.reload_timer = QTimer(self)
        self.reload_timer.setSingleShot(True)
        self.reload_timer.setInterval(LIVE_RELOAD_MS)
        self.reload_timer.timeout.connect(self.session.reload)
        self._stop_watching = workspace.watch_landings(
            lambda _ref: self.session.store.post(self._landed_by_a_run)
        )
        self._build_docks()
        self._wire()
        self._started = self._placed = False

    def _build_docks(self) -> None:
        self.filters_dock = self.add_dock("Filters", self.filters, Area.LeftDockWidgetArea)
        self.artifact_dock = self.add_dock("Artifact", self.pane, Area.RightDockWidgetArea)
        self.insights_dock = self.add_dock("Insights", self.insights, Area.RightDockWidgetArea)
        self.changes_dock = self.add_dock("Changes", self.changes, Area.RightDockWidgetArea)

    def _wire(self) -> None:
        self.page.empty.ingestAsked.connect(self.ingest_folder)
        self.page.empty.landAsked.connect(self.land_files)
        self.browser.historyShown.connect(lambda shown: self.page.set_empty(not shown))
        self.session.historyChanged.connect(  # on a turn of its own: the graph goes first
            lambda history: QTimer.singleShot(0, self, lambda: self._history_read(history))
        )
        self.landing.landed.connect(lambda _refs: self.session.reload())
        self.timeline.compareChanged.connect(
            lambda moment: self.changes_dock.raise_() if moment is not None else None
        )

    # Mode --------------------------------------------------------------------------------

    def central(self) -> QWidget:
        return self.page

    def action_specs(self) -> list[ActionSpec]:
        spec, b = ActionSpec, self.browser

        def layer(name: str) -> Callable[[bool], None]:
            return lambda on: self.session.change(**{name: on})

        def depth(n: int) -> Callable[[bool], None]:
            return lambda on: self.session.change(depth=n) if on else None

        return [
            spec("kg_land_file", "&Land Files…", None, self.land_files),
            spec("kg_ingest_folder", "&Ingest Folder…", None, self.ingest_folder),
            spec("kg_export", "E&xport View…", "Ctrl+E", self.export),
            spec(
                "kg_items",
                "Show Typed &Items",
                "Ctrl+Shift+I",
                layer("items"),
                checkable=True,
            ),
            spec("kg_units", "Show &Units", "Ctrl+Shift+U", layer("units"), checkable=True),
            spec("kg_sections", "Show &Sections", None, layer("sections"), checkable=True),
            spec("kg_focus", "&Focus on Selection", "Ctrl+Return", self.focus_selection),
            spec("kg_unfocus", "Show &Whole Graph", "Ctrl+Backspace", lambda: b.focus(None)),
            *[
                spec(f"kg_depth_{n}", f"Focus &Depth {n}", f"Alt+{n}", depth(n), checkable=True)
                for n in (1, 2, 3)
            ],
            spec("kg_upstream", "&Upstream", "Ctrl+[", lambda: b.trace("up")),
            spec("kg_downstream", "&Downstream", "Ctrl+]", lambda: b.trace("down")),
            spec("kg_clear_lineage", "&Clear Lineage", "Ctrl+\\", lambda: b.trace(None)),
            spec("kg_fit", "&Fit Graph", "Ctrl+0", self.canvas.fit_all),
            spec("kg_find", "&Find Node…", "Ctrl+F", self.canvas.open_find),
            spec("kg_search", "&Search Knowledge…", "Ctrl+K", self._search_field),
            spec("kg_compare", "&Compare With…", None, self.timeline.arm_compare),
            spec("kg_now", "Back to &Now", "Ctrl+Shift+N", self._now),
            spec("kg_refresh", "&Reload Graph", "F5", self.session.reload),
            spec("kg_relayout", "&Lay Out Afresh", "Ctrl+Shift+L", self.session.relayout),
        ]

    def install_actions(self, actions: dict[str, QAction]) -> None:
        self.actions = actions
        depths = QActionGroup(self)
        for n in (1, 2, 3):
            depths.addAction(actions[f"kg_depth_{n}"])
        actions["kg_depth_1"].setChecked(True)
        for name, text in SHORT_TEXTS.items():
            actions[name].setIconText(text)
        self.toolbar = build_toolbar(self.window, "Knowledge", actions, TOOLBAR)
        self.session.viewChanged.connect(lambda _drawn: self._sync_actions())

    def place_docks(self) -> None:
        self.window.tabifyDockWidget(self.insights_dock, self.changes_dock)
        self.insights_dock.raise_()

    def first_show(self) -> None:
        self.window.resizeDocks(
            [self.filters_dock, self.artifact_dock],
            list(FIRST_SIDE_WIDTHS),
            Qt.Orientation.Horizontal,
        )

    def start(self) -> None:
        """Read the history the first time the mode is shown (or started in)."""
        if not self._started:
            self._started = True
            self.session.reload()

    def shown(self, restored: bool) -> None:
        if not self._placed:  # not while the window is built: tabifying then would size it
            self._placed = True  # to every mode's docks at once
            if not restored:
                self.place_docks()
        self.start()

    def shutdown(self) -> None:
        self._stop_watching()
        self.landing.cancel()

    def title(self) -> str:
        return "Knowledge — Studio"

    # Commands ----------------------------------------------------------------------------

    def export(self) -> None:
        """Save the view as PNG or SVG, or the graph as GraphML or JSON."""
        drawn = self.session.current
        self.canvas.finish_drawing()  # a large graph is drawn over several turns
        if drawn is None:
            self.status.show("Nothing to export yet")
            return
        choose_and_export(
            self.status.dialog_parent(), self.canvas.scene, drawn.view.projection, drawn.positions
        )

    def show_query(self, query: ViewQuery) -> None:
        """Show the graph with these choices; the timeline and the toggles follow."""
        self.timeline.set_position(query.as_of)
        self.timeline.set_compare(query.compare_to)
        self.session.set_query(query)
        if query.compare_to is not None:
            self.changes_dock.raise_()

    def focus_selection(self) -> None:
        """Focus the neighbourhood of the selected node."""
        node = self.canvas.selected_node()
        if node:
            self.browser.focus(node)
        else:
            self.status.show("Select a node to focus on")

    def show_run(self, execution_id: str) -> None:
        """Show what a run produced, focused on the run."""
        self.start()
        self.browser.show_run(execution_id)

    def _history_read(self, history: KnowledgeHistory) -> None:
        self.artifacts.set_history(history, self.session.query.subject is not None)
        self.artifacts.load_workflow_names()  # a run may have come from a new workflow

    def _landed_by_a_run(self) -> None:
        if self._started:  # a burst of landings costs one read
            self.reload_timer.start()

    def _search_field(self) -> None:
        self.filters_dock.show()
        self.filters_dock.raise_()
        self.filters.search.setFocus()
        self.filters.search.selectAll()

    def _now(self) -> None:
        self.timeline.set_position(None)
        self.timeline.set_compare(None)
        self.session.change(as_of=None, compare_to=None)

    def _sync_actions(self) -> None:
        query = self.session.query
        for name, on in (
            ("items", query.items),
            ("units", query.units),
            ("sections", query.sections),
        ):
            action = self.actions[f"kg_{name}"]
            if action.isChecked() != on:
                action.blockSignals(True)
                action.setChecked(on)
                action.blockSignals(False)
        self.filters.set_layers(query.items, query.units, query.sections)
        self.actions["kg_unfocus"].setEnabled(query.focus is not None)
