"""A failure reads as one failure: the node that failed is what the eye finds first, with its
error; the nodes after it, which the engine never ran, read "Not run · upstream failed",
faded, on the canvas and in the Steps table alike."""

from pathlib import Path

import pytest

from studio.model.run_words import status_words
from studio.ui.run.execution_rows import step_item
from studio.workspace import Workspace
from tests.ui.answers import answer
from tests.ui.run.history_scenarios import chain, execute, publish, workspace_with_agents
from tests.ui.run.window_runs import badge_lines, open_window

NOT_RUN = "Not run · upstream failed"


@pytest.fixture
def workspace(studio_data_dir: Path, tmp_path: Path) -> Workspace:
    workspace = workspace_with_agents(studio_data_dir, tmp_path)
    yield workspace
    workspace.close()


@pytest.fixture
def failed_run(workspace: Workspace, tmp_path: Path):
    workflow = publish(
        workspace,
        tmp_path,
        chain(
            "Fails half way",
            {"id": "start", "name": "Start", "agentId": "demo-echo-agent"},
            {"id": "boom", "name": "Blow up", "agentId": "broken-agent"},
            {"id": "after", "name": "After", "agentId": "demo-echo-agent"},
            {"id": "last", "name": "Last", "agentId": "demo-echo-agent"},
        ),
    )
    record = execute(workspace, workflow, {"go": 1})
    assert record.status == "failed"
    return record


def test_the_canvas_tells_the_failed_node_from_those_not_run(qtbot, workspace, failed_run) -> None:
    window = open_window(qtbot, workspace)
    answer(qtbot, window.workflows.show_run(failed_run.execution_id))
    scene = window.workflows.tabs.current().editor.scene

    failed = badge_lines(window, "boom")[0]
    assert failed.startswith("Failed: ") and "something broke" in failed
    for node_id in ("after", "last"):
        assert badge_lines(window, node_id) == [NOT_RUN]
        assert scene.node_items[node_id].opacity() < 0.5  # faded
    assert scene.node_items["boom"].opacity() == 1.0
    assert scene.node_items["boom"].zValue() > scene.node_items["start"].zValue()


def test_the_steps_table_uses_the_same_words(qtbot, failed_run) -> None:
    rows = {
        node_id: step_item(node_id, result, dark=False)
        for node_id, result in failed_run.node_results.items()
    }

    assert rows["boom"].text(1) == "Failed" and rows["boom"].childCount() > 0
    for node_id in ("after", "last"):
        assert rows[node_id].text(1) == NOT_RUN
        assert rows[node_id].childCount() == 0  # no error of its own to unfold
        assert "'boom' failed" in rows[node_id].toolTip(1)
    assert status_words("upstream_failed") == NOT_RUN
