"""Running the command ``studio`` parsed: its handler, and the failures that end it with one
line on stderr. Loaded once the arguments are parsed: the failures it knows are the models',
which ``studio --version`` and ``studio --help`` never load."""

import argparse
import sys

from studio.cli.desktop import run_gui
from studio.cli.shared import EXIT_UNREADABLE, ArgumentProblem
from studio.model.errors import StudioError
from studio.model.workflow_files import WorkflowFileError


def run_command(args: argparse.Namespace) -> int:
    """Run the parsed command (the desktop app when none is named) and return its exit code."""
    handler = getattr(args, "handler", run_gui)
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
