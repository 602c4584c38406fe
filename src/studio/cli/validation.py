"""``studio validate``: its arguments; the handler lives in ``validation_handlers`` and loads
only when the command runs."""

import argparse

from studio.cli.shared import add_agents_option, add_json_option, lazy_handler


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register ``validate``."""
    validate = commands.add_parser("validate", help="check a workflow file")
    validate.add_argument("file", help="a workflow file (.yaml, .yml or .json)")
    validate.add_argument("--publish", action="store_true", help="also apply the publish rules")
    add_json_option(validate)
    add_agents_option(validate)
    validate.set_defaults(handler=lazy_handler("studio.cli.validation_handlers", "run_validate"))
