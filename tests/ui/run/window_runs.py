"""A main window whose runs are driven on the qasync loop, and running from it as a person does."""

from PySide6.QtCore import Qt

from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace
from tests.ui.run.run_loop import act, until


def open_window(qtbot, workspace: Workspace) -> MainWindow:
    """The main window on ``workspace``, shown at a desktop size."""
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    window.resize(1300, 850)
    window.show()
    return window


def run_from_canvas(qtbot, window: MainWindow, run_loop, text: str | None = None) -> None:
    """Press F5 on the canvas in front, type the input (or keep the last one) and click Run."""
    tab = window.workflows.tabs.current()
    actions = window.workflows.run_actions
    before = actions.input_dialog
    qtbot.keyClick(tab.editor.view, Qt.Key.Key_F5)
    dialog = until(run_loop, lambda: actions.input_dialog is not before and actions.input_dialog)
    assert dialog.isVisible()
    if text is not None:
        dialog.editor.selectAll()
        qtbot.keyClicks(dialog.editor, text)
    act(run_loop, qtbot.mouseClick, dialog.run_button, Qt.MouseButton.LeftButton)


def badge_lines(window: MainWindow, node_id: str) -> list[str]:
    """Every line of a node's badge on the canvas in front, as the person reads them."""
    overlay = window.workflows.tabs.current().overlay
    badge = overlay.badges.get(node_id) if overlay else None
    return [line.text for line in badge.lines] if badge else []


def drawn_badge_lines(window: MainWindow, node_id: str) -> list[str]:
    """A node's badge lines with what the canvas has yet to draw drawn now: what a person
    would see were every event drawn the moment it arrived."""
    overlay = window.workflows.tabs.current().overlay
    if overlay is not None:
        overlay.flush()
    return badge_lines(window, node_id)
