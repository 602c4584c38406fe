"""How the board words a lease's time left and where each status goes."""

from datetime import UTC, datetime, timedelta

from studio.model.work_items import STATUSES, TERMINAL
from studio.ui.work.work_look import CLOSED, COLUMNS, column_of, time_left, work_look

NOW = datetime(2026, 9, 12, 9, 0, tzinfo=UTC)


def test_time_left_counts_down_like_a_clock_and_then_says_expired() -> None:
    assert time_left(NOW + timedelta(seconds=27.6), NOW) == "0:27"
    assert time_left(NOW + timedelta(minutes=12, seconds=4), NOW) == "12:04"
    assert time_left(NOW + timedelta(hours=1, minutes=2, seconds=9), NOW) == "1:02:09"
    assert time_left(NOW, NOW) == "expired"
    assert time_left(NOW - timedelta(seconds=5), NOW) == "expired"


def test_every_status_has_a_column_a_look_of_its_own_and_closed_holds_the_terminal() -> None:
    assert [column_of(status) for status in STATUSES if status in TERMINAL] == [CLOSED] * 3
    open_columns = [column_of(status) for status in STATUSES if status not in TERMINAL]
    assert open_columns == [column.name for column in COLUMNS if column.name != CLOSED]
    looks = [work_look(status) for status in STATUSES]
    assert len({(look.icon, look.light) for look in looks}) == len(STATUSES)
    assert work_look("mystery").label == "mystery"
