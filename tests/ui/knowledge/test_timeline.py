"""The timeline under the graph, driven as a person would: drag the handle, click a tick, step
with the keyboard, set a moment to compare with, go back to now."""

import time
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRectF, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent, QHelpEvent, QPalette
from PySide6.QtWidgets import QApplication, QMenu, QToolTip

from studio.knowledge.knowledge_history import read_history
from studio.ui.knowledge.timeline import Timeline
from studio.ui.knowledge.timeline_axis import STEPS, cluster_positions, label_moments
from studio.ui.knowledge.timeline_strip import AXIS_Y, compare_colour
from studio.ui.theme import apply_theme
from studio.workspace import Workspace
from tests.ui.pixels import assert_ink, picture

FIXTURE = Path(__file__).resolve().parents[2] / "knowledge" / "fixtures" / "checkout-redesign"
LANDINGS = [  # the sample corpus's files, by the moment each was created
    (datetime(2026, 9, 1, 10, 0, tzinfo=UTC), "requirements"),
    (datetime(2026, 9, 2, 8, 0, tzinfo=UTC), "personas"),
    (datetime(2026, 9, 8, 9, 30, tzinfo=UTC), "requirements (revised)"),
    (datetime(2026, 9, 9, 11, 0, tzinfo=UTC), "stories"),
    (datetime(2026, 9, 10, 15, 0, tzinfo=UTC), "design"),
    (datetime(2026, 9, 11, 9, 0, tzinfo=UTC), "unit-plan"),
]
MOMENTS = [moment for moment, _ in LANDINGS]
TICKS_Y = int(AXIS_Y - 6)
"""Where a person aims at a tick: just above the axis line."""

_shown: list[Timeline] = []


@pytest.fixture(autouse=True)
def _release_shown():
    yield
    _shown.clear()


def open_timeline(qtbot, landings=LANDINGS, width: int = 900) -> Timeline:
    timeline = Timeline()
    timeline.set_moments(landings)
    qtbot.addWidget(timeline)
    _shown.append(timeline)
    timeline.resize(width, 90)
    timeline.show()
    qtbot.waitExposed(timeline)
    timeline.activateWindow()
    qtbot.waitUntil(timeline.isActiveWindow)
    return timeline


def at(timeline: Timeline, index: int) -> QPoint:
    """The point on the strip over a moment's tick."""
    return QPoint(round(timeline.strip.scale.x_of(index)), TICKS_Y)


def recorder(signal) -> list:
    seen: list = []
    signal.connect(seen.append)
    return seen


def drag(qtbot, timeline: Timeline, start: QPoint, points: list[QPoint]) -> None:
    strip = timeline.strip
    qtbot.mousePress(strip, Qt.MouseButton.LeftButton, pos=start)
    for point in points:
        qtbot.mouseMove(strip, point)
    qtbot.mouseRelease(strip, Qt.MouseButton.LeftButton, pos=points[-1])


def test_the_handle_starts_at_now_and_dragging_it_back_shows_that_moment(qtbot) -> None:
    timeline = open_timeline(qtbot)
    assert timeline.position() is None
    assert timeline.as_of.text() == "Now"
    assert not timeline.now_button.isEnabled()
    seen = recorder(timeline.positionChanged)
    drag(qtbot, timeline, at(timeline, 5), [at(timeline, 4), at(timeline, 3), at(timeline, 2)])
    qtbot.waitUntil(lambda: seen[-1:] == [MOMENTS[2]])
    assert timeline.position() == MOMENTS[2]
    assert timeline.as_of.text() == "As of 2026-09-08 09:30"
    assert timeline.now_button.isEnabled()


def test_a_long_drag_is_paced_and_ends_on_the_moment_released_over(qtbot) -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    hourly = [start + timedelta(hours=h) for h in range(400)]
    timeline = open_timeline(qtbot, hourly, width=1200)
    times: list[float] = []
    seen = recorder(timeline.positionChanged)
    timeline.positionChanged.connect(lambda _moment: times.append(time.monotonic()))
    strip = timeline.strip
    began = time.monotonic()
    path = [QPoint(x, TICKS_Y) for x in range(strip.width() - 20, 100, -4)]
    drag(qtbot, timeline, at(timeline, len(hourly) - 1), path)
    elapsed_ms = (time.monotonic() - began) * 1000
    released = strip.scale.index_at(path[-1].x())
    assert seen[-1] == hourly[released]
    assert timeline.position() == hourly[released]
    assert 2 <= len(seen) <= elapsed_ms / 50 + 2, f"{len(seen)} signals in {elapsed_ms:.0f} ms"
    gaps = [later - earlier for earlier, later in pairwise(times[:-1])]  # the last: release
    assert all(gap >= 0.045 for gap in gaps), gaps


def test_clicking_a_tick_jumps_to_it(qtbot) -> None:
    timeline = open_timeline(qtbot)
    with qtbot.waitSignal(timeline.positionChanged) as emitted:
        qtbot.mouseClick(timeline.strip, Qt.MouseButton.LeftButton, pos=at(timeline, 1))
    assert emitted.args == [MOMENTS[1]]
    assert timeline.as_of.text() == "As of 2026-09-02 08:00"


def test_a_click_on_a_cluster_of_close_landings_goes_to_its_last(qtbot) -> None:
    burst = [MOMENTS[0] + timedelta(minutes=m) for m in range(5)]
    timeline = open_timeline(qtbot, [*burst, MOMENTS[5]])
    (cluster, _single) = timeline.strip.clusters
    assert cluster.count == 5
    with qtbot.waitSignal(timeline.positionChanged) as emitted:
        point = QPoint(round(cluster.x), TICKS_Y)
        qtbot.mouseClick(timeline.strip, Qt.MouseButton.LeftButton, pos=point)
    assert emitted.args == [burst[-1]]


def test_the_keyboard_steps_moment_by_moment(qtbot) -> None:
    timeline = open_timeline(qtbot)
    timeline.setFocus()
    assert timeline.strip.hasFocus()
    steps = [
        (Qt.Key.Key_Home, MOMENTS[0]),
        (Qt.Key.Key_Right, MOMENTS[1]),
        (Qt.Key.Key_Right, MOMENTS[2]),
        (Qt.Key.Key_Left, MOMENTS[1]),
        (Qt.Key.Key_End, None),
        (Qt.Key.Key_Left, MOMENTS[4]),
    ]
    for key, expected in steps:
        with qtbot.waitSignal(timeline.positionChanged) as emitted:
            qtbot.keyClick(timeline.strip, key)
        assert emitted.args == [expected], key
    assert timeline.position() == MOMENTS[4]


def test_compare_with_arms_a_click_that_sets_the_second_marker(qtbot) -> None:
    timeline = open_timeline(qtbot)
    moved = recorder(timeline.positionChanged)
    qtbot.mouseClick(timeline.compare_button, Qt.MouseButton.LeftButton)
    assert timeline.compare_button.isChecked()
    assert "choose a moment" in timeline.compare_label.text()
    with qtbot.waitSignal(timeline.compareChanged) as emitted:
        qtbot.mouseClick(timeline.strip, Qt.MouseButton.LeftButton, pos=at(timeline, 1))
    assert emitted.args == [MOMENTS[1]]
    assert timeline.compare_position() == MOMENTS[1]
    assert not timeline.compare_button.isChecked()
    assert timeline.compare_label.text() == "compared with 2026-09-02 08:00"
    assert timeline.position() is None and moved == []
    with qtbot.waitSignal(timeline.compareChanged) as emitted:
        drag(qtbot, timeline, at(timeline, 1), [at(timeline, 2), at(timeline, 3)])
    qtbot.waitUntil(lambda: timeline.compare_position() == MOMENTS[3])
    assert timeline.position() is None and moved == []
    with qtbot.waitSignal(timeline.compareChanged) as emitted:
        qtbot.mouseClick(timeline.clear_compare_button, Qt.MouseButton.LeftButton)
    assert emitted.args == [None]
    assert timeline.compare_position() is None
    assert not timeline.clear_compare_button.isVisible()


def test_shift_and_the_arrows_move_the_compare_marker(qtbot) -> None:
    timeline = open_timeline(qtbot)
    timeline.set_compare(MOMENTS[2])
    timeline.setFocus()
    with qtbot.waitSignal(timeline.compareChanged) as emitted:
        qtbot.keyClick(timeline.strip, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    assert emitted.args == [MOMENTS[1]]
    assert timeline.position() is None


def choose_from_menu(qtbot, text: str) -> list[str]:
    """When the context menu opens, trigger the entry named ``text``; returns the menu's entries."""
    entries: list[str] = []

    def choose() -> None:
        menu = QApplication.activePopupWidget()
        assert isinstance(menu, QMenu)
        entries.extend(action.text() for action in menu.actions())
        (action,) = [a for a in menu.actions() if a.text() == text]
        menu.close()
        action.trigger()

    QTimer.singleShot(100, choose)
    return entries


def test_the_tick_menu_compares_with_that_moment(qtbot) -> None:
    timeline = open_timeline(qtbot)
    entries = choose_from_menu(qtbot, "Compare with this moment")
    strip, point = timeline.strip, at(timeline, 2)
    # What the window system delivers when a person right-clicks (QTest does not make it).
    right_click = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point, strip.mapToGlobal(point))
    with qtbot.waitSignal(timeline.compareChanged) as emitted:
        QApplication.sendEvent(strip, right_click)
    assert emitted.args == [MOMENTS[2]]
    assert entries == ["Go to 2026-09-08 09:30", "Compare with this moment"]


def test_now_returns_to_the_latest(qtbot) -> None:
    timeline = open_timeline(qtbot)
    timeline.set_position(datetime(2026, 9, 9, 0, 0, tzinfo=UTC))
    assert timeline.position() == MOMENTS[2]
    with qtbot.waitSignal(timeline.positionChanged) as emitted:
        qtbot.mouseClick(timeline.now_button, Qt.MouseButton.LeftButton)
    assert emitted.args == [None]
    assert timeline.as_of.text() == "Now"


def test_setting_from_code_does_not_signal_and_new_landings_keep_the_moment(qtbot) -> None:
    timeline = open_timeline(qtbot, LANDINGS[:4])
    seen = recorder(timeline.positionChanged)
    timeline.set_position(MOMENTS[1])
    timeline.set_moments(LANDINGS)
    assert timeline.position() == MOMENTS[1]
    timeline.set_position(None)
    later = (MOMENTS[5] + timedelta(days=1), "release notes")
    timeline.set_moments([*LANDINGS, later])
    assert timeline.position() is None
    assert seen == []
    # After a position set from code, going back to where a person had been signals again.
    with qtbot.waitSignal(timeline.positionChanged):
        qtbot.keyClick(timeline.strip, Qt.Key.Key_Home)
    timeline.set_position(None)
    with qtbot.waitSignal(timeline.positionChanged) as emitted:
        qtbot.keyClick(timeline.strip, Qt.Key.Key_Home)
    assert emitted.args == [MOMENTS[0]]


def test_a_tick_tooltip_names_what_landed_then(qtbot) -> None:
    timeline = open_timeline(qtbot)
    strip = timeline.strip
    point = at(timeline, 3)
    QApplication.sendEvent(
        strip, QHelpEvent(QHelpEvent.Type.ToolTip, point, strip.mapToGlobal(point))
    )
    assert QToolTip.isVisible()
    assert QToolTip.text() == "2026-09-09 11:00\nstories"
    QToolTip.hideText()


def test_date_labels_never_overlap_whatever_the_span_and_width(qtbot) -> None:
    start = datetime(2026, 3, 1, 8, 0, tzinfo=UTC)
    timeline = open_timeline(qtbot)
    for span in (
        timedelta(minutes=40),
        timedelta(hours=30),
        timedelta(days=9),
        timedelta(days=200),
        timedelta(days=3000),
    ):
        for width in (260, 600, 1400):
            timeline.resize(width, 90)
            timeline.set_moments([start, start + span / 3, start + span])
            boxes = [box for _x, box, _text in timeline.strip.axis_labels()]
            assert boxes, (span, width)
            assert all(timeline.strip.rect().toRectF().contains(box) for box in boxes)
            for left, right in pairwise(boxes):
                assert left.right() < right.left(), (span, width, left, right)


def test_thousands_of_close_landings_draw_as_a_few_ticks(qtbot) -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    many = [start + timedelta(seconds=s) for s in range(3000)] + [start + timedelta(days=30)]
    timeline = open_timeline(qtbot, many)
    clusters = timeline.strip.clusters
    assert [c.count for c in clusters] == [3000, 1]
    assert sum(c.count for c in cluster_positions([0.0, 1.0, 9.0, 10.0, 30.0], 5.0)) == 5


def test_label_moments_fall_on_calendar_boundaries() -> None:
    months = next(step for step in STEPS if step.unit == "month" and step.size == 3)
    marks = list(label_moments(datetime(2026, 2, 10), datetime(2026, 12, 31), months))
    assert marks == [datetime(2026, 4, 1), datetime(2026, 7, 1), datetime(2026, 10, 1)]
    weeks = next(step for step in STEPS if step.unit == "day" and step.size == 7)
    marks = list(label_moments(datetime(2026, 9, 1, 10), datetime(2026, 9, 20), weeks))
    assert [m.weekday() for m in marks] == [0, 0] and marks[0] == datetime(2026, 9, 7)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_handle_and_compare_marker_are_drawn_in_both_themes(qtbot, theme: str) -> None:
    apply_theme(theme)
    try:
        timeline = open_timeline(qtbot)
        timeline.set_position(MOMENTS[2])
        timeline.set_compare(MOMENTS[1])
        image = picture(timeline)
        strip, palette = timeline.strip, timeline.palette()
        top = strip.mapTo(timeline, QPoint(0, 0))

        def grip(index: int):
            x = top.x() + strip.scale.x_of(index)
            return QRectF(x - 8, top.y(), 16, AXIS_Y).toRect()

        highlight = palette.color(QPalette.ColorRole.Highlight)
        assert_ink(image, grip(2), highlight, "the handle")
        assert_ink(image, grip(1), compare_colour(palette), "the compare marker")
    finally:
        apply_theme("system")


def test_the_history_s_landing_moments_name_what_landed_in_the_tooltips(qtbot, tmp_path) -> None:
    workspace = Workspace(data_dir=tmp_path, database=str(tmp_path / "knowledge.db"))
    try:
        workspace.knowledge.ingest(FIXTURE)
        history = read_history(workspace.knowledge)
    finally:
        workspace.close()
    timeline = open_timeline(qtbot, history.moments)
    assert timeline.moments() == MOMENTS
    (cluster,) = [c for c in timeline.strip.clusters if c.first == 2]
    assert timeline.strip.tooltip_text(cluster) == (
        "2026-09-08 09:30\nCheckout requirements (revised) (requirements)"
    )


def test_compare_with_can_be_armed_from_a_menu_command(qtbot) -> None:
    timeline = open_timeline(qtbot)
    timeline.arm_compare()
    assert timeline.compare_button.isChecked() and timeline.strip.hasFocus()
    qtbot.keyClick(timeline.strip, Qt.Key.Key_Escape)
    assert not timeline.compare_button.isChecked()
    seen = recorder(timeline.compareChanged)
    qtbot.mouseClick(timeline.strip, Qt.MouseButton.LeftButton, pos=at(timeline, 0))
    assert seen == [] and timeline.position() == MOMENTS[0]
