"""The main window: workflows on the left, open workflows in tabs, inspector and workflow
settings on the right, problems below; menus and a toolbar with the standard shortcuts."""

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QActionGroup, QCloseEvent
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

from studio import __version__
from studio.model.errors import StudioError
from studio.ui.panels.condition_editor import ConditionEditor
from studio.ui.panels.node_drawer import NodeDrawer
from studio.ui.panels.problems_panel import ProblemsPanel
from studio.ui.panels.workflow_config import WorkflowConfigPanel
from studio.ui.run_commands import RunCommands
from studio.ui.run_panels import RunPanels
from studio.ui.storage_fault_notice import EDITS_KEPT, StorageFaultNotice
from studio.ui.theme import THEMES, apply_theme
from studio.ui.window_actions import ActionSpec, Key, add_menu, add_toolbar, build_action
from studio.ui.workflow_commands import WorkflowCommands
from studio.ui.workflow_list import WorkflowListPanel
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace

WORKFLOW_FILE_FILTER = "Workflows (*.yaml *.yml *.json);;All files (*)"


RECENT_FILES = 8


class MainWindow(WorkflowCommands, RunCommands, RunPanels, QMainWindow):
    """Studio's top-level window."""

    def __init__(self, workspace: Workspace) -> None:
        super().__init__()
        self.workspace = workspace
        self.setWindowTitle("Studio")
        self.resize(*default_size())
        self.tabs = QTabWidget(documentMode=True, tabsClosable=True, movable=True)
        self.tabs.tabCloseRequested.connect(self.close_tab)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.welcome = QLabel(alignment=Qt.AlignmentFlag.AlignCenter, objectName="welcome")
        self.welcome.setText(
            "<h1>Studio</h1><p>Create a workflow (Ctrl+N), open a file (Ctrl+O) "
            "or use a blueprint on the left.</p>"
        )
        self.centre = QStackedWidget()
        self.centre.addWidget(self.welcome)
        self.centre.addWidget(self.tabs)
        self.setCentralWidget(self.centre)
        self.storage_faults = StorageFaultNotice(self)
        self._build_runs()
        self._build_docks()
        self._build_actions()
        self.refresh_lists()
        self.statusBar().showMessage(self._status_text())
        self._restore_layout()
        self.announce_interrupted_runs()

    # Building ----------------------------------------------------------------------------

    def _build_docks(self) -> None:
        self.workflow_list = WorkflowListPanel()
        self.node_drawer, self.condition_editor = NodeDrawer(), ConditionEditor()
        self.config_panel, self.problems = WorkflowConfigPanel(), ProblemsPanel()
        self.inspector = QStackedWidget()
        self.inspector_hint = QLabel(
            "Select a node or an edge to edit it.",
            alignment=Qt.AlignmentFlag.AlignCenter,
            wordWrap=True,
        )
        for widget in (self.inspector_hint, self.node_drawer, self.condition_editor):
            self.inspector.addWidget(widget)
        self._dock("Workflows", self.workflow_list, Qt.DockWidgetArea.LeftDockWidgetArea)
        inspector = self._dock("Inspector", self.inspector, Qt.DockWidgetArea.RightDockWidgetArea)
        settings = self._dock("Workflow", self.config_panel, Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(settings, inspector)
        problems = self._dock("Problems", self.problems, Qt.DockWidgetArea.BottomDockWidgetArea)
        self._build_run_docks(problems)
        self._connect_panels()
        self._default_dock_sizes = (
            [self.findChild(QDockWidget, "workflowsDock"), inspector],
            [250, 380],
            [problems],
            [250],
        )

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"{title.lower()}Dock")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _connect_panels(self) -> None:
        panel = self.workflow_list
        panel.openRequested.connect(self.open_workflow)
        panel.newRequested.connect(self.new_workflow)
        panel.renameRequested.connect(self.rename_workflow)
        panel.duplicateRequested.connect(self.duplicate_workflow)
        panel.deleteRequested.connect(self.delete_workflow)
        panel.blueprintRequested.connect(self.use_blueprint)
        self.node_drawer.nodeEdited.connect(
            lambda node: self._with_editor(lambda e: e.edit_node(node))
        )
        self.condition_editor.edgeEdited.connect(
            lambda edge: self._with_editor(lambda e: e.edit_edge(edge))
        )
        self.config_panel.propertiesEdited.connect(
            lambda changes: self._with_editor(lambda e: e.edit_properties(changes))
        )
        self.problems.problemActivated.connect(self._select_problem)

    def _build_actions(self) -> None:
        spec = ActionSpec
        a = {
            s.name: build_action(self, s)
            for s in [
                spec("new", "&New Workflow", Key.New, self.new_workflow),
                spec("open", "&Open / Import…", Key.Open, self.import_file),
                spec("save", "&Save", Key.Save, self.save_current),
                spec("export", "&Export…", "Ctrl+E", self.export_file),
                spec(
                    "close",
                    "&Close Tab",
                    Key.Close,
                    lambda: self.close_tab(self.tabs.currentIndex()),
                ),
                spec("quit", "&Quit", Key.Quit, self.close),
                spec(
                    "undo",
                    "&Undo",
                    Key.Undo,
                    lambda: self._with_editor(lambda e: e.undo_stack.undo()),
                ),
                spec(
                    "redo",
                    "&Redo",
                    Key.Redo,
                    lambda: self._with_editor(lambda e: e.undo_stack.redo()),
                ),
                spec(
                    "cut", "Cu&t", Key.Cut, lambda: self._with_editor(lambda e: e.cut_selection())
                ),
                spec(
                    "copy",
                    "&Copy",
                    Key.Copy,
                    lambda: self._with_editor(lambda e: e.copy_selection()),
                ),
                spec("paste", "&Paste", Key.Paste, lambda: self._with_editor(lambda e: e.paste())),
                spec(
                    "duplicate",
                    "D&uplicate",
                    "Ctrl+D",
                    lambda: self._with_editor(lambda e: e.duplicate_selection()),
                ),
                spec(
                    "delete",
                    "&Delete",
                    Key.Delete,
                    lambda: self._with_editor(lambda e: e.delete_selection()),
                ),
                spec(
                    "select_all",
                    "Select &All",
                    Key.SelectAll,
                    lambda: self._with_editor(lambda e: e.select_all()),
                ),
                spec("find", "&Find Node…", Key.Find, self.find_node),
                spec("add_node", "Add &Node…", "Tab", self.add_node_from_palette),
                spec(
                    "zoom_in",
                    "Zoom &In",
                    Key.ZoomIn,
                    lambda: self._with_editor(lambda e: e.view.zoom_by(1.25)),
                ),
                spec(
                    "zoom_out",
                    "Zoom &Out",
                    Key.ZoomOut,
                    lambda: self._with_editor(lambda e: e.view.zoom_by(0.8)),
                ),
                spec(
                    "fit",
                    "&Fit to View",
                    "Ctrl+0",
                    lambda: self._with_editor(lambda e: e.view.fit_all()),
                ),
                spec(
                    "layout",
                    "Auto-&Layout",
                    "Ctrl+L",
                    lambda: self._with_editor(lambda e: e.auto_layout()),
                ),
                spec("snap", "Snap to &Grid", "Ctrl+G", self._toggle_snap, checkable=True),
                spec(
                    "theme_system",
                    "Theme: &System",
                    None,
                    lambda on: on and self.set_theme("system"),
                    checkable=True,
                ),
                spec(
                    "theme_light",
                    "Theme: &Light",
                    None,
                    lambda on: on and self.set_theme("light"),
                    checkable=True,
                ),
                spec(
                    "theme_dark",
                    "Theme: &Dark",
                    None,
                    lambda on: on and self.set_theme("dark"),
                    checkable=True,
                ),
                spec("validate", "&Validate", "F7", self.validate_current),
                spec("publish", "&Publish", "Ctrl+Shift+P", self.publish_current),
                spec("clear", "C&lear Canvas", None, self.clear_current),
                spec("save_catalog", "Save to &Catalog…", None, self.save_to_catalog),
                spec("load_catalog", "Load from Ca&talog…", None, self.load_from_catalog),
                spec("about", "&About Studio", None, self._show_about),
                *self.run_action_specs(),
                spec("runs_panel", "&Runs", "Ctrl+Shift+H", self.show_history_of_current),
                spec("approvals_panel", "A&pprovals", "Ctrl+Shift+A", self.show_approvals),
            ]
        }
        self.actions_by_name = a
        a["add_node"].setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        add_menu(
            self,
            "&File",
            [a["new"], a["open"], a["save"], a["export"], None, a["close"], a["quit"]],
        )
        add_menu(
            self,
            "&Edit",
            [
                a["undo"],
                a["redo"],
                None,
                a["cut"],
                a["copy"],
                a["paste"],
                a["duplicate"],
                a["delete"],
                None,
                a["select_all"],
                a["find"],
            ],
        )
        add_menu(
            self,
            "&View",
            [
                a["zoom_in"],
                a["zoom_out"],
                a["fit"],
                None,
                a["snap"],
                None,
                a["theme_system"],
                a["theme_light"],
                a["theme_dark"],
            ],
        )
        themes = QActionGroup(self)
        for name in THEMES:
            themes.addAction(a[f"theme_{name}"])
        saved = str(self._settings().value("window/theme", "system"))
        a[f"theme_{apply_theme(saved)}"].setChecked(True)
        add_menu(
            self,
            "&Workflow",
            [
                a["add_node"],
                a["layout"],
                None,
                a["validate"],
                a["publish"],
                None,
                a["save_catalog"],
                a["load_catalog"],
                a["clear"],
            ],
        )
        add_menu(
            self,
            "&Run",
            [
                a["run"],
                a["cancel_run"],
                a["rerun"],
                a["run_from_here"],
                None,
                a["show_run"],
                a["hide_run"],
                None,
                a["runs_panel"],
                a["approvals_panel"],
            ],
        )
        add_menu(self, "&Help", [a["about"]])
        self.recent_menu = QMenu("Open &Recent", self)
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu = self.menuBar().actions()[0].menu()
        file_menu.insertMenu(a["save"], self.recent_menu)
        add_toolbar(
            self,
            "Workflow",
            [
                a["new"],
                a["save_catalog"],
                a["load_catalog"],
                a["open"],
                a["export"],
                None,
                a["undo"],
                a["redo"],
                None,
                a["layout"],
                a["fit"],
                None,
                a["validate"],
                a["publish"],
                a["clear"],
                None,
                a["run"],
                a["cancel_run"],
                a["rerun"],
            ],
        )

    # Tabs -------------------------------------------------------------------------------

    def current_tab(self) -> WorkflowTab | None:
        """The workflow in front, if any."""
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, WorkflowTab) else None

    def _with_editor(self, action) -> None:
        tab = self.current_tab()
        if tab is not None:
            action(tab.editor)

    def open_workflow(self, workflow_id: str) -> WorkflowTab | None:
        """Show a stored workflow in its tab (opening one if needed)."""
        for index in range(self.tabs.count()):
            tab = self.tabs.widget(index)
            if isinstance(tab, WorkflowTab) and tab.workflow_id == workflow_id:
                self.tabs.setCurrentIndex(index)
                return tab
        try:
            workflow = self.workspace.workflows.get(workflow_id)
        except StudioError as failure:
            QMessageBox.warning(self, "Cannot open workflow", str(failure))
            return None
        tab = WorkflowTab(workflow, self.workspace.agents, self.workspace.workflows, self)
        tab.titleChanged.connect(lambda title, t=tab: self._retitle(t, title))
        tab.copyCreated.connect(lambda copy: (self.refresh_lists(), self.open_workflow(copy.id)))
        tab.editor.nodeSelected.connect(self._show_node)
        tab.editor.nodeActivated.connect(self._show_node)
        tab.editor.edgeSelected.connect(self._show_edge)
        tab.editor.selectionCleared.connect(
            lambda: self.inspector.setCurrentWidget(self.inspector_hint)
        )
        tab.editor.message.connect(lambda text: self.statusBar().showMessage(text, 6000))
        tab.editor.node_actions.append(("Run from here", self.run_from_selected))
        tab.editor.document.subscribe(lambda _event, t=tab: self._document_changed(t))
        tab.autosaver.saved.connect(lambda _stored: self.refresh_lists())
        tab.autosaver.faulted.connect(lambda fault: self.storage_faults.report(fault, EDITS_KEPT))
        self.tabs.addTab(tab, tab.title())
        self.tabs.setCurrentWidget(tab)
        self.centre.setCurrentWidget(self.tabs)
        tab.editor.view.fit_all()
        return tab

    def close_tab(self, index: int) -> bool:
        """Close a tab, saving first; unsaved changes that cannot be saved are asked about."""
        tab = self.tabs.widget(index)
        if not isinstance(tab, WorkflowTab):
            return True
        if tab.autosaver.has_unsaved_changes and not tab.autosaver.save_now():
            answer = QMessageBox.question(
                self,
                "Unsaved changes",
                f"'{tab.editor.document.properties.name}' could not be saved "
                f"({tab.autosaver.last_error}). Close it anyway and lose the changes?",
            )
            if answer != QMessageBox.StandardButton.Yes:
                return False
        tab.editor.scene.detach()
        self.tabs.removeTab(index)
        tab.deleteLater()
        if self.tabs.count() == 0:
            self.centre.setCurrentWidget(self.welcome)
        return True

    def _retitle(self, tab: WorkflowTab, title: str) -> None:
        index = self.tabs.indexOf(tab)
        if index >= 0:
            self.tabs.setTabText(index, title)
            self.tabs.setTabToolTip(index, tab.autosaver.last_error or "")

    def _tab_changed(self, _index: int) -> None:
        tab = self.current_tab()
        self.inspector.setCurrentWidget(self.inspector_hint)
        if tab is not None:
            self.config_panel.show_workflow(tab.editor.document.properties)
            self.setWindowTitle(f"{tab.editor.document.properties.name} — Studio")
        else:
            self.setWindowTitle("Studio")
        self.history.show_workflow(tab.workflow_id if tab else None)

    def _document_changed(self, tab: WorkflowTab) -> None:
        if tab is not self.current_tab():
            return
        self.config_panel.show_workflow(tab.editor.document.properties)
        current = self.inspector.currentWidget()
        node_ids = tab.editor.scene.selected_node_ids()
        if current is self.node_drawer and len(node_ids) == 1:
            self._show_node(node_ids[0])

    def _show_node(self, node_id: str) -> None:
        tab = self.current_tab()
        node = tab.editor.document.node(node_id) if tab else None
        if node is not None:
            self.node_drawer.show_node(node, list(self.workspace.agents))
            self.inspector.setCurrentWidget(self.node_drawer)
            self.history.detail.select_step(node_id)  # the run shown below follows along

    def _show_edge(self, edge_id: str) -> None:
        tab = self.current_tab()
        edge = tab.editor.document.edge(edge_id) if tab else None
        if edge is not None:
            self.condition_editor.show_edge(edge)
            self.inspector.setCurrentWidget(self.condition_editor)

    def recent_files(self) -> list[str]:
        """Workflow files opened lately, newest first."""
        value = self._settings().value("window/recentFiles", [])
        return [value] if isinstance(value, str) else list(value or [])

    def remember_file(self, path: str) -> None:
        """Put a file at the top of Open Recent."""
        resolved = str(Path(path).resolve())
        files = [resolved, *(f for f in self.recent_files() if f != resolved)][:RECENT_FILES]
        self._settings().setValue("window/recentFiles", files)

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = [f for f in self.recent_files() if Path(f).is_file()]
        for path in files:
            self.recent_menu.addAction(
                Path(path).name, lambda p=path: self.open_workflow_file(p)
            ).setToolTip(path)
        if not files:
            self.recent_menu.addAction("No recent files").setEnabled(False)

    def set_theme(self, name: str) -> None:
        """Switch between the system's, the light and the dark theme, and remember it."""
        theme = apply_theme(name)
        self._settings().setValue("window/theme", theme)
        for index in range(self.tabs.count()):
            tab = self.tabs.widget(index)
            if isinstance(tab, WorkflowTab):
                tab.editor.scene.apply_colors()

    def _toggle_snap(self, on: bool) -> None:
        for index in range(self.tabs.count()):
            tab = self.tabs.widget(index)
            if isinstance(tab, WorkflowTab):
                tab.editor.view.snap_to_grid = on

    def _select_problem(self, problem) -> None:
        tab = self.current_tab()
        if tab is None:
            return
        if problem.node_id:
            tab.editor.view.center_on_node(problem.node_id)
        elif problem.edge_id:
            tab.editor.scene.select_only(edge_ids=[problem.edge_id])

    # Window -----------------------------------------------------------------------------

    def _show_about(self) -> None:
        QMessageBox.about(
            self, "About Studio", f"Studio {__version__}\nDraw, run and trace agent workflows."
        )

    def _status_text(self) -> str:
        agents, blueprints = len(self.workspace.agents), len(self.workspace.blueprints)
        return f"{agents} agent(s) · {blueprints} blueprint(s) · data in {self.workspace.data_dir}"

    def _settings(self) -> QSettings:
        """Window settings kept in the data folder, beside the workflows they belong to."""
        path = self.workspace.data_dir / "window.ini"
        return QSettings(str(path), QSettings.Format.IniFormat)

    def _restore_layout(self) -> None:
        settings = self._settings()
        geometry, state = settings.value("window/geometry"), settings.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None and self.restoreState(state):
            self._default_dock_sizes = None

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._default_dock_sizes is not None:  # first start: give the canvas the room
            sideways, widths, below, heights = self._default_dock_sizes
            self.resizeDocks(sideways, widths, Qt.Orientation.Horizontal)
            self.resizeDocks(below, heights, Qt.Orientation.Vertical)
            self._default_dock_sizes = None

    def closeEvent(self, event: QCloseEvent) -> None:
        for index in reversed(range(self.tabs.count())):
            if not self.close_tab(index):
                event.ignore()
                return
        self.runs.shutdown()
        settings = self._settings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState())
        super().closeEvent(event)


def default_size() -> tuple[int, int]:
    """1400×860, or less on a smaller screen (nine tenths of what is available)."""
    screen = QApplication.primaryScreen()
    if screen is None:
        return 1400, 860
    available = screen.availableGeometry()
    return min(1400, int(available.width() * 0.9)), min(860, int(available.height() * 0.9))
