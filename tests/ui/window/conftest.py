"""The main window as a person first meets it: a fresh data folder, 1280×800, shown."""

from pathlib import Path

import pytest

from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace


@pytest.fixture
def window(qtbot, studio_data_dir: Path) -> MainWindow:
    window = MainWindow(Workspace(data_dir=studio_data_dir))
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    return window
