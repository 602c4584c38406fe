"""The window's modes as a person meets them: the mode bar, the View menu and shortcuts, a
placeholder where a mode has nothing yet, each mode's own docks and menus, and a layout that
is remembered per mode and after a restart."""

import subprocess
import sys

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QDockWidget, QTabBar, QToolBar, QToolButton

from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace
from tests.cli_runner import REPO_ROOT
from tests.ui.answers import answer


def make_window(qtbot, mode: str | None = None) -> MainWindow:
    window = MainWindow(Workspace(), mode)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    return window


def mode_button(window: MainWindow, label: str) -> QToolButton:
    bar = window.findChild(QToolBar, "modeBar")
    action = next(a for a in bar.actions() if a.text() == label)
    button = bar.widgetForAction(action)
    assert isinstance(button, QToolButton)
    return button


def visible_docks(window: MainWindow) -> set[str]:
    return {dock.windowTitle() for dock in window.findChildren(QDockWidget) if dock.isVisible()}


def menu_titles(window: MainWindow) -> list[str]:
    return [a.text().replace("&", "") for a in window.menuBar().actions() if a.isVisible()]


def test_the_mode_bar_switches_between_modes_with_their_own_docks_and_menus(qtbot) -> None:
    window = make_window(qtbot)
    assert window.current_mode().name == "workflows"
    assert "Workflows" in visible_docks(window)
    assert "Graph" not in menu_titles(window)
    qtbot.mouseClick(mode_button(window, "Knowledge"), Qt.MouseButton.LeftButton)
    assert window.current_mode().name == "knowledge"
    page = window.centralWidget().currentWidget()
    assert page is window.knowledge.page and page.isVisible()
    # the workflow docks belong to their mode, the knowledge docks to theirs
    assert visible_docks(window) == {"Filters", "Artifact", "Insights", "Changes"}
    assert "Workflow" not in menu_titles(window) and "Run" not in menu_titles(window)
    assert "Graph" in menu_titles(window)
    assert not window.actions_by_name["undo"].isEnabled()  # Ctrl+Z cannot touch a hidden canvas
    assert mode_button(window, "Knowledge").isChecked()
    qtbot.mouseClick(mode_button(window, "Work"), Qt.MouseButton.LeftButton)
    assert window.centralWidget().currentWidget() is window.work.page
    assert visible_docks(window) == {"Work Item", "Workers"}
    qtbot.mouseClick(mode_button(window, "Workflows"), Qt.MouseButton.LeftButton)
    assert "Workflows" in visible_docks(window)
    assert "Run" in menu_titles(window) and window.actions_by_name["undo"].isEnabled()


def test_modes_answer_to_their_shortcuts_and_the_view_menu(qtbot) -> None:
    window = make_window(qtbot)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    focus = window.workflows.lists.panel.search
    focus.setFocus()
    qtbot.keyClick(focus, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    assert window.current_mode().name == "work"
    assert window.centralWidget().currentWidget() is window.work.page
    view_menu = window.menus["View"]
    knowledge = next(a for a in view_menu.actions() if a.text() == "Knowledge")
    knowledge.trigger()
    assert window.current_mode().name == "knowledge"
    qtbot.keyClick(window.centralWidget(), Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert window.current_mode().name == "workflows"


def test_each_mode_keeps_its_layout_and_the_window_reopens_in_the_last_mode(qtbot) -> None:
    window = make_window(qtbot)
    listing = window.workflows.workflows_dock
    listing.close()  # the person closes the Workflows dock in the Workflows mode
    window.workflows.runs_dock.show()  # and opens the Runs dock
    window.show_mode("knowledge")
    window.show_mode("workflows")
    assert not listing.isVisible() and window.workflows.runs_dock.isVisible()
    window.show_mode("knowledge")
    window.close()
    again = make_window(qtbot)
    assert again.current_mode().name == "knowledge"
    again.show_mode("workflows")
    assert not again.workflows.workflows_dock.isVisible()
    assert again.workflows.runs_dock.isVisible()
    again.reset_layout()
    assert again.workflows.workflows_dock.isVisible()
    assert not again.workflows.runs_dock.isVisible()  # below, it waits for a run


def test_a_mode_asked_for_on_opening_wins_over_the_last_one(qtbot) -> None:
    window = make_window(qtbot)
    window.show_mode("work")
    window.close()
    assert make_window(qtbot, "knowledge").current_mode().name == "knowledge"


def test_studio_screenshot_draws_the_mode_asked_for(tmp_path) -> None:
    out = tmp_path / "knowledge.png"
    result = subprocess.run(
        [sys.executable, "-m", "studio", "screenshot", str(out), "--mode", "knowledge"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO_ROOT,
    )
    assert result.returncode == 0, result.stderr
    picture = QImage(str(out))
    assert (picture.width(), picture.height()) == (1280, 800)
    # An empty store: the middle of the window is the knowledge mode's empty page, with no
    # workflow canvas grid across it.
    middle = {picture.pixelColor(x, 150).name() for x in range(450, 800, 25)}
    assert len(middle) == 1


def test_studio_gui_refuses_a_mode_that_does_not_exist() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "studio", "gui", "--mode", "team"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO_ROOT,
    )
    assert result.returncode == 2
    assert "invalid choice: 'team'" in result.stderr


def test_opening_a_workflow_from_another_mode_brings_the_workflows_mode_forward(qtbot) -> None:
    window = make_window(qtbot, "knowledge")
    tab = answer(qtbot, window.workflows.files.new_workflow())
    assert window.current_mode().name == "workflows"
    assert tab is not None and tab.editor.isVisible()
    assert window.windowTitle() == "Untitled workflow — Studio"


def test_a_mode_placed_while_the_window_is_built_leaves_no_stray_tab_bar(qtbot) -> None:
    window = MainWindow(Workspace(), "knowledge")  # its docks are placed before any layout
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.wait(50)

    bars = [
        bar
        for bar in window.findChildren(QTabBar)
        if bar.parent() is window and bar.isVisible()
        and {bar.tabText(i) for i in range(bar.count())} == {"Insights", "Changes"}
    ]  # fmt: skip
    assert len(bars) == 1
    insights = window.knowledge.insights_dock.geometry()
    assert bars[0].geometry().adjusted(-8, -8, 8, 8).intersects(insights)


def test_the_empty_knowledge_page_shows_all_its_words(qtbot) -> None:
    window = make_window(qtbot, "knowledge")
    text = window.knowledge.page.empty.text

    assert text.isVisible() and "Drop Markdown files" in text.text()
    assert text.height() >= text.heightForWidth(text.width())
