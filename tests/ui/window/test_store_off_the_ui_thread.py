"""The window's commands read and write the store on the store thread, never on the UI thread:
each repository call they make is seen running on "studio-store", and while that thread is
held busy the command returns at once, the window keeps handling events, and the command
finishes once the store answers."""

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox

from studio.engine.store_thread import shared_store_thread
from studio.model import Workflow
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace
from tests.ui.answers import answer
from tests.ui.run.history_scenarios import chain, execute, interrupted_run, publish

STORE = "studio-store"
QUICK = 0.5
"""Seconds a command may take on the UI thread here; the store is held for longer."""


class Readers:
    """Which thread each watched repository method ran on, by method."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.threads: dict[str, list[str]] = {}

    def watch(self, repository: object, *names: str) -> None:
        for name in names:
            real: Callable = getattr(repository, name)
            key = f"{type(repository).__name__}.{name}"

            def recorded(*args, _real=real, _key=key, **kwargs):
                self.threads.setdefault(_key, []).append(threading.current_thread().name)
                return _real(*args, **kwargs)

            self.monkeypatch.setattr(repository, name, recorded)

    def only_on_the_store_thread(self, *keys: str) -> bool:
        """Each of ``keys`` ran, and every watched call ran on the store thread."""
        ran = all(self.threads.get(key) for key in keys)
        return ran and {t for names in self.threads.values() for t in names} == {STORE}


@pytest.fixture
def readers(monkeypatch: pytest.MonkeyPatch) -> Readers:
    return Readers(monkeypatch)


@pytest.fixture(autouse=True)
def answer_yes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Yes)


@contextmanager
def store_thread_busy() -> Iterator[None]:
    """Something else occupies the store thread until the block ends."""
    go = threading.Event()
    held = shared_store_thread().call(lambda: go.wait(20))
    try:
        yield
    finally:
        go.set()
        held.result(20)


def open_window(qtbot, workspace: Workspace) -> MainWindow:
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    window.show()
    return window


def timed(action: Callable[[], object]) -> tuple[object, float]:
    began = time.monotonic()
    value = action()
    return value, time.monotonic() - began


def echo(workspace: Workspace, tmp_path: Path) -> Workflow:
    return publish(workspace, tmp_path, chain("echo", {"id": "a", "agentId": "demo-echo-agent"}))


def test_opening_a_workflow_waits_for_the_store_thread_not_on_the_ui_thread(
    qtbot, tmp_path: Path, readers: Readers
) -> None:
    workspace = Workspace()
    stored = workspace.workflows.create(Workflow(name="Opened later"))
    window = open_window(qtbot, workspace)
    readers.watch(workspace.workflows, "get")
    ticked: list[bool] = []
    with store_thread_busy():
        opening, seconds = timed(lambda: window.workflows.tabs.open(stored.id))
        assert seconds < QUICK and not opening.done()
        QTimer.singleShot(0, lambda: ticked.append(True))
        qtbot.waitUntil(lambda: ticked == [True])  # the window goes on handling events
        assert not opening.done() and window.workflows.tabs.current() is None
    tab = answer(qtbot, opening)
    assert tab is window.workflows.tabs.current()
    assert tab.editor.document.properties.name == "Opened later"
    assert readers.only_on_the_store_thread("WorkflowRepository.get")
    workspace.close()


def test_a_workflow_that_cannot_be_read_says_so(qtbot, monkeypatch) -> None:
    workspace = Workspace()
    window = open_window(qtbot, workspace)
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, title, text: shown.append((title, text)))
    assert answer(qtbot, window.workflows.tabs.open("no-such-workflow")) is None
    ((title, text),) = shown
    assert title == "Cannot open workflow" and "no-such-workflow" in text
    assert window.workflows.tabs.current() is None
    workspace.close()


def test_creating_publishing_and_deleting_workflows_happen_on_the_store_thread(
    qtbot, readers: Readers
) -> None:
    workspace = Workspace()
    window = open_window(qtbot, workspace)
    files = window.workflows.files
    readers.watch(workspace.workflows, "create", "publish", "get", "delete")
    with store_thread_busy():
        creating, seconds = timed(files.new_workflow)
        assert seconds < QUICK and not creating.done()
    tab = answer(qtbot, creating)
    assert tab is window.workflows.tabs.current()
    tab.editor.add_node("demo-echo-agent")
    assert answer(qtbot, files.publish_current()) is True
    draft = answer(qtbot, files.new_workflow())
    assert answer(qtbot, files.delete_workflow(draft.workflow_id)) is True
    assert window.workflows.tabs.of(draft.workflow_id) is None
    assert readers.only_on_the_store_thread(
        "WorkflowRepository.create",
        "WorkflowRepository.publish",
        "WorkflowRepository.get",
        "WorkflowRepository.delete",
    )
    workspace.close()


def test_blueprints_are_used_and_saved_on_the_store_thread(qtbot, readers: Readers) -> None:
    workspace = Workspace()
    window = open_window(qtbot, workspace)
    catalog = window.workflows.catalog
    readers.watch(workspace.workflows, "create", "save_blueprint")
    with store_thread_busy():
        using, seconds = timed(lambda: catalog.use_blueprint("echo-demo-workflow"))
        assert seconds < QUICK and not using.done()
    tab = answer(qtbot, using)
    assert tab.editor.document.properties.name == "Echo Demo Workflow (Copy)"
    saved = answer(
        qtbot, catalog.store_blueprint(tab.editor.document.snapshot(), "Mine", "general")
    )
    assert saved is not None and saved.is_blueprint
    assert readers.only_on_the_store_thread(
        "WorkflowRepository.create", "WorkflowRepository.save_blueprint"
    )
    workspace.close()


def test_a_run_is_drawn_and_the_latest_found_from_the_store_thread(
    qtbot, tmp_path: Path, readers: Readers
) -> None:
    workspace = Workspace()
    workflow = echo(workspace, tmp_path)
    record = execute(workspace, workflow, {"message": "drawn"})
    window = open_window(qtbot, workspace)
    canvas = window.workflows.run_canvas
    readers.watch(workspace.executions, "get", "node_ids", "events", "find", "node_output")
    with store_thread_busy():
        showing, seconds = timed(lambda: canvas.show_execution(record.execution_id))
        assert seconds < QUICK and not showing.done()
    overlay = answer(qtbot, showing)
    assert overlay is not None and overlay.execution_id == record.execution_id
    assert answer(qtbot, canvas.latest_execution(lambda latest: latest)) == record.execution_id
    canvas._node_output(record.execution_id, "a")
    qtbot.waitUntil(lambda: canvas._node_output(record.execution_id, "a") == {"message": "drawn"})
    assert readers.only_on_the_store_thread(
        "ExecutionRepository.get",
        "ExecutionRepository.events",
        "ExecutionRepository.find",
        "ExecutionRepository.node_output",
    )
    workspace.close()


def test_a_run_that_cannot_be_read_is_a_problem_the_person_reads(qtbot) -> None:
    workspace = Workspace()
    window = open_window(qtbot, workspace)
    assert answer(qtbot, window.workflows.run_canvas.show_execution("no-such-run")) is None
    box = window.findChild(QMessageBox, "runProblem")
    assert box is not None and "not found" in box.text().lower()
    workspace.close()


def test_the_run_dialog_reads_the_workflow_and_last_input_on_the_store_thread(
    qtbot, tmp_path: Path, readers: Readers
) -> None:
    workspace = Workspace()
    workflow = echo(workspace, tmp_path)
    execute(workspace, workflow, {"message": "last time"})
    window = open_window(qtbot, workspace)
    answer(qtbot, window.workflows.tabs.open(workflow.id))
    readers.watch(workspace.workflows, "get")
    readers.watch(workspace.executions, "find")
    with store_thread_busy():
        asking, seconds = timed(window.workflows.run_actions.run_current)
        assert seconds < QUICK and not asking.done()
    dialog = answer(qtbot, asking)
    assert dialog is not None and dialog.isVisible()
    assert "last time" in dialog.editor.toPlainText()
    dialog.reject()
    assert readers.only_on_the_store_thread("WorkflowRepository.get", "ExecutionRepository.find")
    workspace.close()


def test_runs_shown_and_named_for_the_status_bar_are_read_on_the_store_thread(
    qtbot, tmp_path: Path, readers: Readers
) -> None:
    workspace = Workspace()
    workflow = echo(workspace, tmp_path)
    stopped = interrupted_run(workspace, workflow)
    window = open_window(qtbot, workspace)
    live = window.workflows.live_runs
    answer(qtbot, window.workflows.run_canvas.show_execution(stopped.execution_id))
    readers.watch(workspace.executions, "events", "find")
    readers.watch(workspace.workflows, "get")
    with store_thread_busy():
        _, seconds = timed(live.follow_stored_runs)
        assert seconds < QUICK and not live.follow_timer.isActive()  # one read at a time
        assert live._workflow_name(stopped.execution_id) == stopped.execution_id[:8]
    qtbot.waitUntil(live.follow_timer.isActive)
    qtbot.waitUntil(lambda: live._workflow_name(stopped.execution_id) == "echo")
    assert readers.only_on_the_store_thread(
        "ExecutionRepository.events", "ExecutionRepository.find", "WorkflowRepository.get"
    )
    workspace.close()


def test_the_run_docks_find_interrupted_runs_and_replay_on_the_store_thread(
    qtbot, tmp_path: Path, readers: Readers
) -> None:
    workspace = Workspace()
    workflow = echo(workspace, tmp_path)
    finished = execute(workspace, workflow, {"message": "again"})
    stopped = interrupted_run(workspace, workflow)
    window = open_window(qtbot, workspace)
    docks = window.workflows.run_docks
    readers.watch(workspace.executions, "find", "get", "events")
    with store_thread_busy():
        announcing, seconds = timed(docks.announce_interrupted_runs)
        assert seconds < QUICK and not announcing.done()
        replaying, seconds = timed(lambda: docks.replay(finished.execution_id))
        assert seconds < QUICK and not replaying.done()
    assert answer(qtbot, announcing) == [stopped.execution_id]
    bar = answer(qtbot, replaying)
    assert bar is not None and bar.isVisible()
    bar.close_replay()
    assert answer(qtbot, docks._follow_selection(finished.execution_id)) is not None
    assert readers.only_on_the_store_thread(
        "ExecutionRepository.find", "ExecutionRepository.get", "ExecutionRepository.events"
    )
    workspace.close()


def test_a_run_started_from_the_window_is_read_for_its_canvas_on_the_store_thread(
    qtbot, tmp_path: Path, readers: Readers
) -> None:
    workspace = Workspace()
    workflow = echo(workspace, tmp_path)
    window = open_window(qtbot, workspace)
    tab = answer(qtbot, window.workflows.tabs.open(workflow.id))
    readers.watch(workspace.executions, "node_ids", "events")
    runs = window.workflows.runs

    record = runs.start(workflow.id, {"message": "hi"}).result(timeout=10)
    qtbot.waitUntil(lambda: not runs.is_driving(record.execution_id), timeout=20000)
    qtbot.waitUntil(
        lambda: tab.overlay is not None and tab.overlay.view is not None
        and tab.overlay.view.is_finished,
        timeout=20000,
    )  # fmt: skip

    assert tab.overlay.execution_id == record.execution_id
    assert tab.overlay.view.status == "completed"
    assert readers.only_on_the_store_thread(
        "ExecutionRepository.node_ids", "ExecutionRepository.events"
    )
    workspace.close()


def test_two_runs_are_compared_from_what_the_store_thread_read(
    qtbot, tmp_path: Path, readers: Readers
) -> None:
    workspace = Workspace()
    workflow = echo(workspace, tmp_path)
    first, second = (execute(workspace, workflow, {"n": n}).execution_id for n in (1, 2))
    window = open_window(qtbot, workspace)
    readers.watch(workspace.executions, "get")
    readers.watch(workspace.workflows, "get", "get_version")
    with store_thread_busy():
        view, seconds = timed(lambda: window.workflows.run_docks.compare(first, second))
        assert seconds < QUICK and view.comparison is None
    qtbot.waitUntil(lambda: view.comparison is not None)
    assert "two runs compared" in view.heading.text()
    assert readers.only_on_the_store_thread(
        "ExecutionRepository.get", "WorkflowRepository.get", "WorkflowRepository.get_version"
    )
    workspace.close()


def test_the_workflow_lists_are_read_on_the_store_thread(qtbot, readers: Readers) -> None:
    workspace = Workspace()
    window = open_window(qtbot, workspace)
    workspace.workflows.create(Workflow(name="Listed later"))
    readers.watch(workspace.workflows, "find")
    listing = window.workflows.lists
    with store_thread_busy():
        refreshing, seconds = timed(listing.refresh)
        assert seconds < QUICK and not refreshing.done()
    answer(qtbot, refreshing)
    shown = listing.panel.workflows
    assert any("Listed later" in shown.item(row).text() for row in range(shown.count()))
    assert readers.only_on_the_store_thread("WorkflowRepository.find")
    workspace.close()
