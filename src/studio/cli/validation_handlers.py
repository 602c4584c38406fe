"""``studio validate``: reading a workflow file, judging it and printing its problems. Loaded
only when a command that checks a file runs."""

import argparse
import json
import sys
from collections.abc import Callable, Container

from studio.cli.agent_names import with_agent_suggestions
from studio.cli.shared import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, workspace_for
from studio.model import (
    Problem,
    WorkflowFileError,
    has_errors,
    read_definition,
    validate_definition,
)
from studio.model.source_lines import SourceLines
from studio.model.text_files import UnreadableFileError, read_text_file
from studio.model.workflow_files import format_of


def run_validate(args: argparse.Namespace) -> int:
    """``studio validate``: exit 0 valid, 1 invalid, 2 unreadable. Each problem names the
    line it is about; an agent the registry does not hold is an error with ``--publish`` and
    a warning without, either way with the agent ids it may have meant."""
    try:
        data = read_definition(args.file)
    except WorkflowFileError as failure:
        return report_unreadable(args, failure)
    agents = workspace_for(args).agents
    known_agents: Container[str] = agents if args.publish else frozenset()
    problems = validate_definition(data, publish=args.publish, known_agents=known_agents)
    problems = with_agent_suggestions(data, problems, agents, warn=not args.publish)
    lines = source_lines(args.file, problems)
    valid = not has_errors(problems)
    if args.json:
        found = [_located(p.to_data(), lines.line_of_problem(p, data)) for p in problems]
        document = {"file": args.file, "valid": valid, "problems": found}
        print(json.dumps(document, indent=2))
    else:
        print_problems(
            args.file,
            problems,
            publish=args.publish,
            where=lambda problem: lines.line_of_problem(problem, data),
        )
    return EXIT_OK if valid else EXIT_INVALID


def source_lines(file: str, problems: list[Problem]) -> SourceLines:
    """Where the file's keys are written (nothing is read again when there are no problems)."""
    if not problems:
        return SourceLines({})
    try:
        return SourceLines.of_text(read_text_file(file), format_of(file))
    except (UnreadableFileError, WorkflowFileError):
        return SourceLines({})


def _located(data: dict, line: int | None) -> dict:
    return data if line is None else data | {"line": line}


def report_unreadable(args: argparse.Namespace, failure: WorkflowFileError) -> int:
    """Exit 2 for a file that cannot be read or parsed, naming the file and line."""
    if getattr(args, "json", False):
        document = {"file": str(failure.path), "valid": False, "error": failure.to_data()}
        print(json.dumps(document, indent=2))
    else:
        print(f"studio: {failure}", file=sys.stderr)
    return EXIT_UNREADABLE


def print_problems(
    file: str,
    problems: list[Problem],
    *,
    publish: bool,
    where: Callable[[Problem], int | None] = lambda _problem: None,
) -> None:
    """One line per problem (``FILE:LINE: …`` when its line is known), then a verdict."""
    for problem in problems:
        line = where(problem)
        print(f"{file}{'' if line is None else f':{line}'}: {problem.describe()}")
    errors = sum(problem.is_error for problem in problems)
    warnings = len(problems) - errors
    if errors:
        print(f"{file}: invalid ({errors} error(s), {warnings} warning(s))", file=sys.stderr)
        return
    verdict = "valid for publishing" if publish else "valid"
    print(f"{file}: {verdict}" + (f" ({warnings} warning(s))" if warnings else ""))
