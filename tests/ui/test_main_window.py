"""The main window shell: the blueprint catalog and opening files."""

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMessageBox

from studio.ui.main_window import MainWindow
from studio.workspace import Workspace
from tests.cli_runner import REPO_ROOT


def make_window(qtbot) -> MainWindow:
    window = MainWindow(Workspace())
    qtbot.addWidget(window)
    window.show()
    return window


def test_the_catalog_lists_the_seed_blueprints(qtbot) -> None:
    window = make_window(qtbot)
    names = [
        window.blueprint_list.item(row).text().split("\n")[0]
        for row in range(window.blueprint_list.count())
    ]
    assert "Echo Demo Workflow" in names
    assert len(names) == 5


def test_activating_a_blueprint_shows_it(qtbot) -> None:
    window = make_window(qtbot)
    listing = window.blueprint_list
    row = next(
        r for r in range(listing.count()) if listing.item(r).text().startswith("Parallel Fan-Out")
    )
    listing.setCurrentRow(row)
    listing.setFocus()
    qtbot.keyClick(listing, Qt.Key.Key_Return)
    assert window.windowTitle() == "Parallel Fan-Out — Studio"
    assert "5 node(s), 6 edge(s)" in window.findChild(QLabel, "welcome").text()


def test_opening_a_workflow_file_shows_its_name(qtbot) -> None:
    window = make_window(qtbot)
    assert window.open_workflow_file(str(REPO_ROOT / "blueprints" / "echo-demo-workflow.yaml"))
    assert window.workflow is not None and window.workflow.name == "Echo Demo Workflow"


def test_a_broken_file_is_refused_with_a_message_and_changes_nothing(
    qtbot, tmp_path: Path, monkeypatch
) -> None:
    window = make_window(qtbot)
    window.open_workflow_file(str(REPO_ROOT / "blueprints" / "echo-demo-workflow.yaml"))
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: shown.append(text))
    broken = tmp_path / "broken.yaml"
    broken.write_text("nodes: [\n")
    assert not window.open_workflow_file(str(broken))
    assert "broken.yaml" in shown[0] and "invalid YAML" in shown[0]
    assert window.workflow is not None and window.workflow.name == "Echo Demo Workflow"
