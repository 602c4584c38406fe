"""Executions as the terminal prints them, in the words the app uses: "Completed (8 ms)",
"Not run · upstream failed", and "Interrupted" for a run whose runner has gone."""

from datetime import UTC, datetime
from typing import Any

from studio.engine.interruption import is_interrupted
from studio.engine.runner import RunnerSettings
from studio.model.execution import ExecutionRecord, NodeResult
from studio.model.run_view import INTERRUPTED
from studio.model.run_words import UPSTREAM_FAILED, duration_words, shown_status, status_words


def execution_status(record: ExecutionRecord, now: datetime | None = None) -> str:
    """The run's status as shown: "interrupted" once nobody drives an unfinished run."""
    moment = now or datetime.now(UTC)
    if is_interrupted(record, moment, RunnerSettings().stale_after):
        return INTERRUPTED
    return record.status


def took_seconds(record: ExecutionRecord) -> float | None:
    """How long the run took, once it has finished."""
    if record.started_at and record.completed_at:
        return (record.completed_at - record.started_at).total_seconds()
    return None


def listing_line(record: ExecutionRecord, started: str | None) -> str:
    """One line of ``studio executions list``."""
    words = status_words(execution_status(record))
    return (
        f"{record.execution_id}  {words:<20}  v{record.workflow_version:<3} "
        f"{started or '-':<27}  {duration_words(took_seconds(record))}"
    )


def record_lines(record: ExecutionRecord) -> list[str]:
    """A run with a line per node, what went wrong and, once completed, its output."""
    words = status_words(execution_status(record))
    lines = [f"execution {record.execution_id}: {words} ({duration_words(took_seconds(record))})"]
    lines += [node_line(node_id, result) for node_id, result in record.node_results.items()]
    if record.error:
        lines.append(f"  error: {record.error.get('message')}")
    return lines


def node_line(node_id: str, result: NodeResult) -> str:
    """A node's status in words, its retries and its error (a node not run because one before
    it failed says which)."""
    shown = shown_status(result.status, result.error)
    retries = f", {result.retry_count} retries" if result.retry_count else ""
    error = _error_text(result.error, shown)
    return f"  {node_id:<24} {status_words(shown):<26}{retries}{error}".rstrip()


def _error_text(error: dict[str, Any] | None, shown: str) -> str:
    if not error:
        return ""
    if shown == UPSTREAM_FAILED:
        return f" — {error.get('message')}"
    return f" — {error.get('type')}: {error.get('message')}"
