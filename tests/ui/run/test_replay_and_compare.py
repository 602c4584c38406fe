"""Replaying a stored run on the canvas and comparing two runs, driven as a person would."""

import asyncio
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import yaml
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QStyle, QStyleOptionSlider

from studio.model import Workflow
from studio.model.execution import ExecutionEvent
from studio.model.run_view import RunView
from studio.ui.run.compare_view import CompareView
from studio.ui.run.replay_bar import ReplayBar, ReplayLog, playback_delays
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace
from tests.ui.answers import answer
from tests.ui.run.window_runs import open_window

REPO_ROOT = Path(__file__).resolve().parents[3]
ECHO_DEMO = REPO_ROOT / "blueprints" / "echo-demo-workflow.yaml"
PICKY = (
    'input=$(cat); case "$input" in *fail*) '
    'echo \'{"errorType": "Refused", "message": "input asks to fail"}\' >&2; exit 1;; esac; '
    'echo "$input"'
)
FLAKY = (
    'n=$(cat "{counter}" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "{counter}"; '
    'if [ "$n" -le 2 ]; then '
    'echo "{{\\"errorType\\": \\"Transient\\", \\"message\\": \\"attempt $n failed\\"}}" >&2; '
    "exit 1; fi; cat"
)


def write_yaml(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    """A workspace whose ``--agents`` folder holds a picky and a flaky shell agent."""
    scripts = {"picky-agent": PICKY, "flaky-agent": FLAKY.format(counter=tmp_path / "n.txt")}
    for agent_id, script in scripts.items():
        data = {"id": agent_id, "name": agent_id, "kind": "shell"}
        data["settings"] = {"argv": ["sh", "-c", script]}
        write_yaml(tmp_path / "agents" / f"{agent_id}.yaml", data)
    workspace = Workspace(agent_dirs=[tmp_path / "agents"])
    yield workspace
    workspace.close()


def execute(workspace: Workspace, workflow: Workflow, execution_input: Any) -> str:
    record = asyncio.run(workspace.runner().execute(workflow.id, execution_input))
    return record.execution_id


def picky_flow(workspace: Workspace, tmp_path: Path) -> Workflow:
    """Prepare (echo) → Flaky (fails twice, ever) → Check (fails on "fail") → Finish (echo)."""
    retry = {"maxRetries": 3, "backoffBase": 0.01, "backoffMax": 0.02}
    retry["retryableErrors"] = ["Transient"]
    nodes = [
        {"id": "prepare", "name": "Prepare", "agentId": "demo-echo-agent"},
        {"id": "flaky", "name": "Flaky", "agentId": "flaky-agent", "retryPolicy": retry},
        {"id": "check", "name": "Check", "agentId": "picky-agent"},
        {"id": "finish", "name": "Finish", "agentId": "demo-echo-agent"},
    ]
    for column, node in enumerate(nodes):
        node["position"] = {"x": 280 * column, "y": 0}
    edges = [{"source": a["id"], "target": b["id"]} for a, b in pairwise(nodes)]
    data = {"name": "Picky flow", "nodes": nodes, "edges": edges}
    return workspace.import_and_publish(write_yaml(tmp_path / "picky.yaml", data))


@pytest.fixture
def window(qtbot, workspace: Workspace) -> MainWindow:
    window = open_window(qtbot, workspace)
    yield window
    window.workflows.runs.shutdown()


# What the canvas should say, worked out from the stored events alone --------------------

EXPECTED = {
    "node.started": "Running",
    "node.completed": "Completed",
    "node.failed": "Failed",
    "node.retrying": "attempt ",
    "node.skipped": "Skipped",
    "node.cancelled": "Cancelled",
}


def expected_badges(events: list[ExecutionEvent], node_ids: list[str], k: int) -> dict[str, str]:
    """Each node's first badge line after the first ``k`` events (a prefix for retries)."""
    texts = dict.fromkeys(node_ids, "Pending")
    started: dict[str, datetime] = {}
    for event in events[:k]:
        if event.node_id not in texts or event.type not in EXPECTED:
            continue
        text = EXPECTED[event.type]
        started.setdefault(event.node_id, event.created_at)
        if event.type == "node.completed":
            took = (event.created_at - started[event.node_id]).total_seconds()
            text += f" · {took * 1000:.0f} ms" if took < 1 else f" · {took:.1f} s"
        texts[event.node_id] = text
    return texts


def badge_texts(overlay) -> dict[str, str]:
    return {node_id: badge.lines[0][0] for node_id, badge in overlay.badges.items()}


def assert_canvas_at(bar: ReplayBar, overlay, events, node_ids, k: int) -> None:
    assert bar.position == k
    shown, expected = badge_texts(overlay), expected_badges(events, node_ids, k)
    for node_id in node_ids:
        assert shown[node_id].startswith(expected[node_id]), (k, shown, expected)


def replay(qtbot, window: MainWindow, execution_id: str) -> tuple[ReplayBar, Any, list, list[str]]:
    overlay = answer(qtbot, window.workflows.run_canvas.show_execution(execution_id))
    node_ids = list(window.workflows.run_canvas.run_view(execution_id).nodes)
    events = window.workspace.executions.events(execution_id)
    bar = ReplayBar()
    window.workflows.tabs.current().layout().addWidget(
        bar
    )  # under the canvas, as the window places it
    bar.load(execution_id, node_ids, events, overlay)
    return bar, overlay, events, node_ids


def slider_x(bar: ReplayBar, value: int) -> QPoint:
    """Where the slider's handle centre is when it stands at ``value``."""
    option = QStyleOptionSlider()
    bar.slider.initStyleOption(option)
    option.sliderPosition = option.sliderValue = value
    style = bar.slider.style()
    handle = style.subControlRect(
        QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderHandle, bar.slider
    )
    return handle.center()


# Replay -----------------------------------------------------------------------------------


def test_stepping_through_the_echo_demo_shows_each_stored_moment(qtbot, window) -> None:
    workflow = window.workspace.import_and_publish(ECHO_DEMO)
    execution_id = execute(window.workspace, workflow, {"message": "hi"})
    bar, overlay, events, node_ids = replay(qtbot, window, execution_id)
    moments: list[int] = []
    bar.momentChanged.connect(moments.append)

    assert_canvas_at(bar, overlay, events, node_ids, len(events))  # opens at the run's end
    bar.slider.setFocus()
    qtbot.keyClick(bar.slider, Qt.Key.Key_Home)
    assert_canvas_at(bar, overlay, events, node_ids, 0)
    assert set(badge_texts(overlay).values()) == {"Pending"}
    assert "before the run started" in bar.moment_label.text()
    for k in range(1, len(events) + 1):
        qtbot.keyClick(bar.slider, Qt.Key.Key_Right)
        assert_canvas_at(bar, overlay, events, node_ids, k)
        event = events[k - 1]
        assert bar.moment_label.text().startswith(f"Event {k} of {len(events)} · ")
        assert bar.moment_label.text().endswith(f"{event.type} {event.node_id or ''}".strip())
        assert overlay.frozen_now == event.created_at  # countdowns stand still in a replay
    assert moments == list(range(len(events) + 1))
    qtbot.keyClick(bar.slider, Qt.Key.Key_Left)
    assert_canvas_at(bar, overlay, events, node_ids, len(events) - 1)
    qtbot.mouseClick(bar.start_button, Qt.MouseButton.LeftButton)
    assert bar.position == 0
    qtbot.mouseClick(bar.forward_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(bar.forward_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(bar.back_button, Qt.MouseButton.LeftButton)
    assert_canvas_at(bar, overlay, events, node_ids, 1)
    qtbot.mouseClick(bar.end_button, Qt.MouseButton.LeftButton)
    assert_canvas_at(bar, overlay, events, node_ids, len(events))


def test_dragging_the_slider_scrubs_and_a_replayed_moment_ignores_later_events(
    qtbot, window
) -> None:
    workflow = window.workspace.import_and_publish(ECHO_DEMO)
    execution_id = execute(window.workspace, workflow, {"message": "hi"})
    bar, overlay, events, node_ids = replay(qtbot, window, execution_id)
    qtbot.waitExposed(bar)
    middle = next(i for i, e in enumerate(events, 1) if e.type == "node.started")
    qtbot.mousePress(bar.slider, Qt.MouseButton.LeftButton, pos=slider_x(bar, len(events)))
    qtbot.mouseMove(bar.slider, slider_x(bar, middle))
    qtbot.mouseRelease(bar.slider, Qt.MouseButton.LeftButton, pos=slider_x(bar, middle))
    assert_canvas_at(bar, overlay, events, node_ids, middle)
    assert "Running" in badge_texts(overlay).values()

    # The window's follower hands stored events to the overlay of an unfinished view; a
    # replayed moment must stay where the person put it.
    before = badge_texts(overlay)
    for event in events[middle:]:
        overlay.apply(event)
    overlay.flush()
    assert badge_texts(overlay) == before


def test_play_pause_heat_map_and_close(qtbot, window, tmp_path) -> None:
    workflow = picky_flow(window.workspace, tmp_path)
    execution_id = execute(window.workspace, workflow, {"message": "hello"})
    bar, overlay, events, node_ids = replay(qtbot, window, execution_id)
    seen: list[int] = []
    bar.momentChanged.connect(seen.append)
    bar.speed.setCurrentIndex(2)  # 4×
    bar.slider.setFocus()
    qtbot.keyClick(bar.slider, Qt.Key.Key_Space)  # at the end, Play starts over
    assert bar.is_playing and bar.play_button.text() == "Pause"
    qtbot.waitUntil(lambda: bar.position >= 3, timeout=5000)
    qtbot.keyClick(bar.slider, Qt.Key.Key_Space)
    assert not bar.is_playing and bar.play_button.text() == "Play"
    paused_at = bar.position
    qtbot.wait(300)
    assert bar.position == paused_at
    qtbot.mouseClick(bar.play_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not bar.is_playing, timeout=10_000)
    assert bar.position == len(events)
    assert seen == list(range(len(events) + 1))  # every moment, in order, none skipped
    assert_canvas_at(bar, overlay, events, node_ids, len(events))
    flaky = badge_texts(overlay)["flaky"]
    assert flaky.startswith("Completed"), flaky

    qtbot.mouseClick(bar.heat_button, Qt.MouseButton.LeftButton)
    assert all(overlay.badges[n].heat is not None for n in node_ids)
    qtbot.keyClick(bar.slider, Qt.Key.Key_Home)  # the tint stays while scrubbing
    assert all(overlay.badges[n].heat is not None for n in node_ids)
    qtbot.mouseClick(bar.heat_button, Qt.MouseButton.LeftButton)
    assert all(overlay.badges[n].heat is None for n in node_ids)

    with qtbot.waitSignal(bar.closed, timeout=1000):
        qtbot.mouseClick(bar.close_button, Qt.MouseButton.LeftButton)
    assert not overlay.is_shown and overlay.badges == {}
    assert not bar.isVisible()


def test_the_replay_picture(qtbot, window, tmp_path) -> None:
    workflow = picky_flow(window.workspace, tmp_path)
    execution_id = execute(window.workspace, workflow, {"message": "hello"})
    bar, overlay, events, node_ids = replay(qtbot, window, execution_id)
    retrying = next(i for i, e in enumerate(events, 1) if e.type == "node.retrying")
    bar.seek(retrying + 1)
    bar.heat_button.setChecked(True)
    assert_canvas_at(bar, overlay, events, node_ids, retrying + 1)
    assert badge_texts(overlay)["flaky"] == "Running · attempt 2"
    assert all(overlay.badges[n].heat is not None for n in node_ids)
    window.workflows.tabs.current().editor.view.fit_all()
    qtbot.wait(50)
    assert window.grab().save(str(tmp_path / "replay.png"))


# The checkpoint cache ----------------------------------------------------------------------


def synthetic_log(nodes: int, per_node: int) -> tuple[list[str], list[ExecutionEvent]]:
    """A long log: each node retried many times before completing."""
    t0 = datetime(2025, 1, 25, 13, 0, tzinfo=UTC)
    node_ids = [f"n{i}" for i in range(nodes)]
    kinds = [("execution.started", None, {})]
    for node_id in node_ids:
        for attempt in range(1, per_node // 2):
            kinds.append(("node.started", node_id, {"attempt": attempt}))
            kinds.append(("node.retrying", node_id, {"delay": 1, "error": {"type": "T"}}))
        kinds.append(("node.started", node_id, {}))
        kinds.append(("node.completed", node_id, {"items": 1}))
    kinds.append(("execution.completed", None, {}))
    events = [
        ExecutionEvent("x", seq, kind, node_id, payload, t0 + timedelta(milliseconds=seq))
        for seq, (kind, node_id, payload) in enumerate(kinds, start=1)
    ]
    return node_ids, events


def test_folding_from_checkpoints_equals_folding_from_the_start() -> None:
    node_ids, events = synthetic_log(50, 100)
    assert len(events) >= 5000
    log = ReplayLog("x", node_ids, events)
    for k in [0, 1, 49, 50, 51, 2499, 2500, len(events) - 1, len(events), 3333, 17]:
        whole = RunView.folded("x", node_ids, events, until_seq=k)
        cached = log.view_at(k)
        assert (cached.nodes, cached.status, cached.last_seq) == (
            whole.nodes,
            whole.status,
            whole.last_seq,
        )
    # A replayed view is a copy: taking it apart does not touch the cache.
    log.view_at(120).nodes.clear()
    assert log.view_at(120).nodes


def test_playback_follows_the_runs_pace_within_ten_seconds() -> None:
    t0 = datetime(2025, 1, 25, 13, 0, tzinfo=UTC)
    quick = [t0 + timedelta(milliseconds=ms) for ms in (0, 1, 2, 500)]
    assert playback_delays(quick) == [0.15, 0.15, 0.15, 0.498]
    long = [t0 + timedelta(seconds=s) for s in (0, 30, 31, 91)]
    waits = playback_delays(long)
    assert sum(waits) == pytest.approx(10.0)
    assert waits[1] == pytest.approx(waits[3] / 2)  # the pace is kept, only scaled
    assert playback_delays([]) == []


# Compare ----------------------------------------------------------------------------------


def test_comparing_a_good_run_with_a_failed_one(qtbot, workspace, tmp_path) -> None:
    workflow = picky_flow(workspace, tmp_path)
    good = execute(workspace, workflow, {"message": "hello"})
    bad = execute(workspace, workflow, {"message": "please fail"})
    view = CompareView(workspace)
    qtbot.addWidget(view)
    view.resize(1000, 640)
    view.show()
    comparison = answer(qtbot, view.compare(good, bad))
    table = view.table
    assert table.rowCount() == 4
    rows = {table.item(r, 0).text(): [table.item(r, c).text() for c in range(7)] for r in range(4)}
    assert rows["Prepare"][1:3] == ["Completed", "Completed"]
    assert rows["Prepare"][6] == "Δ output"
    assert rows["Flaky"][5] == "3 → 1"  # it failed twice in the first run only
    assert "attempts" in rows["Flaky"][6]
    assert rows["Check"][1:3] == ["Completed", "Failed: Refused"]
    assert rows["Finish"][1:3] == ["Completed", "Failed: UpstreamFailed"]
    assert rows["Check"][6].startswith("Δ status")
    assert all(row[6] == "" or row[6].startswith("Δ ") for row in rows.values())
    assert view.headers[0].status.text() == "Completed"
    assert view.headers[1].status.text() == "Failed"
    assert good[:8] in view.headers[0].title.text()
    assert "different input" in view.heading.text()
    assert comparison.right.status == "failed"

    # Selecting a changed row shows both outputs as JSON.
    row = list(rows).index("Prepare")
    qtbot.mouseClick(
        table.viewport(),
        Qt.MouseButton.LeftButton,
        pos=table.visualItemRect(table.item(row, 0)).center(),
    )
    assert '"message": "hello"' in view.outputs[0].toPlainText()
    assert '"message": "please fail"' in view.outputs[1].toPlainText()
    assert "they differ" in view.outputs_caption.text()
    row = list(rows).index("Check")
    qtbot.mouseClick(
        table.viewport(),
        Qt.MouseButton.LeftButton,
        pos=table.visualItemRect(table.item(row, 0)).center(),
    )
    assert '"type": "Refused"' in view.outputs[1].toPlainText()  # no output: the error instead
    view.resize(1000, 640)
    qtbot.wait(50)
    assert view.grab().save(str(tmp_path / "compare.png"))


def test_only_changed_hides_the_rows_that_did_the_same(qtbot, workspace) -> None:
    workflow = workspace.import_and_publish(ECHO_DEMO)
    first = execute(workspace, workflow, {"message": "same"})
    second = execute(workspace, workflow, {"message": "same"})
    view = CompareView(workspace)
    qtbot.addWidget(view)
    view.show()
    answer(qtbot, view.compare(first, second))
    # Durations of an echo are a few ms, far under the 50 ms that counts as a change.
    assert view.summary.text() == "0 of 2 nodes changed"
    qtbot.mouseClick(view.only_changed, Qt.MouseButton.LeftButton)
    assert view.only_changed.isChecked()
    assert all(view.table.isRowHidden(r) for r in range(view.table.rowCount()))
    third = execute(workspace, workflow, {"message": "other"})
    answer(qtbot, view.compare(first, third))
    assert view.summary.text() == "2 of 2 nodes changed"
    assert not any(view.table.isRowHidden(r) for r in range(view.table.rowCount()))
    qtbot.mouseClick(view.only_changed, Qt.MouseButton.LeftButton)
    assert not any(view.table.isRowHidden(r) for r in range(view.table.rowCount()))


def test_runs_of_different_workflows_are_refused_with_a_message(qtbot, workspace, tmp_path) -> None:
    echo = workspace.import_and_publish(ECHO_DEMO)
    picky = picky_flow(workspace, tmp_path)
    first = execute(workspace, echo, {"message": "hi"})
    second = execute(workspace, picky, {"message": "hi"})
    view = CompareView(workspace)
    qtbot.addWidget(view)
    view.show()
    assert answer(qtbot, view.compare(first, second)) is None
    assert view.message.isVisible()
    assert view.message.text() == (
        "These runs are of different workflows: 'Echo Demo Workflow' and 'Picky flow'. "
        "Pick two runs of one workflow."
    )
    assert view.table.rowCount() == 0
    assert answer(qtbot, view.compare(first, "no-such-run")) is None
    assert "not found" in view.message.text()
