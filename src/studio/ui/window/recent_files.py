"""Open Recent: the workflow files opened lately, newest first."""

from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QMenu, QWidget

RECENT_FILES = 8
KEY = "window/recentFiles"


class RecentFiles(QObject):
    """The list in the settings file and the File menu's Open Recent submenu."""

    openRequested = Signal(str)  # a file path chosen from the menu

    def __init__(self, settings: QSettings, parent: QWidget) -> None:
        super().__init__(parent)
        self.settings = settings
        self.menu = QMenu("Open &Recent", parent)
        self.menu.setObjectName("recentMenu")
        self.menu.aboutToShow.connect(self.fill_menu)

    def files(self) -> list[str]:
        """Workflow files opened lately, newest first."""
        value = self.settings.value(KEY, [])
        if isinstance(value, str):
            return [value]
        return [str(f) for f in value] if isinstance(value, list) else []

    def remember(self, path: str) -> None:
        """Put a file at the top of Open Recent."""
        resolved = str(Path(path).resolve())
        files = [resolved, *(f for f in self.files() if f != resolved)][:RECENT_FILES]
        self.settings.setValue(KEY, files)

    def fill_menu(self) -> None:
        """The files that still exist, each opening itself."""
        self.menu.clear()
        files = [f for f in self.files() if Path(f).is_file()]
        for path in files:
            action = self.menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.triggered.connect(lambda _checked=False, p=path: self.openRequested.emit(p))
        if not files:
            self.menu.addAction("No recent files").setEnabled(False)
