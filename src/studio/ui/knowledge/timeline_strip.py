"""The strip a timeline draws: landing ticks on a time axis, the handle, the compare marker.

Moments sit at their time along the strip. The handle stands on one moment (the last one means
"now"); the compare marker, when set, on another. A person drags either, clicks a tick to jump
to it, or steps moment by moment with the keyboard. The strip only keeps the indexes and says
when they move; the timeline around it turns them into moments and signals.
"""

import math
from datetime import datetime

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QPolygonF,
    QResizeEvent,
)
from PySide6.QtWidgets import QMenu, QSizePolicy, QToolTip, QWidget

from studio.ui.knowledge.timeline_axis import Cluster, Scale, choose_step, label_moments

MARGIN = 18.0
"""Room at each end, so the handle's grip stays inside the strip at the first and last moment."""
GRIP_BOTTOM, TICK_TOP, AXIS_Y, LABEL_TOP, HEIGHT = 11.0, 14.0, 36.0, 40.0, 58
TICK_MIN = 14.0
CLUSTER_GAP = 5.0
"""Moments closer than this many pixels share a tick."""
HIT = 6.0
"""How near (pixels) a press must be to a tick or a marker to take it."""
LABEL_GAP = 16.0
TOOLTIP_NAMES = 12
HANDLE, COMPARE = "handle", "compare"


def moment_text(moment: datetime) -> str:
    """A moment as a person reads it, in local time: "2026-09-08 10:00"."""
    return f"{local(moment):%Y-%m-%d %H:%M}"


def local(moment: datetime) -> datetime:
    """The local clock time of a moment, without a zone (a naive moment is taken as local)."""
    return moment.astimezone().replace(tzinfo=None) if moment.tzinfo else moment


def compare_colour(palette: QPalette) -> QColor:
    """The compare marker's colour: a violet apart from the handle and the change colours."""
    dark = palette.color(QPalette.ColorRole.Base).lightness() < 128
    return QColor("#c792ea") if dark else QColor("#8e44ad")


class TimelineStrip(QWidget):
    """Ticks, date labels, a handle and a compare marker; ``moved(which, final)`` when a person
    moves one (``which`` is "handle" or "compare"; ``final`` on release)."""

    moved = Signal(str, bool)
    disarmed = Signal()
    """Placing the compare marker used the armed click."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.moments: list[datetime] = []
        self.labels: list[list[str]] = []
        self.clusters: list[Cluster] = []
        self.index = -1
        """The handle's moment; the last index is "now"."""
        self.compare_index: int | None = None
        self.armed = False
        """The next press places the compare marker."""
        self.scale = Scale()
        """Where the moments are along the strip."""
        self._dragging: str | None = None
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMinimumHeight(HEIGHT)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("Timeline of landings")

    def sizeHint(self) -> QSize:
        """Wide and short."""
        hint = super().sizeHint()
        hint.setHeight(HEIGHT)
        return hint

    def set_moments(self, moments: list[datetime], labels: list[list[str]]) -> None:
        """Show these sorted, distinct moments; each has the names of what landed then."""
        self.moments, self.labels = moments, labels
        self._rescale()
        self.update()

    def place(self, which: str, index: int | None) -> None:
        """Put the handle or the compare marker on a moment (None clears compare)."""
        if which == HANDLE:
            self.index = -1 if index is None else index
        else:
            self.compare_index = index
        self.update()

    def cluster_at(self, x: float) -> Cluster | None:
        """The tick within reach of a point along the strip, if any."""
        near = [c for c in self.clusters if abs(c.x - x) <= HIT]
        return min(near, key=lambda c: abs(c.x - x)) if near else None

    # Painting ----------------------------------------------------------------------------

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
        if not self.moments:
            painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "Nothing has landed yet")
            return
        self._paint_axis(painter, palette)
        handle = self.scale.x_of(self.index)
        if self.compare_index is not None:
            compare = self.scale.x_of(self.compare_index)
            _paint_span(painter, sorted((compare, handle)), compare_colour(palette))
        self._paint_ticks(painter, palette)
        if self.compare_index is not None:
            _paint_marker(painter, compare, compare_colour(palette), compare_grip=True)
        highlight = palette.color(QPalette.ColorRole.Highlight)
        _paint_marker(painter, handle, highlight, focused=self.hasFocus())

    def _paint_axis(self, painter: QPainter, palette: QPalette) -> None:
        """The base line and the date labels."""
        painter.setPen(QPen(palette.color(QPalette.ColorRole.PlaceholderText), 1))
        painter.drawLine(QPointF(MARGIN, AXIS_Y), QPointF(self.width() - MARGIN, AXIS_Y))
        painter.setPen(palette.color(QPalette.ColorRole.Text))
        for x, box, text in self.axis_labels():
            painter.drawLine(QPointF(x, AXIS_Y), QPointF(x, AXIS_Y + 3))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)

    def axis_labels(self) -> list[tuple[float, QRectF, str]]:
        """The date labels: where each marks, its box and its text. Calendar steps wide enough
        for the widest label; a label squeezed at an end is left out rather than overlapping."""
        metrics = self.fontMetrics()
        start, end = local(self.moments[0]), local(self.moments[-1])
        scale = self.scale
        if scale.span <= 0:
            marks = [(self.width() / 2, moment_text(self.moments[0]))]
        else:
            width = scale.right - scale.left
            step = choose_step(scale.span, width, metrics.horizontalAdvance, LABEL_GAP)
            marks = [
                (scale.x_of_stamp(mark.timestamp()), mark.strftime(step.format))
                for mark in label_moments(start, end, step)
            ]
        labels, taken = [], -math.inf
        for x, text in marks:
            width = metrics.horizontalAdvance(text)
            left = min(max(x - width / 2, 2.0), self.width() - width - 2.0)
            if left >= taken + LABEL_GAP / 2:
                labels.append((x, QRectF(left, LABEL_TOP, width, metrics.height()), text))
                taken = left + width
        return labels

    def _paint_ticks(self, painter: QPainter, palette: QPalette) -> None:
        """A tick per cluster, taller for more landings (against the busiest tick), those after
        the handle paler: they have not landed yet at the moment shown."""
        text = palette.color(QPalette.ColorRole.Text)
        shown = QColor(text.red(), text.green(), text.blue(), 200)
        later = palette.color(QPalette.ColorRole.PlaceholderText)
        busiest = math.log(max(c.count for c in self.clusters))
        for cluster in self.clusters:
            share = math.log(cluster.count) / busiest if busiest else 0.0
            height = TICK_MIN + (AXIS_Y - TICK_TOP - TICK_MIN) * share
            painter.setPen(QPen(shown if cluster.first <= self.index else later, _width(cluster)))
            painter.drawLine(QPointF(cluster.x, AXIS_Y), QPointF(cluster.x, AXIS_Y - height))

    # Acting on the strip -----------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or not self.moments:
            super().mousePressEvent(event)
            return
        x = event.position().x()
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        self._dragging = self._marker_taken(x)
        if self.armed:
            self.armed = False
            self.disarmed.emit()
        if not self._near(self._dragging, x):
            cluster = self.cluster_at(x)
            self._move(self._dragging, cluster.last if cluster else self.scale.index_at(x))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._dragging is not None:
            self._move(self._dragging, self.scale.index_at(event.position().x()))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        which, self._dragging = self._dragging, None
        if which is not None and event.button() == Qt.MouseButton.LeftButton:
            self.moved.emit(which, True)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.moments:
            super().keyPressEvent(event)
            return
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        which = COMPARE if shift else HANDLE
        current = self.index if self.compare_index is None or not shift else self.compare_index
        target = self._key_target(event.key(), current)
        if event.key() == Qt.Key.Key_Escape and self.armed:
            self.armed = False
            self.disarmed.emit()
        elif target is None:
            super().keyPressEvent(event)
        else:
            self._move(which, target)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        if not self.moments:
            return
        if event.reason() == QContextMenuEvent.Reason.Keyboard:
            index = self.index
        else:
            cluster = self.cluster_at(event.pos().x())
            index = cluster.last if cluster else self.scale.index_at(event.pos().x())
        self.tick_menu(index).exec(event.globalPos())

    def tick_menu(self, index: int) -> QMenu:
        """What a right-click on a tick offers: go there, compare with it, clear compare."""
        menu = QMenu(self)
        go = menu.addAction(f"Go to {moment_text(self.moments[index])}")
        go.triggered.connect(lambda: self._move(HANDLE, index, final=True))
        compare = menu.addAction("Compare with this moment")
        compare.triggered.connect(lambda: self._move(COMPARE, index, final=True))
        if self.compare_index is not None:
            clear = menu.addAction("Clear compare")
            clear.triggered.connect(lambda: self._move(COMPARE, None, final=True))
        return menu

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            cluster = self.cluster_at(event.pos().x()) if self.moments else None
            if cluster is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), self.tooltip_text(cluster), self)
            return True
        return super().event(event)

    def tooltip_text(self, cluster: Cluster) -> str:
        """When the tick's moments are and what landed then (the first few names)."""
        first, last = self.moments[cluster.first], self.moments[cluster.last]
        when = moment_text(first)
        if cluster.count > 1:
            when = f"{cluster.count} landings, {when} to {moment_text(last)}"
        names = [n for labels in self.labels[cluster.first : cluster.last + 1] for n in labels]
        lines = [when, *names[:TOOLTIP_NAMES]]
        if len(names) > TOOLTIP_NAMES:
            lines.append(f"and {len(names) - TOOLTIP_NAMES} more")
        return "\n".join(lines)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._rescale()

    # Helpers -----------------------------------------------------------------------------

    def _rescale(self) -> None:
        stamps = tuple(moment.timestamp() for moment in self.moments)
        self.scale = Scale(stamps, MARGIN, max(MARGIN + 1, self.width() - MARGIN))
        self.clusters = self.scale.clusters(CLUSTER_GAP)

    def _marker_taken(self, x: float) -> str:
        """Which marker a press moves: compare when armed or when pressed on its grip."""
        if self.armed:
            return COMPARE
        if self.compare_index is not None and self._near(COMPARE, x):
            return HANDLE if self._near(HANDLE, x) else COMPARE
        return HANDLE

    def _near(self, which: str, x: float) -> bool:
        index = self.index if which == HANDLE else self.compare_index
        return index is not None and abs(self.scale.x_of(index) - x) <= HIT

    def _key_target(self, key: int, current: int) -> int | None:
        """Where a key takes a marker: a moment on (arrows), by a tick (pages), or an end."""
        last = len(self.moments) - 1
        step = {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1}.get(Qt.Key(key))
        if step is not None:
            return min(max(current + step, 0), last)
        if key == Qt.Key.Key_Home:
            return 0
        if key == Qt.Key.Key_End:
            return last
        if key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            ends = [c.last for c in self.clusters]
            if key == Qt.Key.Key_PageDown:
                return next((i for i in ends if i > current), last)
            return next((i for i in reversed(ends) if i < current), 0)
        return None

    def _move(self, which: str, index: int | None, final: bool = False) -> None:
        before = self.index if which == HANDLE else self.compare_index
        if index == before and not final:
            return
        self.place(which, index)
        self.moved.emit(which, final)


def _width(cluster: Cluster) -> float:
    """A single landing draws a fine tick, a cluster a bolder one."""
    return 1.5 if cluster.count == 1 else 2.5


def _paint_span(painter: QPainter, between: list[float], colour: QColor) -> None:
    """A faint band between the two compared moments."""
    left, right = between
    band = QColor(colour)
    band.setAlpha(36)
    painter.fillRect(QRectF(left, TICK_TOP, right - left, AXIS_Y - TICK_TOP), band)


def _paint_marker(
    painter: QPainter, x: float, colour: QColor, compare_grip: bool = False, focused: bool = False
) -> None:
    """A line across the ticks under a grip: a triangle for the handle, a diamond on a dashed
    line for compare; a dotted ring around the marker when the strip has keyboard focus."""
    style = Qt.PenStyle.DashLine if compare_grip else Qt.PenStyle.SolidLine
    painter.setPen(QPen(colour, 2, style))
    painter.drawLine(QPointF(x, GRIP_BOTTOM), QPointF(x, AXIS_Y + 2))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colour)
    if compare_grip:
        grip = [QPointF(x, 0.5), QPointF(x + 5, 5.5), QPointF(x, 10.5), QPointF(x - 5, 5.5)]
    else:
        grip = [QPointF(x - 6, 1), QPointF(x + 6, 1), QPointF(x, GRIP_BOTTOM)]
    painter.drawPolygon(QPolygonF(grip))
    if focused:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(colour, 1, Qt.PenStyle.DotLine))
        painter.drawRect(QRectF(x - 9, 0.5, 18, AXIS_Y + 4))
