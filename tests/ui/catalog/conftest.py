"""The main window and the seed blueprints, for the catalog browser's tests."""

from pathlib import Path

import pytest

from studio.bundled import blueprints_dir
from studio.model import Workflow
from studio.model.blueprints import load_blueprint_folder
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


@pytest.fixture
def seeds() -> list[Workflow]:
    """The blueprints Studio ships, by name."""
    return [blueprint.workflow for blueprint in load_blueprint_folder(blueprints_dir())[0]]
