"""How work items look on the board: which column each status goes to, each status's icon,
words and colour, and the time a lease has left, in words.

Status is never told by colour alone: each look has an icon of its own shape and a label.
This module holds no widgets."""

from dataclasses import dataclass
from datetime import datetime

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from studio.model.work_items import LEASED, TERMINAL, WorkItem
from studio.ui.icons import status_icon_name
from studio.ui.run.status_look import StatusLook


@dataclass(frozen=True)
class Column:
    """One column of the board: its name, its heading and the statuses it shows."""

    name: str
    heading: str
    statuses: frozenset[str]


CLOSED = "closed"
COLUMNS = (
    Column("queued", "Queued", frozenset({"queued"})),
    Column("leased", "Leased", frozenset({"leased"})),
    Column("in-build", "In build", frozenset({"in-build"})),
    Column("needs-context", "Needs context", frozenset({"needs-context"})),
    Column("escalated", "Escalated", frozenset({"escalated"})),
    Column(CLOSED, "Closed", frozenset(TERMINAL)),
)
"""The board's columns, left to right; the closed column holds every terminal status."""


def _look(status: str, shape: str, light: str, dark: str, label: str) -> StatusLook:
    return StatusLook(status, status_icon_name(shape), label, light, dark)


WORK_LOOKS = {
    look.status: look
    for look in (
        _look("queued", "pending", "#5f6b7a", "#a0a9b4", "Queued"),
        _look("leased", "waiting", "#1a66d2", "#6ea8ff", "Leased"),
        _look("in-build", "running", "#6a3fc1", "#b392f0", "In build"),
        _look("needs-context", "interrupted", "#a36b00", "#f2c14e", "Needs context"),
        _look("escalated", "compensation_failed", "#c45500", "#ffa657", "Escalated"),
        _look("done", "completed", "#1e7d34", "#6fcf7f", "Done"),
        _look("killed", "failed", "#c5221f", "#ff7b72", "Killed"),
        _look("returned", "cancelled", "#5f6368", "#b0b4b8", "Returned"),
    )
}
"""Each queue status's icon, words and colour on light and dark windows."""


def work_look(status: str) -> StatusLook:
    """The look of a queue status; an unknown one reads as itself, in grey."""
    known = WORK_LOOKS.get(status)
    if known is not None:
        return known
    return StatusLook(status, status_icon_name("unknown"), status, "#6b7078", "#a0a4ab")


def dark_window() -> bool:
    """Whether the theme shown is dark."""
    return QApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def column_of(status: str) -> str:
    """The name of the column an item of this status is shown in."""
    return next((column.name for column in COLUMNS if status in column.statuses), CLOSED)


def time_left(expires_at: datetime, now: datetime) -> str:
    """What a lease has left, as a clock counts down: "0:27", "12:04", "1:02:09"; "expired"
    once it has run out."""
    seconds = int((expires_at - now).total_seconds())
    if seconds <= 0:
        return "expired"
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def lease_text(item: WorkItem, now: datetime) -> str:
    """Who holds the item and for how long: "worker-1 · 0:27 left"; empty when not leased."""
    if item.lease is None or item.status not in LEASED:
        return ""
    left = time_left(item.lease.expires_at, now)
    return f"{item.lease.worker} · {left}" + ("" if left == "expired" else " left")


def last_moment(item: WorkItem) -> datetime:
    """When the queue last changed the item (a closed item's close); its creation when the
    queue has not said."""
    return item.updated_at or item.created_at


def board_order(column: str, items: list[WorkItem]) -> list[WorkItem]:
    """The items of a column in the order it shows them: the closed column most recent first,
    the others oldest first (the order the queue serves them)."""
    if column == CLOSED:
        return sorted(items, key=last_moment, reverse=True)
    return sorted(items, key=lambda item: (item.created_at, item.id))


def counted(count: int, noun: str) -> str:
    """``count`` and the noun, plural unless one: "1 lease", "2 leases"."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
