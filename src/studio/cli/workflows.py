"""``studio workflows list|show|export|delete``: the workflows stored in the workspace's
database. Its arguments; the handlers live in ``workflow_handlers`` and load only when one of
these commands runs."""

import argparse
from collections.abc import Callable

from studio.cli.shared import add_db_option, add_json_option, lazy_handler


def _handler(name: str) -> Callable[[argparse.Namespace], int]:
    return lazy_handler("studio.cli.workflow_handlers", name)


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register ``workflows`` and its actions."""
    workflows = commands.add_parser("workflows", help="the workflows stored in the database")
    actions = workflows.add_subparsers(title="actions", required=True)
    listing = actions.add_parser("list", help="stored workflows, most recently changed first")
    _options(listing, "workflows_list", json=True)
    show = actions.add_parser("show", help="one workflow with its nodes and edges")
    show.add_argument(
        "workflow_id", metavar="ID", help="its id, or 6 or more of its first characters"
    )
    _options(show, "workflows_show", json=True)
    export = actions.add_parser("export", help="write a workflow's file (YAML or JSON)")
    export.add_argument(
        "workflow_id", metavar="ID", help="its id, or 6 or more of its first characters"
    )
    export.add_argument(
        "file", nargs="?", help="where to write it (.yaml, .yml or .json); stdout without one"
    )
    export.add_argument(
        "--format", choices=["yaml", "json"], default="yaml", help="on stdout (default: yaml)"
    )
    _options(export, "workflows_export")
    delete = actions.add_parser("delete", help="delete a workflow with its runs, asking nothing")
    delete.add_argument(
        "workflow_id", metavar="ID", help="its id, or 6 or more of its first characters"
    )
    delete.add_argument(
        "--force", action="store_true", help="also a published workflow (it is unpublished first)"
    )
    _options(delete, "workflows_delete")


def _options(parser: argparse.ArgumentParser, handler: str, json: bool = False) -> None:
    add_db_option(parser)
    if json:
        add_json_option(parser)
    parser.set_defaults(handler=_handler(handler), agents=[])
