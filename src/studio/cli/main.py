"""The ``studio`` command: validate files, list blueprints, open or render the desktop app."""

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from studio import __version__
from studio.model import (
    Problem,
    WorkflowFileError,
    has_errors,
    read_definition,
    validate_definition,
)
from studio.workspace import Workspace

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the process exit code."""
    args = build_parser().parse_args(argv)
    handler = getattr(args, "handler", run_gui)
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="studio", description="Draw, run and trace agent workflows."
    )
    parser.add_argument("--version", action="version", version=f"studio {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    _add_gui(commands)
    _add_validate(commands)
    _add_blueprints(commands)
    _add_screenshot(commands)
    parser.set_defaults(file=None, agents=[])
    return parser


def _add_gui(commands: argparse._SubParsersAction) -> None:
    gui = commands.add_parser("gui", help="open the desktop app (the default)")
    gui.add_argument("file", nargs="?", help="a workflow file (YAML or JSON) to open")
    _add_agents_option(gui)
    gui.set_defaults(handler=run_gui)


def _add_validate(commands: argparse._SubParsersAction) -> None:
    validate = commands.add_parser("validate", help="check a workflow file")
    validate.add_argument("file", help="a workflow file (.yaml, .yml or .json)")
    validate.add_argument("--publish", action="store_true", help="also apply the publish rules")
    validate.add_argument("--json", action="store_true", help="print one JSON document")
    _add_agents_option(validate)
    validate.set_defaults(handler=run_validate)


def _add_blueprints(commands: argparse._SubParsersAction) -> None:
    blueprints = commands.add_parser("blueprints", help="the blueprint catalog")
    actions = blueprints.add_subparsers(title="actions", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="list the seed blueprints")
    listing.add_argument("--json", action="store_true", help="print one JSON document")
    listing.set_defaults(handler=run_blueprints_list)


def _add_screenshot(commands: argparse._SubParsersAction) -> None:
    shot = commands.add_parser("screenshot", help="render the app offscreen to a PNG")
    shot.add_argument("out", help="the PNG file to write")
    shot.add_argument("--open", dest="file", help="a workflow file to open first")
    shot.add_argument("--view", default="main", choices=["main"], help="what to render")
    shot.add_argument("--size", default="1280x800", help="window size as WIDTHxHEIGHT")
    _add_agents_option(shot)
    shot.set_defaults(handler=run_screenshot)


def _add_agents_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--agents",
        action="append",
        default=[],
        metavar="DIR",
        help="another folder of agent definitions",
    )


def workspace_for(args: argparse.Namespace) -> Workspace:
    """The workspace the arguments describe; agent files that failed to load are reported."""
    workspace = Workspace(agent_dirs=[Path(folder) for folder in args.agents])
    for problem in workspace.agents.problems:
        print(f"studio: warning: skipped agent file {problem}", file=sys.stderr)
    return workspace


def run_validate(args: argparse.Namespace) -> int:
    """``studio validate``: exit 0 valid, 1 invalid, 2 unreadable."""
    try:
        data = read_definition(args.file)
    except WorkflowFileError as failure:
        return _report_unreadable(args, failure)
    known_agents = workspace_for(args).agents if args.publish else frozenset()
    problems = validate_definition(data, publish=args.publish, known_agents=known_agents)
    valid = not has_errors(problems)
    if args.json:
        document = {"file": args.file, "valid": valid, "problems": [p.to_data() for p in problems]}
        print(json.dumps(document, indent=2))
    else:
        _print_problems(args.file, problems, publish=args.publish)
    return EXIT_OK if valid else EXIT_INVALID


def _report_unreadable(args: argparse.Namespace, failure: WorkflowFileError) -> int:
    if args.json:
        print(json.dumps({"file": args.file, "valid": False, "error": failure.to_data()}, indent=2))
    else:
        print(f"studio: {failure}", file=sys.stderr)
    return EXIT_UNREADABLE


def _print_problems(file: str, problems: list[Problem], *, publish: bool) -> None:
    for problem in problems:
        print(f"{file}: {problem.describe()}")
    errors = sum(problem.is_error for problem in problems)
    warnings = len(problems) - errors
    if errors:
        print(f"{file}: invalid ({errors} error(s), {warnings} warning(s))", file=sys.stderr)
    else:
        print(
            f"{file}: valid{' for publishing' if publish else ''}"
            + (f" ({warnings} warning(s))" if warnings else "")
        )


def run_blueprints_list(args: argparse.Namespace) -> int:
    """``studio blueprints list``: the seed blueprints, by name."""
    workspace = Workspace()
    for failure in workspace.blueprint_failures:
        print(f"studio: warning: skipped blueprint {failure}", file=sys.stderr)
    summaries = [blueprint.summary() for blueprint in workspace.blueprints]
    if args.json:
        print(json.dumps(summaries, indent=2))
        return EXIT_OK
    width = max((len(summary["name"]) for summary in summaries), default=0)
    for summary in summaries:
        name, category = summary["name"], summary["category"]
        print(f"{name:<{width}}  {category:<10}  {summary['nodes']} nodes  ({summary['slug']})")
    return EXIT_OK


def run_gui(args: argparse.Namespace) -> int:
    """``studio`` / ``studio gui``: open the desktop app, or say why it cannot."""
    from studio.ui.display import missing_display_reason

    reason = missing_display_reason()
    if reason:
        print(f"studio: cannot open the window: {reason}", file=sys.stderr)
        return EXIT_UNREADABLE
    from studio.ui.app import run_app

    return run_app(workspace_for(args), args.file)


def run_screenshot(args: argparse.Namespace) -> int:
    """``studio screenshot``: render the app offscreen to a PNG file."""
    from studio.ui.screenshot import parse_size, render_screenshot

    try:
        size = parse_size(args.size)
    except ValueError as failure:
        print(f"studio: {failure}", file=sys.stderr)
        return EXIT_UNREADABLE
    return render_screenshot(workspace_for(args), Path(args.out), size, args.file, args.view)
