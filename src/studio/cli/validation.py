"""``studio validate`` and ``studio blueprints list``."""

import argparse
import json
import sys
from collections.abc import Container

from studio.cli.shared import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    add_agents_option,
    add_json_option,
    workspace_for,
)
from studio.model import (
    Problem,
    WorkflowFileError,
    has_errors,
    read_definition,
    validate_definition,
)


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register ``validate`` and ``blueprints``."""
    validate = commands.add_parser("validate", help="check a workflow file")
    validate.add_argument("file", help="a workflow file (.yaml, .yml or .json)")
    validate.add_argument("--publish", action="store_true", help="also apply the publish rules")
    add_json_option(validate)
    add_agents_option(validate)
    validate.set_defaults(handler=run_validate)
    blueprints = commands.add_parser("blueprints", help="the blueprint catalog")
    actions = blueprints.add_subparsers(title="actions", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="list the seed blueprints")
    add_json_option(listing)
    listing.set_defaults(handler=run_blueprints_list)


def run_validate(args: argparse.Namespace) -> int:
    """``studio validate``: exit 0 valid, 1 invalid, 2 unreadable."""
    try:
        data = read_definition(args.file)
    except WorkflowFileError as failure:
        return report_unreadable(args, failure)
    known_agents: Container[str] = workspace_for(args).agents if args.publish else frozenset()
    problems = validate_definition(data, publish=args.publish, known_agents=known_agents)
    valid = not has_errors(problems)
    if args.json:
        document = {"file": args.file, "valid": valid, "problems": [p.to_data() for p in problems]}
        print(json.dumps(document, indent=2))
    else:
        print_problems(args.file, problems, publish=args.publish)
    return EXIT_OK if valid else EXIT_INVALID


def report_unreadable(args: argparse.Namespace, failure: WorkflowFileError) -> int:
    """Exit 2 for a file that cannot be read or parsed, naming the file and line."""
    if getattr(args, "json", False):
        document = {"file": str(failure.path), "valid": False, "error": failure.to_data()}
        print(json.dumps(document, indent=2))
    else:
        print(f"studio: {failure}", file=sys.stderr)
    return EXIT_UNREADABLE


def print_problems(file: str, problems: list[Problem], *, publish: bool) -> None:
    """One line per problem, then a verdict."""
    for problem in problems:
        print(f"{file}: {problem.describe()}")
    errors = sum(problem.is_error for problem in problems)
    warnings = len(problems) - errors
    if errors:
        print(f"{file}: invalid ({errors} error(s), {warnings} warning(s))", file=sys.stderr)
        return
    verdict = "valid for publishing" if publish else "valid"
    print(f"{file}: {verdict}" + (f" ({warnings} warning(s))" if warnings else ""))


def run_blueprints_list(args: argparse.Namespace) -> int:
    """``studio blueprints list``: the seed blueprints, by name."""
    from studio.workspace import Workspace  # the engine is not needed to list blueprints

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
