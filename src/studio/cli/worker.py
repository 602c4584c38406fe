"""``studio worker``: build a capability's work items from the queue. Its arguments; the
handler lives in ``worker_handlers`` and loads only when the command runs."""

import argparse

from studio.cli.shared import add_agents_option, add_db_option, add_json_option, lazy_handler


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register ``worker``."""
    worker = commands.add_parser(
        "worker",
        help="pull a capability's work items and build them",
        description="Pull work items in scope, build each with the capability's workflow and "
        "ack it. Ctrl+C releases the leases held and exits.",
    )
    worker.add_argument("--capability", required=True, metavar="NAME", help="what it serves")
    worker.add_argument(
        "--types", metavar="T,…", help="only these artifact types (default: every type)"
    )
    worker.add_argument(
        "--concurrency", type=int, default=1, metavar="N", help="items built at once"
    )
    worker.add_argument(
        "--definition",
        metavar="DIR",
        help="the capability definition folder (default: capabilities/NAME in the data folder)",
    )
    worker.add_argument(
        "--lease-ttl", type=float, default=30.0, metavar="S", help="lease time to live"
    )
    ending = worker.add_mutually_exclusive_group()
    ending.add_argument(
        "--once", action="store_true", help="stop when nothing in scope is leasable"
    )
    ending.add_argument(
        "--idle-exit", type=float, metavar="S", help="stop after S seconds with nothing to pull"
    )
    worker.add_argument("--name", metavar="W", help="the worker's name (default: host-pid)")
    add_agents_option(worker)
    add_db_option(worker)
    add_json_option(worker)
    worker.set_defaults(handler=lazy_handler("studio.cli.worker_handlers", "run_worker"))
