"""The side-by-side comparison of two versions' texts."""

from pytestqt.qtbot import QtBot

from studio.ui.knowledge.version_diff import (
    DiffRow,
    VersionDiff,
    diff_html,
    diff_rows,
    summary_text,
)

OLD = "# Plan\n\nKeep carts.\nPay by card.\nShip.\n"
NEW = "# Plan\n\nKeep carts for 30 days.\nShip.\nTrack parcels.\n"


def test_replaced_lines_are_paired_and_the_rest_stand_alone() -> None:
    rows = diff_rows(OLD, NEW)

    assert rows == [
        DiffRow("same", 1, "# Plan", 1, "# Plan"),
        DiffRow("same", 2, "", 2, ""),
        DiffRow("changed", 3, "Keep carts.", 3, "Keep carts for 30 days."),
        DiffRow("removed", 4, "Pay by card.", None, None),
        DiffRow("same", 5, "Ship.", 4, "Ship."),
        DiffRow("added", None, None, 5, "Track parcels."),
    ]
    assert summary_text(rows) == "2 line(s) removed, 2 line(s) added"
    assert summary_text(diff_rows(OLD, OLD)) == "The two versions have the same text."


def test_removed_and_added_lines_are_coloured_and_signed_and_escaped() -> None:
    page = diff_html("a.md", "b.md", diff_rows("<b>old</b>\n", "<b>new</b>\n"))

    assert '<td width="2%" bgcolor="#ffebe9">-</td>' in page
    assert '<td width="2%" bgcolor="#e6ffec">+</td>' in page
    assert "&lt;b&gt;old&lt;/b&gt;" in page and "<b>" not in page
    assert "#5a1e1e" in diff_html("a.md", "b.md", diff_rows("x\n", "y\n"), dark=True)


def test_the_window_shows_both_refs_and_the_summary(qtbot: QtBot) -> None:
    window = VersionDiff("s/k/2026-01-01-a.md", OLD, "s/k/2026-02-01-a.md", NEW)
    qtbot.addWidget(window)
    window.show()

    shown = window.shown_text()
    assert "s/k/2026-01-01-a.md" in shown and "s/k/2026-02-01-a.md" in shown
    assert "-\nPay by card." in shown
    assert "+\nTrack parcels." in shown
    assert window.summary.text() == "2 line(s) removed, 2 line(s) added"
