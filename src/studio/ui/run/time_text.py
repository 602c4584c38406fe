"""Moments, durations and execution ids as the run panels print them."""

from datetime import datetime

from studio.model.run_words import NO_VALUE, duration_words

SHORT_ID_LENGTH = 8


def local_time_text(moment: datetime | None) -> str:
    """A stored (UTC) moment in the computer's local time: "2025-01-25 13:15:00"."""
    if moment is None:
        return NO_VALUE
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def duration_text(start: datetime | None, end: datetime | None) -> str:
    """How long from ``start`` to ``end``, as every run view says it: "8 ms", "1.2 s",
    "3 min 4 s" (``duration_words``), or "—" when either is unknown."""
    if start is None or end is None:
        return NO_VALUE
    return duration_words((end - start).total_seconds())


def short_id(execution_id: str) -> str:
    """The first characters of an execution id, enough to tell runs apart in a list."""
    return execution_id[:SHORT_ID_LENGTH]


def waited_text(since: datetime, now: datetime) -> str:
    """How long ago ``since`` was, in the words of a list column: "3 min ago", "2 days ago"."""
    minutes = max(0, int((now - since).total_seconds())) // 60
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes} min ago"
    if minutes < 24 * 60:
        return f"{minutes // 60} h ago"
    days = minutes // (24 * 60)
    return f"{days} day{'' if days == 1 else 's'} ago"


def timestamp_text(moment: datetime) -> str:
    """The full moment in the local time zone, for a tooltip."""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S %Z").strip()
