"""The window's settings file: geometry, each mode's layout, the theme, recent files."""

from PySide6.QtCore import QSettings

from studio.workspace import Workspace


def window_settings(workspace: Workspace) -> QSettings:
    """Window settings kept in the data folder, beside the workflows they belong to."""
    return QSettings(str(workspace.data_dir / "window.ini"), QSettings.Format.IniFormat)
