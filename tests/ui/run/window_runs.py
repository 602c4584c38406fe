"""A main window whose runs are driven on the qasync loop, and running from it as a person does."""

from PySide6.QtCore import Qt

from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace
from tests.ui.run.run_loop import act


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
    qtbot.keyClick(tab.editor.view, Qt.Key.Key_F5)
    dialog = window.workflows.run_actions.input_dialog
    assert dialog is not None and dialog.isVisible()
    if text is not None:
        dialog.editor.selectAll()
        qtbot.keyClicks(dialog.editor, text)
    act(run_loop, qtbot.mouseClick, dialog.run_button, Qt.MouseButton.LeftButton)


def badge_lines(window: MainWindow, node_id: str) -> list[str]:
    """Every line of a node's badge on the canvas in front, as the person reads them."""
    overlay = window.workflows.tabs.current().overlay
    badge = overlay.badges.get(node_id) if overlay else None
    return [text for text, _colour in badge.lines] if badge else []
