"""What every ``studio`` command shares: exit codes, common options, the workspace."""

import argparse
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.workspace import Workspace

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE, EXIT_WAITING = 0, 1, 2, 3


class ArgumentProblem(Exception):
    """An argument that cannot be understood (a time that is not a time, …)."""


def add_agents_option(parser: argparse.ArgumentParser) -> None:
    """``--agents DIR``, repeatable."""
    parser.add_argument(
        "--agents",
        action="append",
        default=[],
        metavar="DIR",
        help="another folder of agent definitions",
    )


def add_db_option(parser: argparse.ArgumentParser) -> None:
    """``--db URL`` (or ``$STUDIO_DB``): a SQLAlchemy URL or a SQLite file path."""
    parser.add_argument(
        "--db", metavar="URL", help="database URL or SQLite file (default: the data folder)"
    )


def add_json_option(parser: argparse.ArgumentParser) -> None:
    """``--json``: one JSON document on stdout and nothing else there."""
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def workspace_for(args: argparse.Namespace) -> "Workspace":
    """The workspace the arguments describe; agent files that failed to load are reported."""
    # Imported here: the engine and the database layer are not needed by `--version`,
    # `validate` or `--help`, which should start at once.
    from studio.workspace import Workspace

    workspace = Workspace(
        agent_dirs=[Path(folder) for folder in args.agents], database=getattr(args, "db", None)
    )
    for problem in workspace.agents.problems:
        print(f"studio: warning: skipped agent file {problem}", file=sys.stderr)
    return workspace


def fail(message: str, code: int = EXIT_UNREADABLE) -> int:
    """Print a one-line error on stderr and return the exit code."""
    print(f"studio: {message}", file=sys.stderr)
    return code


def lazy_handler(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    """The command handler ``name`` of ``module`` (e.g. "studio.cli.apps_handlers"), imported
    only when the command runs, so that ``studio --help`` and the other commands start
    without it."""

    def handle(args: argparse.Namespace) -> int:
        return int(getattr(importlib.import_module(module), name)(args))

    return handle
