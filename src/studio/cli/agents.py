"""``studio agents list|show|versions|diff|fork``: the versioned agent library. Its arguments;
the handlers live in ``agents_handlers`` and load only when one of these commands runs."""

import argparse
from collections.abc import Callable

from studio.cli.shared import add_db_option, add_json_option, lazy_handler

NAMESPACE_HELP = "SYSTEM, default or folder (default: the one in use, default over SYSTEM)"


def _handler(name: str) -> Callable[[argparse.Namespace], int]:
    return lazy_handler("studio.cli.agents_handlers", name)


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register ``agents`` and its actions."""
    agents = commands.add_parser("agents", help="the versioned agent library")
    actions = agents.add_subparsers(title="actions", required=True)
    _options(actions.add_parser("list", help="the agents in use, by id"), "agents_list")
    show = _agent_action(actions, "show", "one definition (the latest version)", "agents_show")
    show.add_argument("--version", type=int, metavar="N", help="this version instead")
    _agent_action(actions, "versions", "every version of a definition", "agents_versions")
    diff = _agent_action(actions, "diff", "what changed between two versions", "agents_diff")
    diff.add_argument("old", type=int, metavar="V1")
    diff.add_argument("new", type=int, metavar="V2")
    fork = actions.add_parser("fork", help="copy a SYSTEM definition into default to edit it")
    fork.add_argument("agent_id", metavar="ID")
    _options(fork, "agents_fork")


def _agent_action(
    actions: argparse._SubParsersAction, name: str, summary: str, handler: str
) -> argparse.ArgumentParser:
    """An action on one agent: its ``ID``, ``--namespace``, ``--db`` and ``--json``."""
    parser = actions.add_parser(name, help=summary)
    parser.add_argument("agent_id", metavar="ID")
    parser.add_argument("--namespace", metavar="NS", help=NAMESPACE_HELP)
    _options(parser, handler)
    return parser


def _options(parser: argparse.ArgumentParser, handler: str) -> None:
    add_db_option(parser)
    add_json_option(parser)
    parser.set_defaults(handler=_handler(handler), agents=[])
