"""The problems panel: severity in an icon and words, and activation by double-click/Enter."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette

from studio.model.problems import error, warning
from studio.ui.panels.problems_panel import MESSAGE, PLACE, SEVERITY, ProblemsPanel
from tests.ui.panels.conftest import show
from tests.ui.pixels import (
    assert_cell_text,
    assert_no_ink,
    assert_shows_text,
    picture,
    place_in_view,
)

PROBLEMS = [
    error("UNKNOWN_AGENT", "agent 'placeholder-llm' is not in the registry", node_id="summarise"),
    error("CYCLE", "the edges form a cycle", edge_id="b->a"),
    warning("UNREACHABLE", "node 'orphan' cannot be reached", node_id="orphan"),
    warning("BAD_PATH", "not a path", path="configuration.parameters"),
]


def open_panel(qtbot) -> ProblemsPanel:
    panel = ProblemsPanel()
    panel.show_problems(PROBLEMS)
    show(qtbot, panel, (640, 240))
    return panel


def test_each_problem_shows_severity_words_icon_message_and_place(qtbot) -> None:
    panel = open_panel(qtbot)
    rows = [panel.tree.topLevelItem(i) for i in range(panel.tree.topLevelItemCount())]
    assert [(r.text(SEVERITY), r.text(MESSAGE), r.text(PLACE)) for r in rows] == [
        ("Error", "agent 'placeholder-llm' is not in the registry", "node 'summarise'"),
        ("Error", "the edges form a cycle", "edge 'b->a'"),
        ("Warning", "node 'orphan' cannot be reached", "node 'orphan'"),
        ("Warning", "not a path", "configuration.parameters"),
    ]
    assert all(not row.icon(SEVERITY).isNull() for row in rows)
    assert rows[0].icon(SEVERITY).cacheKey() != rows[2].icon(SEVERITY).cacheKey()
    assert "[UNKNOWN_AGENT]" in rows[0].toolTip(MESSAGE)
    assert panel.summary.text() == "2 errors, 2 warnings"


def test_double_clicking_a_problem_emits_it(qtbot) -> None:
    panel = open_panel(qtbot)
    rect = panel.tree.visualItemRect(panel.tree.topLevelItem(2))
    viewport = panel.tree.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())
    with qtbot.waitSignal(panel.problemActivated) as emitted:
        qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())
    assert emitted.args == [PROBLEMS[2]]


def test_enter_on_a_problem_emits_it(qtbot) -> None:
    panel = open_panel(qtbot)
    panel.tree.setFocus()
    panel.tree.setCurrentItem(panel.tree.topLevelItem(0))
    qtbot.keyClick(panel.tree, Qt.Key.Key_Down)
    with qtbot.waitSignal(panel.problemActivated) as emitted:
        qtbot.keyClick(panel.tree, Qt.Key.Key_Return)
    assert emitted.args == [PROBLEMS[1]]


def test_no_problems_says_so(qtbot) -> None:
    panel = open_panel(qtbot)
    panel.show_problems([])
    assert panel.tree.topLevelItemCount() == 0
    assert panel.summary.text() == "No problems found."


def test_the_summary_counts_one_of_each(qtbot) -> None:
    panel = open_panel(qtbot)
    panel.show_problems([PROBLEMS[0], PROBLEMS[2]])
    assert panel.summary.text() == "1 error, 1 warning"


def test_the_problems_panel_draws_every_row_and_the_summary(qtbot) -> None:
    panel = open_panel(qtbot)
    tree = panel.tree
    image = picture(panel)
    for row in range(tree.topLevelItemCount()):
        for column in (SEVERITY, MESSAGE, PLACE):
            assert_cell_text(image, tree, tree.model().index(row, column), panel)
    below = place_in_view(tree, tree.model().index(tree.topLevelItemCount() - 1, MESSAGE), panel)
    below.translate(0, below.height() * 2)  # under the last row: nothing
    assert_no_ink(image, below, tree.palette().color(QPalette.ColorRole.Text), "below the rows")
    assert_shows_text(image, panel, panel.summary, "the summary")
