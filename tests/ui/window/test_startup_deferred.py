"""What the first frame does not need waits until the window is drawn, and still arrives: the
agent registry is read when runs need it, on the store thread; the run history fills when the
Runs panel is shown; the catalog, opened after start-up, lists the blueprints."""

from pathlib import Path

import pytest

from studio.model import Workflow
from studio.ui.window.main_window import MainWindow
from studio.ui.window.tab_status import workspace_summary
from studio.workspace import Workspace
from tests.ui.answers import answer
from tests.ui.run.history_scenarios import chain, execute, interrupted_run, publish
from tests.ui.window.test_store_off_the_ui_thread import Readers


@pytest.fixture
def readers(monkeypatch: pytest.MonkeyPatch) -> Readers:
    return Readers(monkeypatch)


def echo_workflow(workspace: Workspace, tmp_path: Path) -> Workflow:
    """A published one-step workflow that echoes its input."""
    return publish(workspace, tmp_path, chain("echo", {"id": "a", "agentId": "demo-echo-agent"}))


def prepared_runs(tmp_path: Path) -> tuple[str, str]:
    """A finished and an interrupted run of a published workflow, stored by an earlier
    Studio (the window's workspace has read nothing yet): their ids."""
    earlier = Workspace()
    workflow = echo_workflow(earlier, tmp_path)
    finished = execute(earlier, workflow, {"message": "again"})
    stopped = interrupted_run(earlier, workflow)
    earlier.close()
    return finished.execution_id, stopped.execution_id


def drawn_window(qtbot, workspace: Workspace) -> MainWindow:
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_the_agents_are_read_off_the_ui_thread_once_runs_need_them(
    qtbot, tmp_path: Path, readers: Readers
) -> None:
    prepared_runs(tmp_path)
    workspace = Workspace()
    readers.watch(workspace.agent_library, "library", "record_system")
    window = drawn_window(qtbot, workspace)
    docks = window.workflows.run_docks
    qtbot.waitUntil(lambda: docks.interrupted_button is not None)  # told which runs stopped
    assert docks.interrupted_button.isVisible()
    assert readers.only_on_the_store_thread("AgentLibraryRepository.library")
    workspace.close()


def test_the_status_bar_counts_the_agents_and_blueprints_once_the_window_is_drawn(
    qtbot,
) -> None:
    workspace = Workspace()
    window = drawn_window(qtbot, workspace)
    status = window.workflows.tab_status
    qtbot.waitUntil(lambda: " agents · " in status.text())
    assert status.text() == workspace_summary(workspace)
    assert status.summary_shown.result() == status.text()
    workspace.close()


def test_a_run_started_after_start_up_finds_its_agents(qtbot, tmp_path: Path) -> None:
    workspace = Workspace()
    workflow = echo_workflow(workspace, tmp_path)
    window = drawn_window(qtbot, workspace)
    runs = window.workflows.runs
    record = runs.start(workflow.id, {"message": "hi"}).result(timeout=10)
    assert record is not None
    qtbot.waitUntil(lambda: not runs.is_driving(record.execution_id), timeout=20000)
    assert workspace.executions.get(record.execution_id).status == "completed"
    workspace.close()


def test_the_run_history_fills_when_the_runs_panel_is_shown(qtbot, tmp_path: Path) -> None:
    finished, _stopped = prepared_runs(tmp_path)
    workspace = Workspace()
    window = drawn_window(qtbot, workspace)
    docks = window.workflows.run_docks
    docks.show_history()
    qtbot.waitUntil(lambda: docks.history.select_execution(finished))
    qtbot.waitUntil(lambda: docks.history.detail.execution_id == finished)
    workspace.close()


def test_the_catalog_opened_after_start_up_lists_the_blueprints(qtbot) -> None:
    workspace = Workspace()
    window = drawn_window(qtbot, workspace)
    catalog = window.workflows.catalog
    assert catalog.browser is None  # nothing of the catalog is built for the first frame
    count = answer(qtbot, catalog.browse())
    browser = catalog.browser
    assert count and browser is not None and browser.isVisible()
    assert browser.shown.rowCount() == count
    seeds = {blueprint.workflow.name for blueprint in workspace.blueprints}
    listed = {browser.blueprints.index(row, 0).data() for row in range(count)}
    assert seeds and seeds == listed
    workspace.close()
