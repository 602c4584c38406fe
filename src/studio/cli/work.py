"""``studio work enqueue|lint|list|show|ack|release|kill|requeue|return|sweep``: the Fabric work
queue from a terminal. Its arguments; the handlers live in ``work_handlers`` and load only when
one of these commands runs."""

import argparse
import getpass
from collections.abc import Callable

from studio.cli.command_parser import add_arguments_when_used
from studio.cli.shared import add_db_option, add_json_option, lazy_handler


def _handler(name: str) -> Callable[[argparse.Namespace], int]:
    return lazy_handler("studio.cli.work_handlers", name)


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register ``work`` and its actions."""
    work = commands.add_parser("work", help="the Fabric work queue: order, follow and close work")
    add_arguments_when_used(work, _add_actions)


def _add_actions(work: argparse.ArgumentParser) -> None:
    """The actions and their arguments, added when a ``work`` command is parsed: they name the
    queue's statuses and exits, which live with the models (loading them is not for
    ``studio --help``)."""
    actions = work.add_subparsers(title="actions", required=True)
    _add_submitting(actions)
    _add_reading(actions)
    _add_lease_holding(actions)
    _add_peoples_actions(actions)
    sweep = actions.add_parser(
        "sweep",
        help="deliver closed items to their requesters and sign them",
        description="Deliver every closed, unsigned item to its requester (the channel of "
        "fabric.deliveries in settings.yaml; a file drop under the data folder's deliveries/ "
        "by default) and sign it. Exit 1 when a delivery failed: that item stays unsigned "
        "and the next sweep retries it.",
    )
    _options(sweep, "work_sweep")


def _add_submitting(actions: argparse._SubParsersAction) -> None:
    enqueue = actions.add_parser("enqueue", help="put a work item on the queue after Gate A")
    enqueue.add_argument("file", metavar="FILE", help="the work item (Markdown, front matter)")
    enqueue.add_argument("--by", metavar="NAME", help="who submits it (default: requested_by)")
    _options(enqueue, "work_enqueue")
    lint = actions.add_parser("lint", help="check a work item against Gate A; nothing stored")
    lint.add_argument("file", metavar="FILE", help="the work item (Markdown, front matter)")
    _options(lint, "work_lint")


def _add_reading(actions: argparse._SubParsersAction) -> None:
    from studio.model.work_items import STATUSES

    listing = actions.add_parser("list", help="the items on the queue, oldest first")
    listing.add_argument("--status", choices=STATUSES, metavar="S", help="only items in S")
    listing.add_argument("--capability", metavar="C", help="only items ordered from C")
    _options(listing, "work_list")
    show = actions.add_parser("show", help="one item's document")
    show.add_argument("item_id", metavar="ID")
    _options(show, "work_show")


def _add_lease_holding(actions: argparse._SubParsersAction) -> None:
    from studio.model.work_items import PORT_EXITS

    ack = _item_action(actions, "ack", "end a lease with an exit", "work_ack")
    ack.add_argument("exit", metavar="EXIT", help=", ".join(PORT_EXITS))
    _token_options(ack, "why, on the work log")
    release = _item_action(actions, "release", "give a leased item back unbuilt", "work_release")
    _token_options(release, "why, on the work log")


def _add_peoples_actions(actions: argparse._SubParsersAction) -> None:
    for name, summary, handler in (
        ("kill", "end an open item: killed, filed and delivered", "work_kill"),
        ("requeue", "put a parked or escalated item back on the queue", "work_requeue"),
        ("return", "send an open item back to intake (needs-context)", "work_return"),
    ):
        parser = _item_action(actions, name, summary, handler)
        parser.add_argument("--reason", required=True, metavar="R", help="why, on the work log")
        parser.add_argument(
            "--by", default=getpass.getuser(), metavar="NAME", help="who acts (default: you)"
        )


def _item_action(
    actions: argparse._SubParsersAction, name: str, summary: str, handler: str
) -> argparse.ArgumentParser:
    parser = actions.add_parser(name, help=summary)
    parser.add_argument("item_id", metavar="ID", help="the work item's id")
    _options(parser, handler)
    return parser


def _token_options(parser: argparse.ArgumentParser, reason: str) -> None:
    parser.add_argument(
        "--token", type=int, required=True, metavar="N", help="the lease's fencing token"
    )
    parser.add_argument("--reason", default="", metavar="R", help=reason)


def _options(parser: argparse.ArgumentParser, handler: str) -> None:
    add_db_option(parser)
    add_json_option(parser)
    parser.set_defaults(handler=_handler(handler), agents=[])
