"""Locate the folders that ship with Studio: built-in resources and seed blueprints."""

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def bundled_dir(name: str) -> Path:
    """Return the shipped folder ``name`` ("resources" or "blueprints").

    An installed wheel carries the folder inside the package; a source checkout
    (editable install) keeps it at the top of the repository.
    """
    for candidate in (_PACKAGE_DIR / name, _PACKAGE_DIR.parents[1] / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"Studio's bundled folder '{name}' is missing from {_PACKAGE_DIR}")


def builtin_agents_dir() -> Path:
    """Folder of the built-in agent definitions."""
    return bundled_dir("resources") / "agents"


def blueprints_dir() -> Path:
    """Folder of the seed blueprints (the SYSTEM namespace)."""
    return bundled_dir("blueprints")
