"""Replaying a stored run on the canvas: a slider over its event log, step and play controls,
and a heat map of how long each node took.

Moving to event k folds the log up to k and draws that view with the clock frozen at k's
moment, so the canvas shows exactly what a person would have seen then. Views are kept at
checkpoints along the log, so scrubbing a long log folds at most a few dozen events."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime
from itertools import pairwise

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.model.execution import ExecutionEvent
from studio.model.run_view import RunView
from studio.ui.run.object_names import named
from studio.ui.run.overlay import RunOverlay

CHECKPOINT_EVERY = 50
PLAYBACK_BUDGET_S = 10.0
"""A whole run plays in at most this long at 1×, however long it really took."""
SHORTEST_STEP_S = 0.15
"""Each event stays on screen at least this long (less when a log is too long for it)."""
SPEEDS = (1, 2, 4)
PLAY_TEXT, PAUSE_TEXT = "Play", "Pause"


@dataclass
class ReplayedView(RunView):
    """A run as it stood at one moment of a replay: it takes no further events, so neither a
    live run nor the window's store follower can move the canvas off the chosen moment."""

    def apply(self, event: ExecutionEvent) -> str | None:
        """Ignore the event: a replayed moment does not move."""
        return None


class ReplayLog:
    """An execution's event log, folded cheaply at any event from cached checkpoints."""

    def __init__(
        self, execution_id: str, node_ids: Sequence[str], events: Sequence[ExecutionEvent]
    ) -> None:
        self.events = list(events)
        view = RunView.of(execution_id, node_ids)
        self.checkpoints = [_copy(view)]
        for index, event in enumerate(self.events, start=1):
            view.apply(event)
            if index % CHECKPOINT_EVERY == 0:
                self.checkpoints.append(_copy(view))
        self.final = view

    def __len__(self) -> int:
        return len(self.events)

    def view_at(self, position: int) -> ReplayedView:
        """The run after the first ``position`` events (0: before any)."""
        position = max(0, min(position, len(self.events)))
        base = position // CHECKPOINT_EVERY
        view = _copy(self.checkpoints[base])
        for event in self.events[base * CHECKPOINT_EVERY : position]:
            view.apply(event)
        return ReplayedView(**{f.name: getattr(view, f.name) for f in fields(RunView)})

    def moment(self, position: int) -> datetime | None:
        """When event ``position`` happened (for 0, when the first one did)."""
        if not self.events:
            return None
        return self.events[max(0, min(position, len(self.events)) - 1)].created_at

    def durations(self) -> dict[str, float]:
        """Each node's duration in the whole run, for the heat map."""
        nodes = self.final.nodes.items()
        return {node_id: node.duration for node_id, node in nodes if node.duration is not None}

    def delays(self) -> list[float]:
        """Seconds to wait before each step of a playback: ``delays()[k]`` leads from k to k+1."""
        moments = [event.created_at for event in self.events]
        return playback_delays(moments)


def playback_delays(
    moments: Sequence[datetime],
    budget: float = PLAYBACK_BUDGET_S,
    shortest: float = SHORTEST_STEP_S,
) -> list[float]:
    """Waits between events at their real relative pace, none shorter than ``shortest``, the
    whole scaled down to fit in ``budget`` seconds when it would take longer."""
    if not moments:
        return []
    gaps = [0.0] + [max(0.0, (b - a).total_seconds()) for a, b in pairwise(moments)]
    waits = [max(gap, shortest) for gap in gaps]
    total = sum(waits)
    return [wait * budget / total for wait in waits] if total > budget else waits


def moment_text(log: ReplayLog, position: int) -> str:
    """'Event 5 of 12 · 14:03:07.412 · +0.42 s · node.completed say-hello'."""
    count = len(log)
    if count == 0:
        return "This run has no recorded events."
    if position == 0:
        return f"Event 0 of {count} · before the run started"
    event = log.events[position - 1]
    clock = event.created_at.astimezone().strftime("%H:%M:%S.%f")[:-3]
    since = (event.created_at - log.events[0].created_at).total_seconds()
    what = f"{event.type} {event.node_id}" if event.node_id else event.type
    return f"Event {position} of {count} · {clock} · +{since:.2f} s · {what}"


def _copy(view: RunView) -> RunView:
    return replace(view, nodes=dict(view.nodes))


class ReplayBar(QWidget):
    """A bar under the canvas to scrub, step and play through a stored run."""

    momentChanged = Signal(int)  # the number of events now applied (0: before the first)
    closed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.log = ReplayLog("", [], [])
        self.overlay: RunOverlay | None = None
        self.waits: list[float] = []
        self.is_playing = False
        self.player = QTimer(self, singleShot=True)
        self.player.timeout.connect(self._play_step)
        self.slider = named(QSlider(Qt.Orientation.Horizontal), "replaySlider")
        self.slider.setToolTip("Drag to move through the run's events (← → Home End)")
        self.slider.valueChanged.connect(self._moved)
        self.moment_label = named(QLabel(), "replayMoment")
        self.moment_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._build_buttons()
        self._build_layout()
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setFocusProxy(self.slider)
        self._enable(False)

    def _build_buttons(self) -> None:
        pixmap = QStyle.StandardPixmap
        self.start_button = self._tool(
            "replayStart", pixmap.SP_MediaSkipBackward, "Go to the start (Home)", self.go_start
        )
        self.back_button = self._tool(
            "replayBack", pixmap.SP_MediaSeekBackward, "One event back (←)", self.step_back
        )
        self.play_button = named(QPushButton(PLAY_TEXT), "replayPlay")
        self.play_button.setIcon(self.style().standardIcon(pixmap.SP_MediaPlay))
        self.play_button.setToolTip("Play the run at its own pace (Space)")
        self.play_button.clicked.connect(self.toggle_play)
        self.forward_button = self._tool(
            "replayForward", pixmap.SP_MediaSeekForward, "One event forward (→)", self.step_forward
        )
        self.end_button = self._tool(
            "replayEnd", pixmap.SP_MediaSkipForward, "Go to the end (End)", self.go_end
        )
        self.speed = named(QComboBox(), "replaySpeed")
        self.speed.addItems([f"{speed}×" for speed in SPEEDS])
        self.speed.setToolTip("Playback speed")
        self.heat_button = named(QPushButton("Heat map"), "heatButton")
        self.heat_button.setCheckable(True)
        self.heat_button.setToolTip("Tint each node by how long it took in this run")
        self.heat_button.toggled.connect(self._show_heat)
        self.close_button = named(QPushButton("Close"), "replayClose")
        self.close_button.setToolTip("Stop replaying and take the run off the canvas")
        self.close_button.clicked.connect(self.close_replay)

    def _tool(
        self, name: str, icon: QStyle.StandardPixmap, tip: str, slot: Callable[[], object]
    ) -> QToolButton:
        button = named(QToolButton(), name)
        button.setIcon(self.style().standardIcon(icon))
        button.setToolTip(tip)
        button.setAccessibleName(tip.split(" (")[0])
        button.clicked.connect(slot)
        return button

    def _build_layout(self) -> None:
        controls = QHBoxLayout()
        steps: list[QWidget] = [self.start_button, self.back_button, self.play_button]
        steps += [self.forward_button, self.end_button]
        for step in steps:
            controls.addWidget(step)
        controls.addWidget(self.slider, 1)
        for option in (self.speed, self.heat_button, self.close_button):
            controls.addWidget(option)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.setSpacing(2)
        layout.addLayout(controls)
        layout.addWidget(self.moment_label)

    # Loading ----------------------------------------------------------------------------

    def load(
        self,
        execution_id: str,
        node_ids: Sequence[str],
        events: Sequence[ExecutionEvent],
        overlay: RunOverlay,
    ) -> None:
        """Replay these events of an execution on ``overlay``, starting at the run's end."""
        self.pause()
        self.overlay = None  # no drawing while the slider is reset
        self.heat_button.setChecked(False)
        self.log = ReplayLog(execution_id, node_ids, events)
        self.waits = self.log.delays()
        self.overlay = overlay
        self._enable(bool(self.log.events))
        self.slider.blockSignals(True)
        self.slider.setRange(0, len(self.log))
        self.slider.setPageStep(max(1, len(self.log) // 10))
        self.slider.setValue(len(self.log))
        self.slider.blockSignals(False)
        self._moved(len(self.log))

    @property
    def position(self) -> int:
        """How many events are applied in the moment shown."""
        return self.slider.value()

    # Moving -----------------------------------------------------------------------------

    def seek(self, position: int) -> None:
        """Show the run after ``position`` events."""
        self.slider.setValue(position)

    def step_back(self) -> None:
        """Show the moment one event earlier."""
        self.seek(self.position - 1)

    def step_forward(self) -> None:
        """Show the moment one event later."""
        self.seek(self.position + 1)

    def go_start(self) -> None:
        """Show the run before its first event."""
        self.seek(0)

    def go_end(self) -> None:
        """Show the run after its last event."""
        self.seek(len(self.log))

    def _moved(self, position: int) -> None:
        self.moment_label.setText(moment_text(self.log, position))
        if self.overlay is not None:
            self.overlay.show_view(self.log.view_at(position), at=self.log.moment(position))
            if self.heat_button.isChecked():
                self._show_heat(True)  # badges made anew carry no tint yet
        self.momentChanged.emit(position)

    # Playing ----------------------------------------------------------------------------

    def toggle_play(self) -> None:
        """Play from here (from the start when at the end), or pause."""
        if self.is_playing:
            self.pause()
        else:
            self.play()

    def play(self) -> None:
        """Advance through the events at the run's own pace, scaled by the chosen speed."""
        if not self.log.events:
            return
        if self.position >= len(self.log):
            self.seek(0)
        self.is_playing = True
        self._label_play_button(PAUSE_TEXT, QStyle.StandardPixmap.SP_MediaPause)
        self._schedule()

    def pause(self) -> None:
        """Stop advancing."""
        self.player.stop()
        self.is_playing = False
        self._label_play_button(PLAY_TEXT, QStyle.StandardPixmap.SP_MediaPlay)

    def _label_play_button(self, text: str, icon: QStyle.StandardPixmap) -> None:
        self.play_button.setText(text)
        self.play_button.setIcon(self.style().standardIcon(icon))

    def _schedule(self) -> None:
        wait = self.waits[self.position] if self.position < len(self.waits) else 0.0
        self.player.start(round(1000 * wait / SPEEDS[self.speed.currentIndex()]))

    def _play_step(self) -> None:
        self.step_forward()
        if self.position >= len(self.log):
            self.pause()
        elif self.is_playing:
            self._schedule()

    # Heat map and closing ---------------------------------------------------------------

    def _show_heat(self, on: bool) -> None:
        if self.overlay is not None:
            self.overlay.set_heat(self.log.durations() if on else None)

    def close_replay(self) -> None:
        """Stop, take the run off the canvas and hide the bar."""
        self.pause()
        self.heat_button.setChecked(False)
        if self.overlay is not None:
            self.overlay.clear()
        self.overlay = None
        self.hide()
        self.closed.emit()

    def _enable(self, on: bool) -> None:
        controls: list[QWidget] = [self.start_button, self.back_button, self.play_button]
        controls += [self.slider, self.forward_button, self.end_button]
        controls += [self.speed, self.heat_button]
        for control in controls:
            control.setEnabled(on)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        actions = {
            Qt.Key.Key_Left: self.step_back,
            Qt.Key.Key_Right: self.step_forward,
            Qt.Key.Key_Home: self.go_start,
            Qt.Key.Key_End: self.go_end,
            Qt.Key.Key_Space: self.toggle_play,
        }
        action = actions.get(Qt.Key(event.key()))
        if action is None or not self.log.events:
            super().keyPressEvent(event)
            return
        action()
        event.accept()
