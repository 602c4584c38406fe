"""Which runs the history's filter lets through: words against id, status and version, and a
status choice."""

from studio.model.execution import ExecutionRecord
from studio.ui.run.status_look import INTERRUPTED, execution_look

STATUS_CHOICES: dict[str, frozenset[str] | None] = {
    "All": None,
    "Completed": frozenset({"completed"}),
    "Failed": frozenset({"failed"}),
    "Running": frozenset({"running", "pending"}),
    "Waiting": frozenset({"waiting"}),
    "Cancelled": frozenset({"cancelled"}),
    "Interrupted": frozenset({INTERRUPTED}),
}
"""The status combo's entries and the statuses each lets through (None: every status)."""


def shown_status(record: ExecutionRecord, interrupted: bool) -> str:
    """The status a run is filed under: its stored status, or "interrupted"."""
    return INTERRUPTED if interrupted else record.status


def word_matches(record: ExecutionRecord, interrupted: bool, word: str) -> bool:
    """Whether one lower-case word is the start of the id, part of the status or the version."""
    label = execution_look(record.status, interrupted).label.lower()
    if interrupted:
        label += " resumable"  # what Resume can do with it: a word to find it by
    version = record.workflow_version
    return (
        record.execution_id.lower().startswith(word)
        or word in label
        or word in shown_status(record, interrupted)
        or word in (f"v{version}", str(version))
    )


def run_matches(record: ExecutionRecord, interrupted: bool, text: str, choice: str) -> bool:
    """Whether the run passes the filter box's ``text`` (every word) and the status ``choice``."""
    statuses = STATUS_CHOICES.get(choice)
    if statuses is not None and shown_status(record, interrupted) not in statuses:
        return False
    return all(word_matches(record, interrupted, word) for word in text.lower().split())
