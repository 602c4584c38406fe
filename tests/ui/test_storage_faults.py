"""Storage faults in the app, on real faults: a damaged or read-only database at start-up, a
disk that fills under autosave and under a run. Each is a dialog that names the database,
never a crash; what the person made is kept, and the run resumes once there is room."""

import asyncio
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from studio.model import Workflow
from studio.model.execution import COMPLETED
from studio.store import open_database
from studio.store.errors import StorageFaultError
from studio.ui.app import run_app, storage_faults_shown_by
from studio.ui.storage_fault_notice import EDITS_KEPT, RUN_NOT_STARTED, RUN_STOPPED, TITLE
from studio.workspace import Workspace
from tests.store.storage_faults import (
    damage,
    fill,
    make_database_with_runs_and_knowledge,
    read_only_file,
    small_disk,
)
from tests.ui.answers import answer, answer_on
from tests.ui.run.history_scenarios import chain, publish, write_yaml
from tests.ui.run.run_loop import act, run_loop, until  # noqa: F401
from tests.ui.run.window_runs import open_window


@pytest.fixture
def critical_dialogs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """What QMessageBox.critical would have shown (a modal dialog cannot wait in a test)."""
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(
        QMessageBox, "critical", lambda _parent, title, text: shown.append((title, text))
    )
    return shown


def start_app(workspace: Workspace) -> int:
    """run_app as ``studio`` runs it; should a window open after all, it is closed after 3 s.
    The timer stops when run_app returns: left running, it closed the windows of whichever
    test came 3 s later."""
    closer = QTimer(singleShot=True, interval=3000)
    closer.timeout.connect(QApplication.closeAllWindows)
    closer.start()
    try:
        return run_app(workspace)
    finally:
        closer.stop()


def test_the_app_on_a_damaged_database_says_so_in_a_dialog_and_exits_2(
    qapp, tmp_path: Path, studio_data_dir: Path, critical_dialogs
) -> None:
    file = tmp_path / "studio.db"
    make_database_with_runs_and_knowledge(file, studio_data_dir)
    damage(file)
    assert start_app(Workspace(studio_data_dir, database=str(file))) == 2
    ((title, text),) = critical_dialogs
    assert title == TITLE
    assert text.startswith(f"Cannot open the database {file}: the file is damaged (")


def test_the_app_on_a_read_only_database_says_so_in_a_dialog_and_exits_2(
    qapp, tmp_path: Path, studio_data_dir: Path, critical_dialogs
) -> None:
    file = tmp_path / "studio.db"
    open_database(file).close()
    with read_only_file(file):
        assert start_app(Workspace(studio_data_dir, database=str(file))) == 2
    assert critical_dialogs == [(TITLE, f"Cannot open the database {file}: the file is read-only.")]


def storage_fault_dialog(window) -> QMessageBox | None:
    box = window.findChild(QMessageBox, "storageFault")
    return box if box is not None and box.isVisible() else None


def test_a_full_disk_under_autosave_shows_a_dialog_and_keeps_the_change(
    qtbot, tmp_path: Path, studio_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Should the test fail with the disk still full, closing the tab must not wait on a question.
    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Yes)
    with small_disk(tmp_path / "disk") as disk:
        file = disk / "studio.db"
        workspace = Workspace(studio_data_dir, database=str(file))
        stored = workspace.workflows.create(
            Workflow.model_validate(chain("before", {"id": "a", "agentId": "demo-echo-agent"}))
        )
        window = open_window(qtbot, workspace)
        try:
            tab = answer(qtbot, window.workflows.tabs.open(stored.id))
            tab.editor.edit_properties({"name": "after"})
            filler = fill(disk)
            assert tab.autosaver.save_now() is False
            box = storage_fault_dialog(window)
            assert box is not None, "no dialog about the database"
            assert box.windowTitle() == TITLE
            assert box.text() == f"Cannot write to the database {file}: the disk is full."
            assert box.informativeText() == EDITS_KEPT
            assert tab.title() == "after (not saved)"
            box.close()
            assert tab.autosaver.save_now() is False  # a retry: the same fault is not repeated
            assert storage_fault_dialog(window) is None

            filler.unlink()
            assert tab.autosaver.save_now() is True
            assert workspace.workflows.get(stored.id).name == "after"
        finally:
            (disk / "filler").unlink(missing_ok=True)
            window.close()
            workspace.close()


def gate_agent(folder: Path, started: Path, go: Path) -> Path:
    script = f"touch {started}; while [ ! -f {go} ]; do sleep 0.05; done; cat"
    agent = {"id": "gate", "name": "Gate", "kind": "shell"}
    write_yaml(folder / "gate.yaml", agent | {"settings": {"argv": ["sh", "-c", script]}})
    return folder


def test_a_run_the_disk_fills_under_shows_a_dialog_and_resumes_once_there_is_room(
    qtbot,
    tmp_path: Path,
    studio_data_dir: Path,
    run_loop,  # noqa: F811
) -> None:
    started, go = tmp_path / "started", tmp_path / "go"
    agents = gate_agent(tmp_path / "agents", started, go)
    with small_disk(tmp_path / "disk") as disk:
        file = disk / "studio.db"
        workspace = Workspace(studio_data_dir, agent_dirs=[agents], database=str(file))
        workflow = publish(
            workspace,
            tmp_path,
            chain(
                "gated",
                {"id": "first", "agentId": "demo-echo-agent"},
                {"id": "gate", "agentId": "gate"},
                {"id": "last", "agentId": "demo-echo-agent"},
            ),
        )
        window = open_window(qtbot, workspace)
        try:
            answer_on(run_loop, window.workflows.tabs.open(workflow.id))
            records = []
            act(
                run_loop, lambda: records.append(window.workflows.runs.start(workflow.id, {"n": 1}))
            )
            execution_id = records[0].result(timeout=10).execution_id
            until(run_loop, started.exists)
            filler = fill(disk)
            box = until(run_loop, lambda: storage_fault_dialog(window))
            assert box.text() == f"Cannot write to the database {file}: the disk is full."
            assert box.informativeText() == RUN_STOPPED
            assert not window.workflows.runs.is_driving(execution_id)
            assert window.workflows.runs.is_interrupted(workspace.executions.get(execution_id))
            box.close()

            filler.unlink()
            go.touch()
            act(run_loop, window.workflows.run_docks.resume, execution_id)
            until(run_loop, lambda: workspace.executions.get(execution_id).status == COMPLETED)
            record = workspace.executions.get(execution_id)
            assert {node: result.status for node, result in record.node_results.items()} == {
                "first": COMPLETED,
                "gate": COMPLETED,
                "last": COMPLETED,
            }
        finally:
            (disk / "filler").unlink(missing_ok=True)
            go.touch()
            window.close()
            workspace.close()


def test_a_run_that_cannot_start_on_a_full_disk_says_so_and_stores_nothing(
    qtbot, tmp_path: Path, studio_data_dir: Path
) -> None:
    with small_disk(tmp_path / "disk") as disk:
        file = disk / "studio.db"
        workspace = Workspace(studio_data_dir, database=str(file))
        workflow = publish(
            workspace, tmp_path, chain("echo", {"id": "a", "agentId": "demo-echo-agent"})
        )
        window = open_window(qtbot, workspace)
        try:
            filler = fill(disk)
            started = window.workflows.runs.start(workflow.id, {"n": 1})
            assert started.result(timeout=10) is None
            qtbot.waitUntil(lambda: storage_fault_dialog(window) is not None)
            box = storage_fault_dialog(window)
            assert box is not None, "no dialog about the database"
            assert box.text() == f"Cannot write to the database {file}: the disk is full."
            assert box.informativeText() == RUN_NOT_STARTED
            filler.unlink()
            assert workspace.executions.find() == []
        finally:
            (disk / "filler").unlink(missing_ok=True)
            window.close()
            workspace.close()


def test_a_storage_fault_nothing_else_caught_is_shown_in_the_dialog(qtbot) -> None:
    """The safety nets under slots and timers (the exception hook) and under tasks on the
    event loop: a fault that escapes every handler still ends in the dialog."""
    window = open_window(qtbot, Workspace())
    fault = StorageFaultError("/data/studio.db", "write to", "the disk is full")
    restore = window.status.storage_faults.catch_uncaught()
    try:
        sys.excepthook(type(fault), fault, None)
    finally:
        restore()
    box = window.status.storage_faults.box
    assert box is not None and box.isVisible() and box.windowTitle() == TITLE
    assert box.text() == "Cannot write to the database /data/studio.db: the disk is full."
    box.close()
    loop = asyncio.new_event_loop()
    try:
        other = StorageFaultError("/data/studio.db", "read", "the file is read-only")
        storage_faults_shown_by(window)(loop, {"message": "task failed", "exception": other})
    finally:
        loop.close()
    assert window.status.storage_faults.box is not None
    assert "the file is read-only" in window.status.storage_faults.box.text()
