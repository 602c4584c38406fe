"""The main window and the seed blueprints, for the catalog browser's tests."""

import pytest

from studio.bundled import blueprints_dir
from studio.model import Workflow
from studio.model.blueprints import load_blueprint_folder
from tests.ui.window.conftest import window  # noqa: F401  the main window, fresh and shown


@pytest.fixture
def seeds() -> list[Workflow]:
    """The blueprints Studio ships, by name."""
    return [blueprint.workflow for blueprint in load_blueprint_folder(blueprints_dir())[0]]
