"""Execution and workflow ids as a person types them: the whole id, or a unique prefix of at
least ``MIN_PREFIX`` characters (the short ids the app shows are such prefixes).

A prefix that is too short, matches nothing or matches several ids is an ``ArgumentProblem``
whose text says so; an ambiguous one lists every match on its own line."""

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from studio.cli.shared import ArgumentProblem
from studio.model.run_words import status_words

if TYPE_CHECKING:
    from studio.workspace import Workspace

MIN_PREFIX = 6
MATCHES_LISTED = 50
"""At most this many executions are listed for an ambiguous prefix."""


def resolve_execution(workspace: "Workspace", text: str) -> str:
    """The execution id ``text`` stands for."""
    executions = workspace.executions
    if executions.find(execution_id=text, limit=1):
        return text
    check_prefix_length(text, "an execution id")
    matches = [
        (
            record.execution_id,
            f"{status_words(record.status):<20}  {_moment_text(record.created_at)}",
        )
        for record in executions.find(id_prefix=text, limit=MATCHES_LISTED)
    ]
    return the_one_match(text, "execution", matches)


def resolve_workflow(workspace: "Workspace", text: str) -> str:
    """The workflow id ``text`` stands for."""
    stored = workspace.workflows.find()
    if any(workflow.id == text for workflow in stored):
        return text
    check_prefix_length(text, "a workflow id")
    matches = [
        (workflow.stored_id, f"{workflow.status:<9}  {workflow.name}")
        for workflow in stored
        if workflow.stored_id.startswith(text)
    ]
    return the_one_match(text, "workflow", matches)


def resolving(
    resolve: Callable[["Workspace", str], str], workspace: "Workspace", text: str | None
) -> str | None:
    """``resolve(workspace, text)`` for an optional id: None stays None."""
    return None if text is None else resolve(workspace, text)


def _moment_text(moment: datetime | None) -> str:
    return "-" if moment is None else f"{moment:%Y-%m-%d %H:%M:%S}"


def check_prefix_length(text: str, kind: str) -> None:
    """Refuse a prefix too short to name one record of ``kind`` ("an app id")."""
    if len(text) < MIN_PREFIX:
        raise ArgumentProblem(
            f"'{text}' is too short for {kind}: give at least {MIN_PREFIX} of its characters"
        )


def the_one_match(text: str, kind: str, matches: Sequence[tuple[str, str]]) -> str:
    """The single match; otherwise why there is none, every match listed."""
    if len(matches) == 1:
        return matches[0][0]
    if not matches:
        raise ArgumentProblem(f"no {kind} '{text}' in this database")
    listed = "\n".join(f"  {found}  {detail}" for found, detail in sorted(matches))
    raise ArgumentProblem(
        f"'{text}' matches {len(matches)} {kind}s; give more of the id:\n{listed}"
    )
