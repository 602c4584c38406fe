"""``studio blueprints list|show|import|save``: the blueprint catalog (the seed files and the
blueprints saved to it) and importing one into an app. Its arguments; the handlers live in
``blueprint_handlers`` and load only when one of these commands runs."""

import argparse
from collections.abc import Callable

from studio.cli.shared import add_agents_option, add_db_option, add_json_option, lazy_handler

BLUEPRINT_HELP = "a seed blueprint's slug or name, or a saved one's id (6+ characters) or name"


def _handler(name: str) -> Callable[[argparse.Namespace], int]:
    return lazy_handler("studio.cli.blueprint_handlers", name)


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register ``blueprints`` and its actions."""
    blueprints = commands.add_parser("blueprints", help="the blueprint catalog")
    actions = blueprints.add_subparsers(title="actions", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the catalog's blueprints, by name")
    _options(listing, "blueprints_list")
    show = actions.add_parser("show", help="a blueprint's nodes, agents and placeholders")
    show.add_argument("blueprint", metavar="NAME_OR_SLUG", help=BLUEPRINT_HELP)
    _options(show, "blueprints_show")
    _add_import(actions)
    save = actions.add_parser(
        "save", help="publish a workflow file into the catalog (read-only from then on)"
    )
    save.add_argument("file", metavar="FILE", help="a workflow file (.yaml, .yml or .json)")
    save.add_argument("--category", metavar="C", help="its category in the catalog")
    _options(save, "blueprints_save")


def _add_import(actions: argparse._SubParsersAction) -> None:
    importing = actions.add_parser(
        "import", help="copy a blueprint into an app as a new draft workflow"
    )
    importing.add_argument("blueprint", metavar="BLUEPRINT", help=BLUEPRINT_HELP)
    importing.add_argument(
        "--app", required=True, metavar="APP", help="the app: its id or 6+ of its first characters"
    )
    importing.add_argument(
        "--map",
        action="append",
        default=[],
        metavar="SLOT=AGENT",
        help="the real agent for a placeholder slot, e.g. placeholder-classifier=my-agent",
    )
    importing.add_argument("--name", help="the new workflow's name (default: '<name> (Copy)')")
    importing.add_argument(
        "--draft", action="store_true", help="keep placeholders left unmapped in the draft"
    )
    _options(importing, "blueprints_import")


def _options(parser: argparse.ArgumentParser, handler: str) -> None:
    add_db_option(parser)
    add_json_option(parser)
    add_agents_option(parser)
    parser.set_defaults(handler=_handler(handler))
