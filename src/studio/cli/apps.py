"""``studio apps list|create|show|rename|archive|delete|bind|unbind``: the apps that group the
workspace's workflows. Its arguments; the handlers live in ``apps_handlers`` and load only when
one of these commands runs."""

import argparse
from collections.abc import Callable

from studio.cli.shared import add_db_option, add_json_option, lazy_handler

APP_ID_HELP = "its id, or 6 or more of its first characters"
WORKFLOW_ID_HELP = "the workflow's id, or 6 or more of its first characters"


def _handler(name: str) -> Callable[[argparse.Namespace], int]:
    return lazy_handler("studio.cli.apps_handlers", name)


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register ``apps`` and its actions."""
    apps = commands.add_parser("apps", help="the apps that group workflows")
    actions = apps.add_subparsers(title="actions", required=True)
    listing = actions.add_parser("list", help="the apps, by name")
    listing.add_argument("--all", action="store_true", help="archived apps too")
    _options(listing, "apps_list")
    create = actions.add_parser("create", help="a new app")
    create.add_argument("name", metavar="NAME")
    create.add_argument("--description", default="", metavar="D", help="what the app is for")
    _options(create, "apps_create")
    _app_action(actions, "show", "one app with its workflows", "apps_show")
    rename = _app_action(actions, "rename", "give an app a new name", "apps_rename")
    rename.add_argument("name", metavar="NAME")
    rename.add_argument("--description", metavar="D", help="a new description too")
    _app_action(actions, "archive", "archive an app (its workflows stay bound)", "apps_archive")
    _app_action(actions, "delete", "delete an app; its workflows are kept", "apps_delete")
    bind = _app_action(actions, "bind", "bind a workflow to an app", "apps_bind")
    bind.add_argument("workflow_id", metavar="WORKFLOW", help=WORKFLOW_ID_HELP)
    unbind = _app_action(actions, "unbind", "unbind a workflow from an app", "apps_unbind")
    unbind.add_argument("workflow_id", metavar="WORKFLOW", help=WORKFLOW_ID_HELP)


def _app_action(
    actions: argparse._SubParsersAction, name: str, summary: str, handler: str
) -> argparse.ArgumentParser:
    """An action on one app: its ``ID`` argument, ``--db`` and ``--json``."""
    parser = actions.add_parser(name, help=summary)
    metavar = "APP" if name in {"bind", "unbind"} else "ID"
    parser.add_argument("app_id", metavar=metavar, help=f"the app: {APP_ID_HELP}")
    _options(parser, handler)
    return parser


def _options(parser: argparse.ArgumentParser, handler: str) -> None:
    add_db_option(parser)
    add_json_option(parser)
    parser.set_defaults(handler=_handler(handler), agents=[])
