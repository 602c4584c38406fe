"""The Workflows mode gives the canvas the room: at 1280×800 the canvas has most of the
window; the Workflows list, the Inspector and the settings share the right column; the
Problems panel comes up when the workflow in front cannot be published, says why, and goes
when the problems are fixed; selecting a node brings the Inspector forward."""

from pathlib import Path

import yaml
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from tests.ui.answers import answer

WAIT_MS = 20_000


def in_front(dock: QDockWidget) -> bool:
    """Whether a dock is shown and in front of its group (a dock behind another's tab stays
    "visible" to Qt, out of sight)."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def write_workflow(folder: Path, agent_id: str) -> Path:
    path = folder / "greet.yaml"
    data = {
        "name": "Greet",
        "nodes": [
            {"id": "hello", "name": "Hello", "agentId": "demo-echo-agent"},
            {"id": "write", "name": "Write", "agentId": agent_id},
        ],
        "edges": [{"source": "hello", "target": "write"}],
    }
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_the_canvas_has_most_of_a_1280_by_800_window(qtbot, window) -> None:
    tab = answer(qtbot, window.workflows.files.new_workflow())
    qtbot.waitUntil(lambda: tab.editor.view.isVisible(), timeout=WAIT_MS)

    viewport = tab.editor.view.viewport()
    share = viewport.width() * viewport.height() / (1280 * 800)

    assert share >= 0.6, f"the canvas has {share:.0%} of the window"
    assert in_front(window.workflows.workflows_dock)
    assert not window.workflows.problems_dock.isVisible()


def test_problems_come_up_for_a_workflow_that_cannot_publish_and_go_once_fixed(
    qtbot, window, tmp_path
) -> None:
    path = write_workflow(tmp_path, "placeholder-writer")
    tab = answer(qtbot, window.workflows.files.open_workflow_file(str(path)))
    problems = window.workflows.problems_dock

    summary = window.workflows.panels.problems.summary
    qtbot.waitUntil(
        lambda: summary.text().startswith("Not publishable yet:") and problems.isVisible(),
        timeout=WAIT_MS,
    )
    assert "placeholder" in summary.text()

    node = tab.editor.document.node("write")
    tab.editor.edit_node(node.model_copy(update={"agent_id": "demo-echo-agent"}))

    qtbot.waitUntil(
        lambda: summary.text() == "No problems found." and not problems.isVisible(),
        timeout=WAIT_MS,
    )


def test_a_problems_panel_the_person_opened_stays_open(qtbot, window, tmp_path) -> None:
    problems = window.workflows.problems_dock
    problems.show()
    path = write_workflow(tmp_path, "demo-echo-agent")
    answer(qtbot, window.workflows.files.open_workflow_file(str(path)))
    qtbot.waitUntil(
        lambda: window.workflows.panels.problems.summary.text() == "No problems found.",
        timeout=WAIT_MS,
    )
    qtbot.wait(600)  # another check would have come by now
    assert problems.isVisible()


def test_selecting_a_node_brings_the_inspector_forward(qtbot, window, tmp_path) -> None:
    path = write_workflow(tmp_path, "demo-echo-agent")
    tab = answer(qtbot, window.workflows.files.open_workflow_file(str(path)))
    workflows_list = window.workflows.workflows_dock
    assert in_front(workflows_list) and not in_front(window.workflows.inspector_dock)

    item = tab.editor.scene.node_items["hello"]
    point = tab.editor.view.mapFromScene(item.sceneBoundingRect().center())
    qtbot.mouseClick(tab.editor.view.viewport(), Qt.MouseButton.LeftButton, pos=point)

    qtbot.waitUntil(lambda: in_front(window.workflows.inspector_dock), timeout=WAIT_MS)
    assert not in_front(workflows_list)  # behind the Inspector in the same column
    assert window.workflows.panels.node_drawer.isVisible()


def test_a_file_without_positions_opens_laid_out(qtbot, window, tmp_path) -> None:
    path = write_workflow(tmp_path, "demo-echo-agent")  # no positions: every node at 0, 0
    tab = answer(qtbot, window.workflows.files.open_workflow_file(str(path)))

    hello, write = (tab.editor.scene.node_items[n].sceneBoundingRect() for n in ("hello", "write"))

    assert not hello.intersects(write)
    assert hello.right() < write.left()  # the edge runs left to right
