"""The main window: a shell that hosts the modes (Workflows, Knowledge, Work), builds the
menus from the action table, and keeps the window's size, theme and each mode's layout."""

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QShowEvent
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu, QMessageBox

from studio import __version__
from studio.ui.icons import give_action_icons
from studio.ui.knowledge.knowledge_mode import KnowledgeMode
from studio.ui.theme import THEMES, apply_theme
from studio.ui.window.action_table import ActionSpec, Key, build_actions, build_menus
from studio.ui.window.mode import Mode
from studio.ui.window.mode_host import ModeHost
from studio.ui.window.shortcuts_dialog import ShortcutsDialog
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.window_settings import window_settings
from studio.ui.window.workflows_mode import WorkflowsMode
from studio.ui.work.work_mode import WorkMode
from studio.workspace import Workspace

MODE_NAMES = ("workflows", "knowledge", "work")


class MainWindow(QMainWindow):
    """Studio's top-level window."""

    def __init__(self, workspace: Workspace, mode: str | None = None) -> None:
        super().__init__()
        self.workspace = workspace
        self.settings = window_settings(workspace)
        self.setWindowTitle("Studio")
        self.resize(*default_size())
        self.status = StatusSink(self)
        self.host = ModeHost(self, self.settings)
        self.setCentralWidget(self.host.stack)
        self.workflows = WorkflowsMode(workspace, self.status, self.settings, self)
        self.knowledge = KnowledgeMode(workspace, self.status, self)
        self.work = WorkMode(workspace, self.status, self)
        self._build_modes_and_menus()
        self._first_show_pending = not self._restore(mode)
        self.workflows.start()
        self._connect_modes()

    # Building ----------------------------------------------------------------------------

    def _build_modes_and_menus(self) -> None:
        actions: dict[str, QAction] = {}
        submenus: dict[str, QMenu] = {}
        for mode in (self.workflows, self.knowledge, self.work):
            actions[f"mode_{mode.name}"] = self.host.add(mode)
            built = build_actions(self, mode.action_specs())
            mode.install_actions(built)
            self.host.own(mode, list(built.values()))
            actions.update(built)
            submenus.update(mode.submenus())
        actions.update(build_actions(self, self._window_action_specs()))
        self.actions_by_name = actions
        self._submenus = submenus
        self.menus = build_menus(self, actions, submenus)
        self._group_themes(actions)
        self._give_icons()
        self.host.modeChanged.connect(
            lambda _name: self.host.hide_empty_menus([*self.menus.values()])
        )

    def _connect_modes(self) -> None:
        """What one mode asks of another: a run's canvas from an artifact's provenance, the
        artifacts a run produced from the Runs panel."""
        self.knowledge.browser.runRequested.connect(self._show_run_on_canvas)
        self.workflows.artifactsRequested.connect(self._show_run_artifacts)
        self.workflows.ingestRequested.connect(self._ingest_knowledge)

    def _show_run_on_canvas(self, execution_id: str) -> None:
        """The run's replay on its canvas; the graph stays in front when the run cannot be
        read (one landed by another Studio's database): the person is told why."""
        replay = self.workflows.show_run(execution_id)
        replay.add_done_callback(
            lambda done: self.show_mode("workflows") if done.result() is not None else None
        )

    def _ingest_knowledge(self) -> None:
        self.show_mode("knowledge")
        self.knowledge.ingest_folder()

    def _show_run_artifacts(self, execution_id: str) -> None:
        self.show_mode("knowledge")
        self.knowledge.show_run(execution_id)

    def _window_action_specs(self) -> list[ActionSpec]:
        spec = ActionSpec
        themes = [
            spec(
                f"theme_{name}",
                f"Theme: &{name.title()}",
                None,
                lambda on, n=name: self.set_theme(n) if on else None,
                checkable=True,
            )
            for name in THEMES
        ]
        return [
            spec("quit", "&Quit", Key.Quit, self.close),
            spec("reset_layout", "&Reset Layout", None, self.reset_layout),
            spec("about", "&About Studio", None, self._show_about),
            spec("shortcuts", "&Keyboard Shortcuts", "Ctrl+/", self.show_shortcuts),
            *themes,
        ]

    def _group_themes(self, actions: dict[str, QAction]) -> None:
        group = QActionGroup(self)
        for name in THEMES:
            group.addAction(actions[f"theme_{name}"])
        saved = str(self.settings.value("window/theme", "system"))
        actions[f"theme_{apply_theme(saved)}"].setChecked(True)

    # Modes -------------------------------------------------------------------------------

    def show_mode(self, name: str) -> Mode:
        """Bring a mode forward (Workflows, Knowledge or Work)."""
        return self.host.show(name)

    def current_mode(self) -> Mode | None:
        """The mode shown now."""
        return self.host.current

    def set_theme(self, name: str) -> None:
        """Switch between the system's, the light and the dark theme, and remember it."""
        self.settings.setValue("window/theme", apply_theme(name))
        self._give_icons()
        for mode in self.host.modes.values():
            mode.theme_changed()

    def _give_icons(self) -> None:
        """Every action's and submenu's icon, in the colours of the theme shown."""
        menus = {name: menu.menuAction() for name, menu in self._submenus.items()}
        give_action_icons({**self.actions_by_name, **menus})

    def reset_layout(self) -> None:
        """Put every dock of every mode back where it was on the first start."""
        self.host.forget_layouts()

    # Window ------------------------------------------------------------------------------

    def show_shortcuts(self) -> ShortcutsDialog:
        """Help → Keyboard Shortcuts: every command's keys, to look up or find."""
        dialog = ShortcutsDialog(self.menus, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def _show_about(self) -> None:
        QMessageBox.about(
            self, "About Studio", f"Studio {__version__}\nDraw, run and trace agent workflows."
        )

    def _restore(self, mode: str | None) -> bool:
        """Size and place as last time, in the mode asked for (or the last one); True when
        the mode had a remembered layout."""
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        name = mode or str(self.settings.value("window/mode", "workflows"))
        shown = self.host.show(name if name in MODE_NAMES else "workflows")
        return self.settings.contains(f"modes/{shown.name}/state")

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.host.hide_stale_tab_bars()
        if self._first_show_pending:  # first start: give the canvas the room
            self._first_show_pending = False
            if self.host.current is not None:
                self.host.current.first_show()

    def closeEvent(self, event: QCloseEvent) -> None:
        modes = list(self.host.modes.values())
        if not all(mode.can_close() for mode in modes):
            event.ignore()
            return
        for mode in modes:
            mode.shutdown()
        self.host.remember()
        self.settings.setValue("window/geometry", self.saveGeometry())
        super().closeEvent(event)


def default_size() -> tuple[int, int]:
    """1400×860, or less on a smaller screen (nine tenths of what is available)."""
    screen = QApplication.primaryScreen()
    if screen is None:
        return 1400, 860
    available = screen.availableGeometry()
    return min(1400, int(available.width() * 0.9)), min(860, int(available.height() * 0.9))
