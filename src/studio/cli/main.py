"""The ``studio`` command's parser and dispatch; each command group lives in its own module."""

import argparse
import sys
from collections.abc import Sequence

from studio import __version__
from studio.cli import (
    agents,
    apps,
    blueprints,
    capabilities,
    desktop,
    doctor,
    knowledge,
    runs,
    validation,
    work,
    worker,
    workflows,
)
from studio.cli.shared import EXIT_UNREADABLE, ArgumentProblem
from studio.model.errors import StudioError
from studio.model.workflow_files import WorkflowFileError


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the process exit code."""
    args = build_parser().parse_args(argv)
    handler = getattr(args, "handler", desktop.run_gui)
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("studio: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_UNREADABLE
    except ArgumentProblem as problem:  # an id that names no one thing, a time that is none
        print(f"studio: {problem}", file=sys.stderr)
        return EXIT_UNREADABLE
    except (StudioError, WorkflowFileError) as failure:  # a database or settings file
        print(f"studio: {failure}", file=sys.stderr)
        return EXIT_UNREADABLE


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="studio", description="Draw, run and trace agent workflows."
    )
    parser.add_argument("--version", action="version", version=f"studio {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    desktop.add_commands(commands)
    validation.add_commands(commands)
    runs.add_commands(commands)
    workflows.add_commands(commands)
    apps.add_commands(commands)
    agents.add_commands(commands)
    blueprints.add_commands(commands)
    knowledge.add_commands(commands)
    work.add_commands(commands)
    capabilities.add_commands(commands)
    doctor.add_commands(commands)
    worker.add_commands(commands)
    parser.set_defaults(file=None, agents=[], db=None, mode=None)
    return parser
