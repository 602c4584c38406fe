"""Showing one mode at a time: the mode bar on the left, the central widget, each mode's
docks, toolbar and menus, and each mode's remembered layout."""

from PySide6.QtCore import QByteArray, QObject, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QStackedWidget, QTabBar, QToolBar

from studio.ui.icons import icon
from studio.ui.window.mode import Mode


class ModeHost(QObject):
    """The modes of a window and which one is shown."""

    modeChanged = Signal(str)  # the name of the mode now shown

    def __init__(self, window: QMainWindow, settings: QSettings) -> None:
        super().__init__(window)
        self.window, self.settings = window, settings
        self.modes: dict[str, Mode] = {}
        self.mode_actions: dict[str, list[QAction]] = {}
        self.current: Mode | None = None
        self.stack = QStackedWidget(window)
        self.stack.setObjectName("modeStack")
        self.bar = QToolBar("Modes", window)
        self.bar.setObjectName("modeBar")
        self.bar.setMovable(False)
        self.bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
        self.bar.setIconSize(QSize(20, 20))
        self.group = QActionGroup(window)
        window.addToolBar(Qt.ToolBarArea.LeftToolBarArea, self.bar)

    def add(self, mode: Mode) -> QAction:
        """Host a mode; returns the action that shows it (on the mode bar and in View)."""
        self.modes[mode.name] = mode
        self.stack.addWidget(mode.central())
        action = QAction(mode.label, self.window)
        action.setObjectName(f"mode_{mode.name}")
        action.setIcon(icon(f"mode_{mode.name}"))
        action.setCheckable(True)
        action.setShortcut(mode.shortcut)
        action.setToolTip(f"{mode.label} ({mode.shortcut})")
        action.triggered.connect(lambda _checked=False, name=mode.name: self.show(name))
        self.group.addAction(action)
        self.bar.addAction(action)
        mode.titleChanged.connect(lambda title, m=mode: self._retitle(m, title))
        mode.showRequested.connect(lambda name=mode.name: self.show(name))
        return action

    def own(self, mode: Mode, actions: list[QAction]) -> None:
        """Actions that work only while their mode is shown."""
        self.mode_actions[mode.name] = actions

    def show(self, name: str) -> Mode:
        """Show a mode with the layout it had when it was last shown."""
        mode = self.modes.get(name) or next(iter(self.modes.values()))
        if mode is self.current:
            return mode
        if self.current is not None:
            self.settings.setValue(_state_key(self.current), self.window.saveState())
        for other in self.modes.values():
            _set_shown(other, other is mode)
            for action in self.mode_actions.get(other.name, []):
                action.setEnabled(other is mode)
        self.current = mode
        self.stack.setCurrentWidget(mode.central())
        state = self.settings.value(_state_key(mode))
        restored = isinstance(state, QByteArray) and self.window.restoreState(state)
        self._check(mode)
        self.window.setWindowTitle(mode.title())
        mode.shown(restored)
        self.hide_stale_tab_bars()
        self.modeChanged.emit(mode.name)
        return mode

    def remember(self) -> None:
        """Keep the shown mode's layout and which mode it is (the window closes)."""
        if self.current is not None:
            self.settings.setValue(_state_key(self.current), self.window.saveState())
            self.settings.setValue("window/mode", self.current.name)

    def forget_layouts(self) -> None:
        """Reset layout: every mode's docks go back where they started."""
        for mode in self.modes.values():
            self.settings.remove(_state_key(mode))
            for dock in mode.docks:
                dock.setFloating(False)
                self.window.addDockWidget(self.window.dockWidgetArea(dock), dock)
            mode.place_docks()
        if self.current is not None:
            _set_shown(self.current, True)
            self.current.first_show()

    def hide_empty_menus(self, menus: list[QMenu]) -> None:
        """A menu whose every action belongs to a mode not shown is hidden with it."""
        for menu in menus:
            entries = [a for a in menu.actions() if not a.isSeparator()]
            menu.menuAction().setVisible(any(a.isEnabled() or a.menu() for a in entries))

    def hide_stale_tab_bars(self) -> None:
        """Qt leaves the tab bar of a group of docks drawn after the group grew by another
        dock (Problems · Runs, then Approvals), after the group was hidden with its mode, or
        where the group first stood while the window was laid out: hide a bar whose tabs
        another bar shows too, whose docks are all hidden, or that is not beside its docks.
        Looked at again once the layout has settled."""
        self._hide_stale_bars(beside_only=False)
        QTimer.singleShot(0, self.window, lambda: self._hide_stale_bars(beside_only=True))

    def _hide_stale_bars(self, beside_only: bool) -> None:
        bars = [bar for bar in self.window.findChildren(QTabBar) if bar.parent() is self.window]
        tabs = {bar: {bar.tabText(i) for i in range(bar.count())} for bar in bars}
        shown = {dock.windowTitle(): dock for dock in self._docks() if not dock.isHidden()}
        for bar in bars:
            if beside_only:
                stale = bar.isVisible() and not self._beside(bar, tabs[bar], shown)
            else:
                stale = not tabs[bar] or any(tabs[bar] < tabs[other] for other in bars)
                stale = stale or not tabs[bar] & set(shown)
            if stale:
                bar.hide()

    @staticmethod
    def _beside(bar: QTabBar, titles: set[str], shown: dict[str, QDockWidget]) -> bool:
        """Whether a tab bar touches one of the docks it names (it sits on their edge)."""
        reach = bar.geometry().adjusted(-8, -8, 8, 8)
        return any(reach.intersects(shown[t].geometry()) for t in titles if t in shown)

    def _docks(self) -> list[QDockWidget]:
        return [dock for mode in self.modes.values() for dock in mode.docks]

    def _check(self, mode: Mode) -> None:
        for action in self.group.actions():
            action.setChecked(action.objectName() == f"mode_{mode.name}")

    def _retitle(self, mode: Mode, title: str) -> None:
        if mode is self.current:
            self.window.setWindowTitle(title)


def _set_shown(mode: Mode, shown: bool) -> None:
    toolbar = [mode.toolbar] if mode.toolbar is not None else []
    widgets = [*mode.docks, *toolbar, *mode.status_widgets]
    for widget in widgets:
        if widget.isHidden() == shown:  # showing a shown dock again upsets its tab bar
            widget.setVisible(shown)


def _state_key(mode: Mode) -> str:
    return f"modes/{mode.name}/state"
