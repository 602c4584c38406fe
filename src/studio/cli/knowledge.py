"""``studio kg``: the knowledge store from a terminal. Its arguments; the handlers live in
``knowledge_handlers`` and load only when a ``kg`` command runs."""

import argparse
import importlib
from collections.abc import Callable

from studio.cli.shared import ArgumentProblem, add_db_option, add_json_option, fail


def _handler(name: str) -> Callable[[argparse.Namespace], int]:
    def handle(args: argparse.Namespace) -> int:
        handlers = importlib.import_module("studio.cli.knowledge_handlers")
        try:
            return getattr(handlers, name)(args)
        except ArgumentProblem as problem:
            return fail(str(problem))

    return handle


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register ``kg`` and its subcommands."""
    kg = commands.add_parser("kg", help="land, search and trace knowledge artifacts")
    sub = kg.add_subparsers(title="kg commands", metavar="COMMAND", required=True)
    _command(sub, "land", "land one Markdown artifact", "kg_land").add_argument("file")
    ingest = _command(sub, "ingest", "land a folder of artifacts in date order", "kg_ingest")
    ingest.add_argument("folder")
    ingest.add_argument("--quiet", action="store_true", help="no progress bar")
    show = _command(sub, "show", "print the graph under the view rules", "kg_show")
    _add_view_options(show)
    show.add_argument("--as-of", metavar="TIME", help="the graph as it stood then (ISO time)")
    show.add_argument("--around", metavar="NODE", help="only the neighbourhood of a node")
    show.add_argument("--depth", type=int, default=1, help="with --around: how far (default 1)")
    show.add_argument(
        "--lineage", choices=["up", "down"], help="with --around: what it came from / led to"
    )
    search = _command(sub, "search", "full-text search of current artifacts", "kg_search")
    search.add_argument("query")
    search.add_argument("--subject")
    search.add_argument("--kind")
    search.add_argument("--as-of", metavar="TIME")
    _command(sub, "lint", "check an artifact without landing it", "kg_lint").add_argument("file")
    history = _command(sub, "history", "every version of one artifact", "kg_history")
    history.add_argument("subject")
    history.add_argument("artifact_id", metavar="ID")
    diff = _command(sub, "diff", "what changed in the graph between two times", "kg_diff")
    diff.add_argument("--from", dest="before", required=True, metavar="T1")
    diff.add_argument("--to", dest="after", required=True, metavar="T2")
    _add_view_options(diff)
    coverage = _command(sub, "coverage", "coverage gaps and suspect links", "kg_coverage")
    coverage.add_argument("--as-of", metavar="TIME")
    _command(sub, "rebuild", "derive every graph row again from the stored text", "kg_rebuild")
    _command(
        sub,
        "verify",
        "check every stored version against its hashes and its graph rows against its text",
        "kg_verify",
    )
    _command(sub, "list", "the current artifacts", "kg_list").add_argument("--subject")
    _command(sub, "resolve", "print a stored artifact (checked)", "kg_resolve").add_argument("ref")


def _command(sub, name: str, text: str, handler: str) -> argparse.ArgumentParser:
    parser = sub.add_parser(name, help=text, description=text)
    add_db_option(parser)
    add_json_option(parser)
    parser.set_defaults(handler=_handler(handler), agents=[])
    return parser


def _add_view_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--subject", help="only this subject (node ids are then unqualified)")
    parser.add_argument("--items", action="store_true", help="add typed items")
    parser.add_argument("--units", action="store_true", help="add units of work")
    parser.add_argument("--sections", action="store_true", help="add sections")
