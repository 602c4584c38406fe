"""The timeline under the graph: the moments things landed, a handle to go back to any of them,
and a second marker to compare with.

The handle stands on a landing moment; on the latest one it means "now", and the timeline
follows new landings from there. ``positionChanged`` carries the moment (None for now) and
``compareChanged`` the compare moment (None when compare is cleared). While a person drags, the
signals are paced: the first change at once, then at most one per ``PACE_MS``, and the final
moment on release, so the graph is not asked to redraw for every pixel. Setting the position
or compare moment from code does not signal.
"""

from bisect import bisect_right
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Protocol

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from studio.ui.knowledge.timeline_strip import COMPARE, HANDLE, TimelineStrip, moment_text

PACE_MS = 50


class Landing(Protocol):
    """A landing moment with a line per thing landed then (the history's Moment is one)."""

    @property
    def at(self) -> datetime: ...

    @property
    def label(self) -> str: ...


Moment = datetime | tuple[datetime, str] | Landing
"""A landing moment: alone, with the name of what landed then, or a Landing."""


class Pacer(QObject):
    """Passes values on at most once per interval: the first at once, the latest at the end of
    the interval; a value equal to the last one passed on is dropped."""

    def __init__(self, send: Callable[[object], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._send, self._last, self._pending = send, object(), object()
        self._waiting = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PACE_MS)
        self._timer.timeout.connect(self._release)

    def offer(self, value: object) -> None:
        """Pass ``value`` on now, or when the interval since the last one is over."""
        self._pending, self._waiting = value, True
        if not self._timer.isActive():
            self._release()

    def flush(self) -> None:
        """Pass on what is waiting now (a drag ended)."""
        self._release()

    def known(self, value: object) -> None:
        """``value`` is current without being passed on (it was set from code)."""
        self._last, self._waiting = value, False

    def _release(self) -> None:
        if not self._waiting:
            return
        self._waiting = False
        if self._pending != self._last:
            self._last = self._pending
            self._send(self._pending)
            self._timer.start()


class Timeline(QWidget):
    """Landing moments with a handle (the moment the graph shows) and a compare marker."""

    positionChanged = Signal(object)
    """datetime, or None for now."""
    compareChanged = Signal(object)
    """datetime, or None when compare is cleared."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.strip = TimelineStrip()
        self.as_of = QLabel("Now")
        self.as_of.setObjectName("timelineAsOf")
        self.compare_label = QLabel()
        self.compare_button = QPushButton("Compare with…")
        self.compare_button.setCheckable(True)
        self.compare_button.setToolTip("Click a moment on the timeline to compare the graph with")
        self.clear_compare_button = QPushButton("Clear compare")
        self.now_button = QPushButton("Now")
        self.now_button.setToolTip("Show the graph as it is now (End)")
        self._position_pacer = Pacer(self.positionChanged.emit, self)
        self._compare_pacer = Pacer(self.compareChanged.emit, self)
        self._position_pacer.known(None)
        self._compare_pacer.known(None)
        self._lay_out()
        self.strip.moved.connect(self._on_moved)
        self.strip.disarmed.connect(lambda: self.compare_button.setChecked(False))
        self.compare_button.toggled.connect(self._on_armed)
        self.clear_compare_button.clicked.connect(self._clear_compare)
        self.now_button.clicked.connect(self._go_now)
        self.setFocusProxy(self.strip)
        self._show_text()

    def _lay_out(self) -> None:
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.setSpacing(12)
        for widget in (self.as_of, self.compare_label):
            top.addWidget(widget)
        top.addStretch(1)
        for button in (self.compare_button, self.clear_compare_button, self.now_button):
            top.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.strip)

    # Public API ----------------------------------------------------------------------------

    def set_moments(self, moments: Iterable[Moment]) -> None:
        """Show these landing moments (any order, repeats merged), each optionally with what
        landed then (a line per thing) for its tooltip. The handle and the compare marker keep their
        moments; a handle at "now" stays at now."""
        position, compare = self.position(), self.compare_position()
        ordered, labels = _grouped(moments)
        self.strip.set_moments(ordered, labels)
        self.strip.place(HANDLE, self._index_of(position))
        self.strip.place(COMPARE, None if compare is None else self._index_of(compare))
        self._known()
        self._show_text()

    def arm_compare(self) -> None:
        """Let the next click on the strip choose the moment to compare with."""
        self.compare_button.setChecked(True)

    def moments(self) -> list[datetime]:
        """The distinct landing moments, oldest first."""
        return list(self.strip.moments)

    def set_position(self, moment: datetime | None) -> None:
        """Show the graph as of the latest landing at or before ``moment`` (None: now)."""
        self.strip.place(HANDLE, self._index_of(moment))
        self._known()
        self._show_text()

    def position(self) -> datetime | None:
        """The moment the handle stands on; None at the latest landing (now)."""
        return self._moment_at(self.strip.index, now_at_end=True)

    def set_compare(self, moment: datetime | None) -> None:
        """Put the compare marker on the latest landing at or before ``moment``; None clears."""
        self.strip.place(COMPARE, None if moment is None else self._index_of(moment))
        self._known()
        self._show_text()

    def compare_position(self) -> datetime | None:
        """The moment the compare marker stands on, or None when there is none."""
        index = self.strip.compare_index
        return None if index is None else self._moment_at(index, now_at_end=False)

    # Reacting ------------------------------------------------------------------------------

    def _on_moved(self, which: str, final: bool) -> None:
        if which == HANDLE:
            pacer, value = self._position_pacer, self.position()
        else:
            pacer, value = self._compare_pacer, self.compare_position()
        pacer.offer(value)
        if final:
            pacer.flush()
        self._show_text()

    def _on_armed(self, armed: bool) -> None:
        self.strip.armed = armed and bool(self.strip.moments)
        if armed:
            self.strip.setFocus(Qt.FocusReason.OtherFocusReason)
        self._show_text()

    def _clear_compare(self) -> None:
        self.strip.place(COMPARE, None)
        self._on_moved(COMPARE, True)

    def _go_now(self) -> None:
        self.strip.place(HANDLE, self._index_of(None))
        self._on_moved(HANDLE, True)

    def _show_text(self) -> None:
        """The moments in words, and which buttons make sense now."""
        position, compare = self.position(), self.compare_position()
        self.as_of.setText("Now" if position is None else f"As of {moment_text(position)}")
        if self.compare_button.isChecked():
            self.compare_label.setText("Click the timeline to choose a moment to compare with")
        elif compare is not None:
            self.compare_label.setText(f"compared with {moment_text(compare)}")
        else:
            self.compare_label.setText("")
        self.compare_label.setVisible(bool(self.compare_label.text()))
        self.clear_compare_button.setVisible(compare is not None)
        self.now_button.setEnabled(position is not None)
        self.compare_button.setEnabled(bool(self.strip.moments))
        self.strip.setAccessibleDescription(
            " ".join((self.as_of.text(), self.compare_label.text()))
        )

    # Helpers -------------------------------------------------------------------------------

    def _known(self) -> None:
        self._position_pacer.known(self.position())
        self._compare_pacer.known(self.compare_position())

    def _index_of(self, moment: datetime | None) -> int:
        """The latest moment at or before ``moment`` (the first when none is); now: the last."""
        moments = self.strip.moments
        if moment is None:
            return len(moments) - 1
        return max(bisect_right(moments, moment) - 1, 0)

    def _moment_at(self, index: int, now_at_end: bool) -> datetime | None:
        moments = self.strip.moments
        if not moments or (now_at_end and index == len(moments) - 1):
            return None
        return moments[index]


def _grouped(moments: Iterable[Moment]) -> tuple[list[datetime], list[list[str]]]:
    """Distinct moments, oldest first, each with the names given for it."""
    names: dict[datetime, list[str]] = {}
    for entry in moments:
        moment, name = _moment_and_name(entry)
        names.setdefault(moment, []).extend(name.splitlines())
    ordered = sorted(names)
    return ordered, [names[m] for m in ordered]


def _moment_and_name(entry: Moment) -> tuple[datetime, str]:
    if isinstance(entry, datetime):
        return entry, ""
    if isinstance(entry, tuple):
        return entry
    return entry.at, entry.label
