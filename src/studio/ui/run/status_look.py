"""How each node, execution, compensation and decision status looks: an icon, words and a colour.

Status is never told by colour alone: every look carries an icon of its own shape and a label
as well. The run panels and the canvas overlay share these looks, so this module holds no
widgets.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtGui import QColor, QIcon

from studio.model.run_view import INTERRUPTED
from studio.model.run_words import UPSTREAM_FAILED, shown_status, status_words
from studio.ui.icon_label import IconLabel
from studio.ui.icons import icon, status_icon_name

NOT_STARTED = "not_started"
"""A planned compensation the unwind never reached."""


@dataclass(frozen=True)
class StatusLook:
    """A status as a person sees it: an icon (a name in Studio's icon table), a label and a
    colour for light and dark windows."""

    status: str
    icon: str
    label: str
    light: str
    dark: str

    @property
    def text(self) -> str:
        """The words shown in lists and badges beside the icon: "Completed"."""
        return self.label

    def colour(self, dark: bool = False) -> QColor:
        """The status colour on a light (or, with ``dark``, a dark) background."""
        return QColor(self.dark if dark else self.light)

    def qicon(self, dark: bool = False) -> QIcon:
        """The status icon in the status colour on a light (or dark) background."""
        return icon(self.icon, self.colour(dark))


def _look(status: str, shape: str, light: str, dark: str, label: str = "") -> StatusLook:
    return StatusLook(status, status_icon_name(shape), label or status_words(status), light, dark)


_LOOKS = {
    look.status: look
    for look in (
        _look("pending", "pending", "#6b7078", "#a0a4ab"),
        _look("running", "running", "#1a66d2", "#6ea8ff"),
        _look("completed", "completed", "#1e7d34", "#6fcf7f"),
        _look("failed", "failed", "#c5221f", "#ff7b72"),
        _look("skipped", "skipped", "#9aa0a6", "#7c8087"),
        _look(UPSTREAM_FAILED, UPSTREAM_FAILED, "#80868b", "#8b9096"),
        _look("waiting", "waiting", "#a36b00", "#f2c14e"),
        _look("retrying", "retrying", "#c45500", "#ffa657"),
        _look("cancelled", "cancelled", "#5f6368", "#b0b4b8"),
        _look("compensating", "compensating", "#6a3fc1", "#b392f0"),
        _look("compensated", "compensated", "#00796b", "#56d4c4"),
        _look("compensation_failed", "compensation_failed", "#c5221f", "#ff7b72"),
        _look(NOT_STARTED, NOT_STARTED, "#6b7078", "#a0a4ab"),
        _look(INTERRUPTED, INTERRUPTED, "#a34700", "#ffab70"),
    )
}

_DECISION_LOOKS = {
    look.status: look
    for look in (
        _look("approved", "approved", "#1e7d34", "#6fcf7f", "Approved"),
        _look("rejected", "rejected", "#c5221f", "#ff7b72", "Rejected"),
        _look("pending", "waiting", "#a36b00", "#f2c14e", "Waiting for a decision"),
    )
}

_UNWIND_TEXT = {
    "completed": "failed · rolled back",
    "partial": "failed · rollback incomplete",
    "running": "failed · rolling back",
}
_UNWIND_LOOK = {"completed": "compensated", "partial": "compensation_failed"}


def status_look(status: str) -> StatusLook:
    """The look of a node, execution or compensation status; unknown ones read as themselves."""
    known = _LOOKS.get(status)
    if known is not None:
        return known
    return StatusLook(
        status, status_icon_name("unknown"), status_words(status), "#6b7078", "#a0a4ab"
    )


def node_look(status: str, error: Mapping[str, Any] | None = None) -> StatusLook:
    """The look of a node's result: "Not run · upstream failed" for a node failed only
    because one before it did, apart from the node that failed."""
    return status_look(shown_status(status, error))


def execution_look(status: str, interrupted: bool = False) -> StatusLook:
    """The look of an execution, "Interrupted" when its runner went away."""
    return _LOOKS[INTERRUPTED] if interrupted else status_look(status)


def decision_look(status: str) -> StatusLook:
    """The look of a person's decision on an approval: approved, rejected or still pending."""
    return _DECISION_LOOKS.get(status) or status_look(status)


def unwind_look(status: str, compensation_status: str | None) -> StatusLook | None:
    """The second badge of a failed run that compensated: "failed · rolled back" and the like.

    None for any run that is not failed or did not start an unwind."""
    if status != "failed" or compensation_status not in _UNWIND_TEXT:
        return None
    colours = status_look(_UNWIND_LOOK.get(compensation_status, "compensating"))
    return StatusLook(
        compensation_status,
        colours.icon,
        _UNWIND_TEXT[compensation_status],
        colours.light,
        colours.dark,
    )


def show_badge(badge: IconLabel, look: StatusLook, dark: bool) -> None:
    """Show a status on a badge: its icon and words in its colour, outlined."""
    badge.setText(look.text)
    badge.set_icon(look.icon, look.colour(dark))
    badge.setStyleSheet(badge_style(look, dark))


def badge_style(look: StatusLook, dark: bool) -> str:
    """A label's style sheet: a rounded outline in the status colour, so a badge reads as a
    label, not a button."""
    colour = look.colour(dark).name()
    return (
        f"QLabel {{ color: {colour}; border: 1px solid {colour}; border-radius: 8px;"
        " padding: 1px 8px; font-weight: bold; }"
    )
