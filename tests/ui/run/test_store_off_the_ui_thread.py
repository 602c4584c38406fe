"""The window never waits for the database: while another program holds its write lock, runs,
autosave and the run panels hand their store work to the store thread and carry on."""

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from studio.model import Workflow
from studio.store.human_tasks import HumanTask
from studio.ui.autosave import Autosaver, ConflictChoice, SaveState
from studio.ui.run.approvals_panel import ApprovalsPanel
from studio.ui.run.history_panel import RunHistoryPanel
from studio.ui.run.run_controller import RunController
from studio.workspace import Workspace
from tests.ui.run.history_scenarios import chain, execute, publish
from tests.ui.run.run_loop import drive, run_loop, until  # noqa: F401

QUICK = 0.5
"""Seconds a call on the UI thread may take at most here; the busy timeout is 10 s."""


@contextmanager
def write_lock_held(workspace: Workspace) -> Iterator[None]:
    """Another program (a plain sqlite3 connection) holds the database's write lock."""
    other = sqlite3.connect(workspace.database_target, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def timed(action) -> float:
    began = time.monotonic()
    action()
    return time.monotonic() - began


def echo_flow(workspace: Workspace, tmp_path: Path) -> Workflow:
    return publish(workspace, tmp_path, chain("echo", {"id": "a", "agentId": "demo-echo-agent"}))


def test_a_run_starts_and_finishes_while_another_program_holds_the_write_lock(
    qtbot,
    tmp_path: Path,
    studio_data_dir: Path,
    run_loop,  # noqa: F811
) -> None:
    workspace = Workspace(studio_data_dir)
    workflow = echo_flow(workspace, tmp_path)
    runs = RunController(workspace)
    writers: set[str] = set()
    receivers: set[str] = set()
    runs.runner.bus.subscribe(lambda _event: writers.add(threading.current_thread().name))
    runs.eventArrived.connect(lambda _event: receivers.add(threading.current_thread().name))
    ended: list[str] = []
    runs.runEnded.connect(lambda _id, status: ended.append(status))
    try:
        with write_lock_held(workspace):
            started = []
            assert timed(lambda: started.append(runs.start(workflow.id, {"n": 1}))) < QUICK
            assert not started[0].done()  # the execution waits for the lock, the window not
        until(run_loop, lambda: ended)
        assert ended == ["completed"]
        assert writers == {"studio-store"} and receivers == {threading.main_thread().name}
    finally:
        runs.shutdown()
        drive(run_loop, runs.stopped())
        workspace.close()


def test_the_runs_panel_reads_on_the_store_thread(
    qtbot, tmp_path: Path, studio_data_dir: Path, monkeypatch
) -> None:
    workspace = Workspace(studio_data_dir)
    workflow = echo_flow(workspace, tmp_path)
    execute(workspace, workflow, {"n": 1})
    real_find, go, readers = workspace.executions.find, threading.Event(), []

    def slow_find(**kwargs):
        readers.append(threading.current_thread().name)
        go.wait(10)
        return real_find(**kwargs)

    monkeypatch.setattr(workspace.executions, "find", slow_find)
    panel = RunHistoryPanel(workspace)
    qtbot.addWidget(panel)
    assert timed(lambda: panel.show_workflow(workflow.id)) < QUICK
    assert panel.is_loading() and panel.tree.run_count() == 0
    go.set()
    qtbot.waitUntil(lambda: not panel.is_loading())
    assert panel.tree.run_count() == 1 and readers == ["studio-store"]
    workspace.close()


def test_the_approvals_panel_reads_on_the_store_thread(
    qtbot, studio_data_dir: Path, monkeypatch
) -> None:
    workspace = Workspace(studio_data_dir)
    real_waiting, go, readers = workspace.human_tasks.waiting, threading.Event(), []

    def slow_waiting() -> list[HumanTask]:
        readers.append(threading.current_thread().name)
        go.wait(10)
        return real_waiting()

    monkeypatch.setattr(workspace.human_tasks, "waiting", slow_waiting)
    panel = ApprovalsPanel(workspace, lambda *decision: None)
    qtbot.addWidget(panel)
    counts: list[int] = []
    panel.countChanged.connect(counts.append)
    assert timed(panel.refresh) < QUICK and counts == []
    go.set()
    qtbot.waitUntil(lambda: counts == [0])
    assert readers == ["studio-store"]
    workspace.close()


def test_autosave_waits_for_the_lock_off_the_ui_thread_and_keeps_the_change(
    qtbot, tmp_path: Path, studio_data_dir: Path
) -> None:
    workspace = Workspace(studio_data_dir)
    stored = workspace.workflows.create(Workflow.model_validate({"name": "Before"}))
    document = {"workflow": stored.model_copy(update={"name": "After"})}
    saver = Autosaver(
        workspace.workflows,
        lambda: document["workflow"],
        stored.version,
        lambda _mine, _theirs: ConflictChoice.OVERWRITE,
    )
    with write_lock_held(workspace):
        saver.changed()
        assert timed(saver.save_soon) < QUICK
        assert saver.state is SaveState.SAVING and saver.has_unsaved_changes
    qtbot.waitUntil(lambda: saver.state is SaveState.SAVED, timeout=15_000)
    assert workspace.workflows.get(stored.id).name == "After"
    workspace.close()
