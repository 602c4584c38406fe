"""``studio capabilities publish|list|show``: the capability manifests Gate A reads. Its
arguments; the handlers live in ``capabilities_handlers`` and load only when one of these
commands runs."""

import argparse
from collections.abc import Callable

from studio.cli.shared import add_db_option, add_json_option, lazy_handler

SOURCE_HELP = "a manifest source, or a capability folder holding manifest.md"


def _handler(name: str) -> Callable[[argparse.Namespace], int]:
    return lazy_handler("studio.cli.capabilities_handlers", name)


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register ``capabilities`` and its actions."""
    capabilities = commands.add_parser(
        "capabilities", help="capability manifests: what each capability offers"
    )
    actions = capabilities.add_subparsers(title="actions", required=True)
    publish = actions.add_parser(
        "publish", help="publish a manifest: the next version, stamped with its source's hash"
    )
    publish.add_argument("file", metavar="FILE|DIR", help=SOURCE_HELP)
    _options(publish, "capabilities_publish")
    listing = actions.add_parser("list", help="the latest published manifest of each capability")
    _options(listing, "capabilities_list")
    show = actions.add_parser(
        "show",
        help="one capability's published manifest",
        description="One capability's published manifest. With --source, also the readiness "
        "check: whether the published copy still matches its source.",
    )
    show.add_argument("name", metavar="NAME", help="the capability")
    show.add_argument("--source", metavar="FILE|DIR", help=f"{SOURCE_HELP}, to compare with")
    _options(show, "capabilities_show")


def _options(parser: argparse.ArgumentParser, handler: str) -> None:
    add_db_option(parser)
    add_json_option(parser)
    parser.set_defaults(handler=_handler(handler), agents=[])
