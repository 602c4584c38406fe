"""The status bar follows the workflow in front: its name, state, version and size, as tabs
change and as it is edited; with no workflow open, what the workspace holds; in another mode
it steps aside."""

from pathlib import Path

import yaml

from studio.ui.window.main_window import MainWindow
from tests.ui.answers import answer


def open_file(qtbot, window: MainWindow, folder: Path, name: str, count: int):
    path = folder / f"{name.lower()}.yaml"
    nodes = [{"id": f"n{i}", "agentId": "demo-echo-agent"} for i in range(count)]
    path.write_text(yaml.safe_dump({"name": name, "nodes": nodes}), encoding="utf-8")
    return answer(qtbot, window.workflows.files.open_workflow_file(str(path)))


def test_the_status_bar_follows_the_tab_in_front_and_its_edits(qtbot, window, tmp_path) -> None:
    status = window.workflows.tab_status
    qtbot.waitUntil(lambda: " agents · " in status.text())  # counted once the window is drawn
    assert status.isVisible()

    greet = open_file(qtbot, window, tmp_path, "Greet", 2)
    assert status.text() == "Greet · draft v1 · 2 nodes, 0 edges"
    open_file(qtbot, window, tmp_path, "Sort", 3)
    assert status.text() == "Sort · draft v1 · 3 nodes, 0 edges"

    window.workflows.tabs.tab_widget.setCurrentWidget(greet)
    assert status.text().startswith("Greet · ")
    greet.editor.connect_nodes("n0", "n1")
    assert status.text() == "Greet · draft v1 · 2 nodes, 1 edge"

    window.show_mode("knowledge")
    assert not status.isVisible()
    window.show_mode("workflows")
    assert status.isVisible()
