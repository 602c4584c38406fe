"""Issue acceptance: killing the app during a run and opening it again shows the run as
interrupted and resumable, and Resume completes it. The node the app was running dies with it."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from studio.model.execution import RUNNING
from tests.cli_runner import REPO_ROOT
from tests.ui.answers import answer_on
from tests.ui.run.history_scenarios import chain, publish, write_yaml
from tests.ui.run.run_loop import act, run_loop, until  # noqa: F401
from tests.ui.run.window_runs import badge_lines, open_window

SLOW_ONCE = (
    'if [ -e "{marker}" ]; then cat; '
    'else touch "{marker}"; echo $$ > "{pid_file}"; exec sleep 60; fi'
)


def slow_once_agents(folder: Path, tmp_path: Path) -> Path:
    """'slow-once' sleeps a minute the first time it runs (writing its pid), then echoes."""
    script = SLOW_ONCE.format(marker=tmp_path / "ran-once", pid_file=tmp_path / "child.pid")
    agent = {"id": "slow-once", "name": "Slow once", "kind": "shell"}
    write_yaml(folder / "slow-once.yaml", agent | {"settings": {"argv": ["sh", "-c", script]}})
    return folder


def wait_for(condition, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {condition}")
        time.sleep(0.05)
    return value


def process_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:  # a zombie waiting for init
        return stat.read().rsplit(")", 1)[1].split()[0] == "Z"


def test_killed_mid_run_then_reopened_the_run_resumes_to_completion(
    qtbot,
    studio_data_dir,
    tmp_path,
    run_loop,  # noqa: F811
) -> None:
    from studio.workspace import Workspace

    agents = slow_once_agents(tmp_path / "agents", tmp_path)
    workspace = Workspace(agent_dirs=[agents])
    workflow = publish(
        workspace,
        tmp_path,
        chain(
            "overnight",
            {"id": "first", "name": "First", "agentId": "demo-echo-agent"},
            {"id": "slow", "name": "Slow step", "agentId": "slow-once"},
            {"id": "last", "name": "Last", "agentId": "demo-echo-agent"},
        ),
    )
    workspace.close()
    app = subprocess.Popen(
        [sys.executable, "-m", "tests.ui.run.app_process", str(agents), workflow.id],
        cwd=REPO_ROOT,
        env=os.environ | {"QT_QPA_PLATFORM": "offscreen"},
    )
    try:
        pid_file = tmp_path / "child.pid"
        wait_for(lambda: pid_file.exists() and pid_file.read_text().strip())
        child = int(pid_file.read_text())
    finally:
        app.send_signal(signal.SIGKILL)
        app.wait(timeout=10)
    wait_for(lambda: process_gone(child), timeout=10)  # the node died with the app

    workspace = Workspace(agent_dirs=[agents])
    (record,) = workspace.executions.find(workflow_id=workflow.id)
    assert record.status == RUNNING
    window = open_window(qtbot, workspace)
    button = until(run_loop, lambda: window.findChild(object, "interruptedRunsButton"))
    assert button.isVisible()
    assert button.text() == "1 interrupted run · Show"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    history = window.workflows.run_docks.history
    until(run_loop, lambda: history.tree.current_id() == record.execution_id)
    until(run_loop, lambda: not history.is_loading())
    assert "Interrupted" in history.tree.item_for(record.execution_id).text(0)
    resume = history.detail.findChild(object, "resumeButton")
    assert resume.isVisible() and resume.isEnabled()
    until(run_loop, lambda: badge_lines(window, "first"))  # drawn once the run is read
    assert badge_lines(window, "first")[0].startswith("Completed")
    assert badge_lines(window, "slow")[0] == "Interrupted"

    act(run_loop, qtbot.mouseClick, resume, Qt.MouseButton.LeftButton)
    until(run_loop, lambda: "Completed" in window.workflows.live_runs.progress.label.text())
    assert workspace.executions.get(record.execution_id).status == "completed"
    assert all(badge_lines(window, n)[0].startswith("Completed") for n in ("slow", "last"))
    until(run_loop, lambda: "Completed" in history.tree.item_for(record.execution_id).text(0))
    window.workflows.runs.shutdown()
    workspace.close()


def test_closing_the_window_stops_its_runs_and_leaves_them_resumable(
    qtbot,
    studio_data_dir,
    tmp_path,
    run_loop,  # noqa: F811
) -> None:
    from studio.workspace import Workspace
    from tests.ui.run.run_loop import drive

    agents = slow_once_agents(tmp_path / "agents", tmp_path)
    workspace = Workspace(agent_dirs=[agents])
    workflow = publish(
        workspace,
        tmp_path,
        chain("closing", {"id": "slow", "name": "Slow step", "agentId": "slow-once"}),
    )
    window = open_window(qtbot, workspace)
    answer_on(run_loop, window.workflows.tabs.open(workflow.id))
    record = window.workflows.runs.start(workflow.id, {"order": 2}).result(timeout=10)
    pid_file = tmp_path / "child.pid"
    until(run_loop, lambda: pid_file.exists() and pid_file.read_text().strip())
    child = int(pid_file.read_text())

    window.close()
    drive(run_loop, window.workflows.runs.stopped())

    wait_for(lambda: process_gone(child), timeout=10)  # the node's process went with the run
    stored = workspace.executions.get(record.execution_id)
    assert stored.status == RUNNING and stored.owner is None
    assert window.workflows.runs.runner.is_interrupted(stored)
    workspace.close()
