"""The ``studio`` command's parser and dispatch; each command group lives in its own module.

Building the parser imports only the groups' argument modules, which need nothing beyond the
standard library: ``studio --version`` and ``studio --help`` load no models, no database layer
and no Qt. What a command needs loads when it runs."""

import argparse
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
from studio.cli.command_parser import CommandParser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the process exit code."""
    args = build_parser().parse_args(argv)
    # Imported here: running a command loads the models; printing the version or help does not.
    from studio.cli.dispatch import run_command

    return run_command(args)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = CommandParser(prog="studio", description="Draw, run and trace agent workflows.")
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
