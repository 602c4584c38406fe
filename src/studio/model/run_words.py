"""The words a run's statuses and durations are told in, the same on the canvas, in the Steps
table and in ``studio executions``.

A node the engine did not run because a node before it failed is stored as failed, with an
``UpstreamFailed`` error; a person reads it as "Not run · upstream failed", apart from the
node that did fail. A run whose runner went away is "Interrupted" wherever it is shown."""

from collections.abc import Mapping
from typing import Any

from studio.model.execution import FAILED
from studio.model.run_view import INTERRUPTED

NO_VALUE = "—"
UPSTREAM_FAILED = "upstream_failed"
"""How a node failed only because one before it did is shown (not a stored status)."""
UPSTREAM_ERROR = "UpstreamFailed"
"""The error type the engine gives such a node."""

STATUS_WORDS = {
    "pending": "Pending",
    "running": "Running",
    "completed": "Completed",
    "failed": "Failed",
    "skipped": "Skipped",
    "waiting": "Waiting for approval",
    "retrying": "Retrying",
    "cancelled": "Cancelled",
    "compensating": "Compensating",
    "compensated": "Compensated",
    "compensation_failed": "Compensation failed",
    "not_started": "Not started",
    INTERRUPTED: "Interrupted",
    UPSTREAM_FAILED: "Not run · upstream failed",
}


def shown_status(status: str, error: Mapping[str, Any] | None = None) -> str:
    """The status a person is shown: "upstream_failed" for a node failed only because one
    before it did, else the status itself."""
    if status == FAILED and error is not None and error.get("type") == UPSTREAM_ERROR:
        return UPSTREAM_FAILED
    return status


def status_words(status: str) -> str:
    """A status in words: "Completed", "Not run · upstream failed"; an unknown one as itself."""
    return STATUS_WORDS.get(status) or status.replace("_", " ").capitalize()


def duration_words(seconds: float | None) -> str:
    """A duration as every run view prints it: "8 ms", "1.2 s", "12 s", "3 min 4 s",
    "1 h 2 min", or "—" when unknown."""
    if seconds is None:
        return NO_VALUE
    seconds = max(0.0, seconds)
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes, rest = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {rest} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"
