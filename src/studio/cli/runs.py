"""``studio run``, ``resume``, ``cancel`` and ``executions``: their arguments.

The handlers live in ``run_handlers`` and are imported only when one of these commands runs,
so that other commands start without loading the engine and the database layer.
"""

import argparse
import getpass
from collections.abc import Callable

from studio.cli.shared import add_agents_option, add_db_option, add_json_option, lazy_handler


def _handler(name: str) -> Callable[[argparse.Namespace], int]:
    return lazy_handler("studio.cli.run_handlers", name)


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register ``run``, ``resume``, ``cancel`` and ``executions``."""
    run = commands.add_parser("run", help="run a workflow file or a stored workflow")
    run.add_argument("target", metavar="FILE|WORKFLOW_ID")
    run.add_argument("--input", default=None, help="the input as JSON, or @FILE")
    _add_run_options(run)
    run.set_defaults(handler=_handler("run_run"))
    resume = commands.add_parser("resume", help="continue an interrupted execution")
    resume.add_argument("execution_id", metavar="ID")
    _add_run_options(resume)
    resume.set_defaults(handler=_handler("run_resume"))
    cancel = commands.add_parser("cancel", help="cancel a running execution")
    cancel.add_argument("execution_id", metavar="ID")
    add_db_option(cancel)
    add_json_option(cancel)
    cancel.set_defaults(handler=_handler("run_cancel"))
    approve = commands.add_parser("approve", help="approve or reject a node waiting for a person")
    approve.add_argument("execution_id", metavar="EXECUTION_ID")
    approve.add_argument("node_id", metavar="NODE_ID")
    approve.add_argument("--reject", action="store_true", help="reject instead of approving")
    approve.add_argument("--comment", help="why, for the record")
    approve.add_argument("--by", default=getpass.getuser(), help="who decides (default: you)")
    _add_run_options(approve)
    approve.set_defaults(handler=_handler("run_approve"))
    approvals = commands.add_parser("approvals", help="nodes waiting for a person's decision")
    add_db_option(approvals)
    add_json_option(approvals)
    approvals.set_defaults(handler=_handler("run_approvals"), agents=[])
    _add_executions(commands)


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    add_agents_option(parser)
    add_db_option(parser)
    add_json_option(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument("--log-json", action="store_true", help="structured logs on stderr too")


def _add_executions(commands: argparse._SubParsersAction) -> None:
    executions = commands.add_parser("executions", help="past and running executions")
    actions = executions.add_subparsers(title="actions", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="executions, newest first")
    listing.add_argument("--workflow", help="only this workflow's executions")
    listing.add_argument("--status", help="only executions with this status")
    add_db_option(listing)
    add_json_option(listing)
    listing.set_defaults(handler=_handler("run_executions_list"))
    show = actions.add_parser("show", help="one execution with its node results")
    show.add_argument("execution_id", metavar="ID")
    show.add_argument("--events", action="store_true", help="also the event history")
    add_db_option(show)
    add_json_option(show)
    show.set_defaults(handler=_handler("run_executions_show"))
