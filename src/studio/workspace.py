"""The composition root for everything that is not UI: agents, blueprints and (later) storage."""

import os
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

import platformdirs

from studio.bundled import blueprints_dir, builtin_agents_dir
from studio.model import AgentRegistry, Blueprint, load_blueprint_folder

DATA_DIR_VARIABLE = "STUDIO_DATA_DIR"
APP_NAME = "Studio"


def default_data_dir() -> Path:
    """Where Studio keeps the user's data: ``$STUDIO_DATA_DIR`` or the platform's data folder."""
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


class Workspace:
    """One user's Studio: where data lives, which agents exist, which blueprints ship."""

    def __init__(self, data_dir: Path | None = None, agent_dirs: Sequence[Path] = ()) -> None:
        self.data_dir = data_dir if data_dir is not None else default_data_dir()
        self.extra_agent_dirs = [Path(folder) for folder in agent_dirs]

    @property
    def agent_dirs(self) -> list[Path]:
        """Folders of agent definitions, lowest precedence first: built-in, user, ``--agents``."""
        return [builtin_agents_dir(), self.data_dir / "agents", *self.extra_agent_dirs]

    @cached_property
    def agents(self) -> AgentRegistry:
        """The agent registry, loaded once."""
        return AgentRegistry.from_folders(self.agent_dirs)

    @cached_property
    def _blueprint_catalog(self) -> tuple[list[Blueprint], list[str]]:
        return load_blueprint_folder(blueprints_dir())

    @property
    def blueprints(self) -> list[Blueprint]:
        """The seed blueprints, sorted by name."""
        return self._blueprint_catalog[0]

    @property
    def blueprint_failures(self) -> list[str]:
        """Messages for blueprint files that could not be loaded."""
        return self._blueprint_catalog[1]
