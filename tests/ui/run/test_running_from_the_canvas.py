"""Issue acceptance: the Echo Demo runs from the canvas; every node is seen going from running
to completed on the overlay, the overlay fades after the run, and the run stays one click away."""

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QGraphicsSceneHoverEvent

from studio.ui.run import overlay as overlay_module
from studio.ui.run.overlay import NodeBadge
from studio.workspace import Workspace
from tests.ui.answers import answer_on
from tests.ui.run.run_loop import act, run_loop, until  # noqa: F401
from tests.ui.run.window_runs import open_window

ECHO_DEMO = Path(__file__).resolve().parents[3] / "blueprints" / "echo-demo-workflow.yaml"


@pytest.fixture
def window(qtbot, run_loop):  # noqa: F811
    window = open_window(qtbot, Workspace())
    yield window
    window.workflows.runs.shutdown()


def badge_texts(tab) -> dict[str, str]:
    """What each node's badge says right now (its first line)."""
    overlay = tab.overlay
    return {
        node_id: badge.lines[0][0]
        for node_id, badge in (overlay.badges.items() if overlay else ())
        if badge.lines
    }


def test_echo_demo_runs_from_the_canvas(qtbot, window, run_loop, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setattr(overlay_module, "FADE_AFTER_MS", 400)
    workflow = window.workspace.import_and_publish(ECHO_DEMO)
    tab = answer_on(run_loop, window.workflows.tabs.open(workflow.id))
    seen: dict[str, list[str]] = {node.id: [] for node in workflow.nodes}

    def watch(_event) -> None:
        if tab.overlay is not None:
            tab.overlay.flush()  # as if each event were drawn the moment it arrived
        for node_id, text in badge_texts(tab).items():
            if not seen[node_id] or seen[node_id][-1] != text:
                seen[node_id].append(text)

    window.workflows.runs.eventArrived.connect(watch)
    qtbot.keyClick(tab.editor.view, Qt.Key.Key_F5)
    dialog = until(run_loop, lambda: window.workflows.run_actions.input_dialog)
    assert dialog.isVisible()
    dialog.editor.selectAll()
    qtbot.keyClicks(dialog.editor, '{"message": "hello from the canvas"}')
    act(run_loop, qtbot.mouseClick, dialog.run_button, Qt.MouseButton.LeftButton)

    until(run_loop, lambda: "Completed" in window.workflows.live_runs.progress.label.text())
    for node in workflow.nodes:
        states = [text.split(" · ")[0] for text in seen[node.id]]
        assert "Running" in states, seen
        assert states[-1] == "Completed", seen
        assert states.index("Running") < states.index("Completed")
    record = window.workspace.executions.find(workflow_id=workflow.id)[0]
    assert record.status == "completed"
    assert record.output == {"message": "hello from the canvas"}
    # The edge carried one item.
    (flow,) = tab.overlay.flows.values()
    assert flow.label.text.text() == "1 item"
    # Hovering the label previews what went through the edge.
    hover = QGraphicsSceneHoverEvent(QEvent.Type.GraphicsSceneHoverEnter)
    flow.label.hoverEnterEvent(hover)
    until(run_loop, lambda: "hello from the canvas" in flow.label.toolTip())

    # Still shown right after the run; gone after the fade; one click brings it back.
    assert tab.overlay.is_shown
    until(run_loop, lambda: not tab.overlay.is_shown, timeout=5)
    badges = [i for i in tab.editor.scene.items() if isinstance(i, NodeBadge)]
    assert badges == []
    assert window.workflows.live_runs.progress.show_button.isVisible()
    qtbot.mouseClick(window.workflows.live_runs.progress.show_button, Qt.MouseButton.LeftButton)
    until(run_loop, lambda: tab.overlay.is_shown)  # read from the store, then drawn
    assert tab.overlay.execution_id == record.execution_id
    assert all(text.startswith("Completed") for text in badge_texts(tab).values())

    # And the run is in the history of the workflow, newest first.
    history = window.workflows.run_docks.history
    until(run_loop, lambda: history.tree.run_count() == 1)
    row = history.tree.item_for(record.execution_id)
    assert row.text(0) == "Completed"
    assert history.tree.current_id() in (None, record.execution_id)


def test_a_draft_cannot_run_and_says_why(qtbot, window, run_loop) -> None:  # noqa: F811
    tab = answer_on(run_loop, window.workflows.files.new_workflow())
    qtbot.keyClick(tab.editor.view, Qt.Key.Key_F5)
    box = until(run_loop, lambda: window.findChild(object, "runProblem"))
    assert "Only published workflows can be executed" in box.text()
    assert window.workflows.run_actions.input_dialog is None


def test_run_from_here_reuses_the_first_node_and_reruns_the_second(
    qtbot,
    window,
    run_loop,  # noqa: F811
) -> None:
    workflow = window.workspace.import_and_publish(ECHO_DEMO)
    tab = answer_on(run_loop, window.workflows.tabs.open(workflow.id))
    first = window.workflows.runs.start(workflow.id, {"message": "once"}).result(10)
    until(run_loop, lambda: not window.workflows.runs.is_driving(first.execution_id))

    tab.editor.scene.select_only(["echo-back"])
    act(
        run_loop,
        qtbot.keyClick,
        tab.editor.view,
        Qt.Key.Key_F5,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    until(run_loop, lambda: len(window.workspace.executions.find(workflow_id=workflow.id)) == 2)
    second = window.workspace.executions.find(workflow_id=workflow.id)[0]
    until(run_loop, lambda: tab.overlay.execution_id == second.execution_id)  # it is announced
    until(run_loop, lambda: not window.workflows.runs.is_driving(second.execution_id))
    assert tab.overlay.execution_id == second.execution_id
    texts = badge_texts(tab)
    assert texts["say-hello"].endswith("· reused")
    assert texts["echo-back"].startswith("Completed") and "reused" not in texts["echo-back"]
    record = window.workspace.executions.get(second.execution_id)
    assert record.status == "completed" and record.output == {"message": "once"}


def test_cancel_stops_the_run_shown_on_the_canvas(qtbot, window, run_loop, tmp_path) -> None:  # noqa: F811
    from tests.ui.run.history_scenarios import chain, publish

    data = chain(
        "slow",
        {"id": "wait", "name": "Wait", "agentId": "sleepy"},
        {"id": "after", "name": "After", "agentId": "demo-echo-agent"},
    )
    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / "sleepy.yaml").write_text(
        "id: sleepy\nname: Sleepy\nkind: shell\nsettings:\n  argv: [sleep, '30']\n"
    )
    workspace = Workspace(agent_dirs=[agents])
    window = open_window(qtbot, workspace)
    workflow = publish(workspace, tmp_path, data)
    tab = answer_on(run_loop, window.workflows.tabs.open(workflow.id))
    record = window.workflows.runs.start(workflow.id, None).result(timeout=10)
    until(run_loop, lambda: badge_texts(tab).get("wait", "").startswith("Running"))
    act(run_loop, qtbot.keyClick, tab.editor.view, Qt.Key.Key_F5, Qt.KeyboardModifier.ShiftModifier)
    until(run_loop, lambda: not window.workflows.runs.is_driving(record.execution_id), timeout=10)
    assert window.workspace.executions.get(record.execution_id).status == "cancelled"
    assert badge_texts(tab)["wait"] == "Cancelled"
    window.workflows.runs.shutdown()


def test_replay_and_compare_open_from_the_runs_panel(qtbot, window, run_loop) -> None:  # noqa: F811
    workflow = window.workspace.import_and_publish(ECHO_DEMO)
    tab = answer_on(run_loop, window.workflows.tabs.open(workflow.id))
    for message in ("one", "two"):
        record = window.workflows.runs.start(workflow.id, {"message": message}).result(10)
        until(run_loop, lambda r=record: not window.workflows.runs.is_driving(r.execution_id))
    history = window.workflows.run_docks.history
    until(run_loop, lambda: history.tree.run_count() == 2)

    history.select_execution(record.execution_id)
    qtbot.mouseClick(history.findChild(object, "replayButton"), Qt.MouseButton.LeftButton)
    bar = tab.replay_bar
    until(run_loop, bar.isVisible)
    qtbot.keyClick(bar.slider, Qt.Key.Key_Home)
    assert set(badge_texts(tab).values()) == {"Pending"}
    qtbot.keyClick(bar.slider, Qt.Key.Key_End)
    assert all(t.startswith("Completed") for t in badge_texts(tab).values())
    qtbot.mouseClick(bar.close_button, Qt.MouseButton.LeftButton)
    assert not bar.isVisible() and not tab.overlay.is_shown

    history.tree.selectAll()
    qtbot.mouseClick(history.findChild(object, "compareButton"), Qt.MouseButton.LeftButton)
    (compare,) = window.workflows.run_docks.compare_windows
    until(run_loop, lambda: compare.comparison is not None)
    table = compare.findChild(object, "compareTable")
    changed = [table.item(row, 6).text() for row in range(table.rowCount())]
    assert any("output" in text for text in changed)
    compare.close()


def test_deleting_a_node_during_a_run_and_undoing_keeps_the_overlay_working(
    qtbot,
    window,
    run_loop,  # noqa: F811
    tmp_path,
) -> None:
    from tests.ui.run.history_scenarios import chain, publish

    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / "pause.yaml").write_text(
        "id: pause\nname: Pause\nkind: shell\nsettings:\n  argv: [sh, -c, 'sleep 0.6; cat']\n"
    )
    workspace = Workspace(agent_dirs=[agents])
    window = open_window(qtbot, workspace)
    workflow = publish(
        workspace,
        tmp_path,
        chain(
            "edited while running",
            {"id": "first", "name": "First", "agentId": "pause"},
            {"id": "second", "name": "Second", "agentId": "pause"},
        ),
    )
    tab = answer_on(run_loop, window.workflows.tabs.open(workflow.id))
    record = window.workflows.runs.start(workflow.id, {"n": 1}).result(timeout=10)
    until(run_loop, lambda: badge_texts(tab).get("first", "").startswith("Running"))
    tab.editor.scene.select_only(["first"])
    tab.editor.delete_selection()  # the node and its edge leave the canvas mid-run
    until(run_loop, lambda: badge_texts(tab).get("second", "").startswith("Running"))
    tab.editor.undo_stack.undo()  # and come back
    until(run_loop, lambda: not window.workflows.runs.is_driving(record.execution_id))
    texts = badge_texts(tab)
    assert texts["first"].startswith("Completed") and texts["second"].startswith("Completed")
    window.workflows.runs.shutdown()


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("[" * 201 + "]" * 201, "nested deeper than 200 levels"),
        ("[" * 2000 + "]" * 2000, "nested deeper than 200 levels"),
        ('{"ratio": NaN}', "numbers must be finite"),
        ('{"a": ', "Not JSON: line 1"),
    ],
)
def test_the_run_dialog_refuses_input_over_the_limits(
    qtbot,
    window,
    run_loop,  # noqa: F811
    typed: str,
    said: str,
) -> None:
    workflow = window.workspace.import_and_publish(ECHO_DEMO)
    tab = answer_on(run_loop, window.workflows.tabs.open(workflow.id))
    qtbot.keyClick(tab.editor.view, Qt.Key.Key_F5)
    dialog = until(run_loop, lambda: window.workflows.run_actions.input_dialog)
    dialog.editor.selectAll()
    qtbot.keyClicks(dialog.editor, typed)
    assert not dialog.run_button.isEnabled()
    assert said in dialog.problem.text()
    qtbot.keyClick(dialog.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert dialog.isVisible()
    assert window.workspace.executions.find() == []
    dialog.reject()
