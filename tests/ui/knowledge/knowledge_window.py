"""The main window in its Knowledge mode, for tests that act as a person: a fresh workspace
with its own SQLite file, the sample corpus landed through the app, and waits for what a
person would wait for (the graph drawn, the pane filled)."""

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from studio.ui.knowledge.knowledge_mode import KnowledgeMode
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace

FIXTURE = Path(__file__).resolve().parents[2] / "knowledge" / "fixtures" / "checkout-redesign"
SUBJECT = "checkout-redesign"
OLD_REQUIREMENTS = f"{SUBJECT}/requirements/2026-09-01-requirements.md"
NEW_REQUIREMENTS = f"{SUBJECT}/requirements/2026-09-08-requirements.md"
STORIES = f"{SUBJECT}/stories/2026-09-09-stories.md"
DESIGN = f"{SUBJECT}/design/2026-09-10-design.md"
WAIT_MS = 20000


def open_window(qtbot, tmp_path: Path, agent_dirs: tuple[Path, ...] = ()) -> MainWindow:
    """The window in its Knowledge mode over a new database in ``tmp_path``."""
    workspace = Workspace(tmp_path / "data", agent_dirs, str(tmp_path / "studio.db"))
    window = MainWindow(workspace, "knowledge")
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    wait_drawn(qtbot, window.knowledge)
    return window


def wait_drawn(qtbot, mode: KnowledgeMode) -> None:
    """Until the view for the current choices is drawn whole on the canvas."""

    def drawn() -> bool:
        current = mode.session.current
        return (
            current is not None
            and current.view.query == mode.session.query
            and not mode.canvas.is_drawing()
        )

    qtbot.waitUntil(drawn, timeout=WAIT_MS)


def land_corpus(qtbot, window: MainWindow) -> None:
    """Land the sample corpus as a drop of its folder would, and wait for the graph."""
    mode = window.knowledge
    with qtbot.waitSignal(mode.landing.finished, timeout=WAIT_MS):
        assert mode.landing.land_paths([FIXTURE])
    qtbot.waitUntil(lambda: "design" in mode.canvas.node_ids(), timeout=WAIT_MS)
    wait_drawn(qtbot, mode)
    window.activateWindow()  # the progress window had the keyboard while it was up
    qtbot.waitUntil(window.isActiveWindow)


def node_point(mode: KnowledgeMode, node: str) -> QPoint:
    """Where a node is on the canvas's view, for a click."""
    item = mode.canvas.node_item(node)
    assert item is not None, f"{node} is not drawn"
    mode.canvas.center_on(node)
    QApplication.processEvents()
    return mode.canvas.view.mapFromScene(item.scene_rect().center())


def click_node(qtbot, mode: KnowledgeMode, node: str) -> None:
    qtbot.mouseClick(
        mode.canvas.view.viewport(), Qt.MouseButton.LeftButton, pos=node_point(mode, node)
    )


def double_click_node(qtbot, mode: KnowledgeMode, node: str) -> None:
    qtbot.mouseDClick(
        mode.canvas.view.viewport(), Qt.MouseButton.LeftButton, pos=node_point(mode, node)
    )


def label_of(mode: KnowledgeMode, node: str) -> str:
    current = mode.session.current
    assert current is not None
    return current.view.projection.graph.nodes[node]["label"]
