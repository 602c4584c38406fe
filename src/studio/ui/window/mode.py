"""A mode of the main window (Workflows, Knowledge, Work, later Team): its own central
widget, docks, toolbar and actions. The window shows one mode at a time and remembers each
mode's layout."""

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QMenu, QToolBar, QWidget

from studio.ui.window.action_table import ActionSpec


class Mode(QObject):
    """What every mode gives the window; a mode with nothing yet shows a placeholder."""

    titleChanged = Signal(str)  # what the window's title should say while this mode is shown
    showRequested = Signal()  # something of this mode was asked for: bring the mode forward

    def __init__(self, name: str, label: str, shortcut: str, parent: QMainWindow) -> None:
        super().__init__(parent)
        self.name, self.label, self.shortcut = name, label, shortcut
        self.window = parent
        self.docks: list[QDockWidget] = []
        self.toolbar: QToolBar | None = None
        self.status_widgets: list[QWidget] = []
        """What the mode shows in the status bar while it is in front."""

    def central(self) -> QWidget:
        """The widget in the middle of the window while this mode is shown."""
        raise NotImplementedError

    def action_specs(self) -> list[ActionSpec]:
        """The mode's commands, placed in the menus by the action table."""
        return []

    def submenus(self) -> dict[str, QMenu]:
        """Menus the action table places inside menus, by name."""
        return {}

    def install_actions(self, actions: dict[str, QAction]) -> None:
        """The mode's actions are built (a toolbar may show some of them)."""

    def start(self) -> None:
        """The window is built and about to be shown."""

    def shown(self, restored: bool) -> None:
        """The mode was brought forward (each time it is); ``restored``: with the layout it
        had when it was last shown."""

    def place_docks(self) -> None:
        """Put the mode's docks where they go the first time (no remembered layout)."""

    def first_show(self) -> None:
        """Give the central widget its room the first time the window is shown."""

    def theme_changed(self) -> None:
        """The theme changed: redraw what is not drawn by style sheets."""

    def can_close(self) -> bool:
        """Whether the window may close (everything saved or given up on)."""
        return True

    def shutdown(self) -> None:
        """The window closes: stop what runs."""

    def title(self) -> str:
        """The window's title while this mode is shown."""
        return f"{self.label} — Studio"

    def add_dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        """A dock of this mode, named after its title so its place is remembered."""
        dock = QDockWidget(title, self.window)
        dock.setObjectName(f"{title.lower()}Dock")
        dock.setWidget(widget)
        self.window.addDockWidget(area, dock)
        self.docks.append(dock)
        return dock


class PlaceholderMode(Mode):
    """A mode whose issue has not landed: it says what will be there."""

    def __init__(
        self, name: str, label: str, shortcut: str, promise: str, parent: QMainWindow
    ) -> None:
        super().__init__(name, label, shortcut, parent)
        self.page = QLabel(f"<h2>{label}</h2><p>{promise}</p>")
        self.page.setObjectName(f"{name}Placeholder")
        self.page.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.page.setWordWrap(True)
        self.page.setMargin(48)

    def central(self) -> QWidget:
        return self.page
