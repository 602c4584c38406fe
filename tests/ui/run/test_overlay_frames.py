"""A burst of run events costs the window one drawing per frame: the overlay folds each event
into its view at once and draws the nodes it touched on the next frame (or when asked to)."""

from collections import Counter
from datetime import UTC, datetime
from itertools import pairwise

import pytest

from studio.model import Workflow
from studio.model.execution import ExecutionEvent
from studio.model.run_view import RunView
from studio.ui.canvas.editor import WorkflowEditor
from studio.ui.run import overlay as overlay_module
from studio.ui.run.node_badge import NodeBadge
from studio.ui.run.overlay import RunOverlay
from studio.workspace import Workspace

ECHO = "demo-echo-agent"
NODES = [f"n{index}" for index in range(30)]
RUN = "run-1"


def chain_editor(qtbot) -> WorkflowEditor:
    """An editor on a chain n0 → n1 → … → n29, shown."""
    nodes = [
        {"id": node_id, "agentId": ECHO, "name": node_id, "position": {"x": 260.0 * i, "y": 0}}
        for i, node_id in enumerate(NODES)
    ]
    edges = [{"source": a, "target": b} for a, b in pairwise(NODES)]
    workflow = Workflow.model_validate({"name": "chain", "nodes": nodes, "edges": edges})
    editor = WorkflowEditor(workflow, Workspace().agents)
    qtbot.addWidget(editor)
    editor.resize(1000, 600)
    editor.show()
    qtbot.waitExposed(editor)
    return editor


class Events:
    """Events of one run, numbered as the store numbers them."""

    def __init__(self) -> None:
        self.seq = 0

    def __call__(self, kind: str, node_id: str | None, **payload: object) -> ExecutionEvent:
        self.seq += 1
        return ExecutionEvent(RUN, self.seq, kind, node_id, payload, datetime.now(UTC))


@pytest.fixture
def shown(qtbot):
    """An overlay drawing a run on the chain, every node pending; and the run's events."""
    editor = chain_editor(qtbot)
    overlay = RunOverlay(editor.scene, parent=editor)
    overlay.show_view(RunView.of(RUN, NODES))
    events = Events()
    overlay.apply(events("execution.started", None))
    return editor, overlay, events


@pytest.fixture
def drawn(monkeypatch) -> Counter:
    """How many times each node's badge is drawn from now on."""
    counts: Counter = Counter()
    show_node = NodeBadge.show_node

    def counted(badge: NodeBadge, view, now) -> None:
        counts[badge.node_item.node_id] += 1
        show_node(badge, view, now)

    monkeypatch.setattr(NodeBadge, "show_node", counted)
    return counts


def texts(overlay: RunOverlay) -> dict[str, str]:
    """Each badge's first line, by node id."""
    return {node_id: badge.lines[0][0] for node_id, badge in overlay.badges.items()}


def run_through(overlay: RunOverlay, events: Events, node_ids: list[str]) -> None:
    """Every node starts and completes with one item, one event at a time."""
    for node_id in node_ids:
        overlay.apply(events("node.started", node_id, attempt=1))
        overlay.apply(events("node.completed", node_id, items=1))


def test_a_burst_of_events_is_drawn_on_the_next_frame_once_per_node(qtbot, shown, drawn) -> None:
    _editor, overlay, events = shown
    run_through(overlay, events, NODES)
    assert sum(drawn.values()) == 0  # folding the events drew nothing yet
    assert set(texts(overlay).values()) == {"Pending"}

    qtbot.waitUntil(
        lambda: all(text.startswith("Completed") for text in texts(overlay).values()),
        timeout=1000,
    )
    assert drawn == Counter(dict.fromkeys(NODES, 1))
    assert len(overlay.flows) == len(NODES) - 1
    assert {flow.label.text.text() for flow in overlay.flows.values()} == {"1 item"}


def test_the_frame_comes_within_a_few_screen_refreshes(qtbot, shown) -> None:
    _editor, overlay, events = shown
    assert overlay_module.FRAME_MS <= 50
    overlay.apply(events("node.started", "n0", attempt=1))
    qtbot.waitUntil(lambda: texts(overlay)["n0"] == "Running", timeout=200)


def test_flush_draws_what_is_pending_at_once(shown, drawn) -> None:
    _editor, overlay, events = shown
    overlay.apply(events("node.started", "n0", attempt=1))
    overlay.apply(events("node.completed", "n0", items=3))
    overlay.apply(events("node.started", "n1", attempt=1))
    overlay.flush()
    assert texts(overlay)["n0"].startswith("Completed")
    assert texts(overlay)["n1"] == "Running"
    assert texts(overlay)["n2"] == "Pending"
    assert [flow.label.text.text() for flow in overlay.flows.values()] == ["3 items"]
    assert drawn == Counter({"n0": 1, "n1": 1})
    overlay.flush()  # nothing pending: nothing drawn again
    assert drawn == Counter({"n0": 1, "n1": 1})


def test_a_node_deleted_before_its_frame_is_drawn_again_after_undo(shown) -> None:
    editor, overlay, events = shown
    overlay.apply(events("node.started", "n5", attempt=1))
    editor.scene.select_only(["n5"])
    editor.delete_selection()  # the node leaves the canvas with its draw still pending
    overlay.flush()
    assert "n5" not in overlay.badges
    overlay.apply(events("node.completed", "n5", items=2))
    editor.undo_stack.undo()  # back, and drawn as the run has it now
    overlay.flush()
    assert texts(overlay)["n5"].startswith("Completed")


def test_clearing_drops_what_was_pending(shown, drawn) -> None:
    _editor, overlay, events = shown
    run_through(overlay, events, NODES[:5])
    overlay.clear()
    overlay.flush()
    assert overlay.badges == {} and overlay.flows == {}
    assert sum(drawn.values()) == 0


def test_a_whole_view_shown_replaces_what_was_pending(shown) -> None:
    _editor, overlay, events = shown
    overlay.apply(events("node.started", "n0", attempt=1))
    overlay.show_view(RunView.of(RUN, NODES))  # e.g. a replay at the run's first moment
    overlay.flush()
    assert set(texts(overlay).values()) == {"Pending"}


def test_only_running_nodes_keep_the_clock_going(qtbot, shown) -> None:
    _editor, overlay, events = shown
    overlay.apply(events("node.started", "n0", attempt=1))
    overlay.flush()
    assert overlay.ticker.isActive()
    overlay.apply(events("node.completed", "n0", items=1))
    overlay.flush()
    assert not overlay.ticker.isActive()


def test_a_live_run_is_drawn_from_its_first_moment_over_the_next_frames(qtbot, monkeypatch) -> None:
    monkeypatch.setattr(overlay_module, "FRAME_BUDGET_S", 0.0)  # one badge a frame
    editor = chain_editor(qtbot)
    overlay = RunOverlay(editor.scene, parent=editor)
    overlay.show_live(RunView.of(RUN, NODES))
    assert overlay.is_shown and overlay.badges == {}
    qtbot.waitUntil(lambda: len(overlay.badges) >= 1, timeout=1000)
    assert len(overlay.badges) < len(NODES)  # the rest wait for later frames
    qtbot.waitUntil(lambda: len(overlay.badges) == len(NODES), timeout=5000)
    assert set(texts(overlay).values()) == {"Pending"}


def test_a_new_live_run_takes_the_last_runs_marks_off_at_once(shown) -> None:
    _editor, overlay, events = shown
    run_through(overlay, events, NODES[:3])
    overlay.flush()
    assert len(overlay.flows) == 2
    overlay.show_live(RunView.of("run-2", NODES))
    assert overlay.flows == {}
    overlay.flush()
    assert set(texts(overlay).values()) == {"Pending"}


def test_a_run_that_ends_draws_a_little_left_at_once_and_much_over_frames(
    qtbot, shown, drawn, monkeypatch
) -> None:
    _editor, overlay, events = shown
    overlay.apply(events("node.started", "n0", attempt=1))
    overlay.finish()
    assert texts(overlay)["n0"] == "Running"  # drawn with the end, not a frame later

    monkeypatch.setattr(overlay_module, "FINISH_AT_ONCE", 1)  # as if the canvas were large
    drawn.clear()
    overlay.apply(events("node.completed", "n0", items=1))
    overlay.apply(events("node.started", "n1", attempt=1))
    overlay.finish()
    assert drawn == Counter()  # too much to draw at once: left to the frames
    qtbot.waitUntil(lambda: texts(overlay)["n1"] == "Running", timeout=1000)
