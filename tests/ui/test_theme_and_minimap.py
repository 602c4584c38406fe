"""The dark theme, remembered between sessions, and the minimap."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace
from tests.ui.answers import answer


def test_the_dark_theme_is_applied_to_the_canvas_and_remembered(qtbot) -> None:
    window = MainWindow(Workspace())
    qtbot.addWidget(window)
    window.show()
    tab = answer(qtbot, window.workflows.catalog.use_blueprint("echo-demo-workflow"))
    light = tab.editor.scene.colors.background.lightness()
    window.actions_by_name["theme_dark"].trigger()
    try:
        assert QApplication.palette().color(QPalette.ColorRole.Base).lightness() < 100
        assert tab.editor.scene.colors.background.lightness() < light
        again = MainWindow(Workspace())
        qtbot.addWidget(again)
        assert again.actions_by_name["theme_dark"].isChecked()
    finally:
        window.set_theme("system")


def test_clicking_the_minimap_moves_the_view(qtbot) -> None:
    window = MainWindow(Workspace())
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    tab = answer(qtbot, window.workflows.catalog.use_blueprint("data-processing-pipeline"))
    view, minimap = tab.editor.view, tab.editor.minimap
    view.resetTransform()
    view.scale(2.0, 2.0)
    view.centerOn(tab.editor.scene.node_items["extract"])
    qtbot.waitUntil(minimap.isVisible)  # refitted once the view settles
    target = minimap.minimap_point(tab.editor.scene.node_items["load"].sceneBoundingRect().center())
    qtbot.mouseClick(minimap, Qt.MouseButton.LeftButton, pos=target.toPoint())
    visible = view.visible_scene_rect()
    assert visible.contains(tab.editor.scene.node_items["load"].sceneBoundingRect().center())
    assert not visible.contains(tab.editor.scene.node_items["extract"].sceneBoundingRect().center())
