"""The session keeps the views of the last few queries, so going back to one shows it at once;
what it gives is the view the query asks for, and the nodes it keeps stay where they were."""

import threading
import weakref
from collections import Counter
from pathlib import Path

import pytest

from studio.knowledge.graph_layout import StableLayout
from studio.knowledge.graph_view import ViewQuery, view_of
from studio.ui.knowledge import graph_session
from studio.ui.knowledge.graph_session import DrawnView, GraphSession
from studio.workspace import Workspace

FIXTURE = Path(__file__).resolve().parents[2] / "knowledge" / "fixtures" / "checkout-redesign"
WAIT_MS = 10000


@pytest.fixture
def worked_out() -> Counter[ViewQuery]:
    """How many times the view of each query was worked out."""
    return Counter()


@pytest.fixture
def session(qtbot, tmp_path: Path, monkeypatch, worked_out: Counter[ViewQuery]) -> GraphSession:
    workspace = Workspace(data_dir=tmp_path / "data", database=str(tmp_path / "k.db"))
    workspace.knowledge.ingest(FIXTURE)
    session = GraphSession(workspace)
    real = graph_session.drawn_view

    def counted(history, query: ViewQuery, layout: StableLayout) -> DrawnView:
        worked_out[query] += 1
        return real(history, query, layout)

    monkeypatch.setattr(graph_session, "drawn_view", counted)
    with qtbot.waitSignal(session.viewChanged, timeout=WAIT_MS):
        session.reload()
    yield session
    session.deleteLater()
    workspace.close()


def test_going_back_to_a_moment_shows_its_view_kept(qtbot, session, worked_out) -> None:
    moments = [moment.at for moment in session.history.moments]
    for moment in (moments[-2], moments[-3]):
        with qtbot.waitSignal(session.viewChanged, timeout=WAIT_MS):
            session.change(as_of=moment)
    back = ViewQuery(subject=session.query.subject, as_of=moments[-2])

    with qtbot.waitSignal(session.viewChanged, timeout=WAIT_MS) as shown:
        session.change(as_of=moments[-2])

    assert shown.args[0].view.query == back
    assert worked_out[back] == 1  # not worked out again


def test_every_step_gives_the_view_asked_for_and_keeps_nodes_in_place(qtbot, session) -> None:
    moments = [moment.at for moment in session.history.moments]
    shown = session.current
    for moment in [*reversed(moments), *moments, None]:
        with qtbot.waitSignal(session.viewChanged, timeout=WAIT_MS) as step:
            session.change(as_of=moment)
        drawn: DrawnView = step.args[0]
        expected = view_of(session.history, session.query).projection.graph
        assert drawn.view.query == session.query
        assert list(drawn.view.projection.graph.nodes(data=True)) == list(expected.nodes(data=True))
        assert set(drawn.view.projection.graph.edges) == set(expected.edges)
        kept = set(drawn.positions) & set(shown.positions)
        assert {n: drawn.positions[n] for n in kept} == {n: shown.positions[n] for n in kept}
        shown = drawn


def test_a_history_read_again_lets_the_old_one_go_off_the_ui_thread(
    qtbot, session, monkeypatch
) -> None:
    """Freeing a big history holds the interpreter; it is taken apart on the worker, a while
    after the view of the new one came (not while it is drawn), and nothing of it stays."""
    taken_apart: list[str] = []
    real = graph_session.KnowledgeHistory.dismantle

    def recorded(history) -> None:
        if history is old():
            taken_apart.append(threading.current_thread().name)
        real(history)

    monkeypatch.setattr(graph_session.KnowledgeHistory, "dismantle", recorded)
    old = weakref.ref(session.history)

    with qtbot.waitSignal(session.viewChanged, timeout=WAIT_MS):
        session.reload()
    assert old() is not None and old().versions  # not while the new graph is being drawn

    qtbot.waitUntil(lambda: old() is None, timeout=WAIT_MS)
    assert len(taken_apart) == 1 and taken_apart[0].startswith("studio-graph")
    assert session.history.versions  # the new one is whole
    with qtbot.waitSignal(session.viewChanged, timeout=WAIT_MS) as shown:
        session.change(items=True)
    assert "REQ-1" in shown.args[0].view.projection.graph


def test_a_history_still_used_elsewhere_is_left_whole(qtbot, session) -> None:
    kept = session.history

    with qtbot.waitSignal(session.viewChanged, timeout=WAIT_MS):
        session.reload()
    qtbot.waitUntil(lambda: not session._replaced, timeout=WAIT_MS)
    session._worker.submit(lambda: None).result(timeout=10)  # the letting go has run

    assert kept is not session.history
    assert kept.versions and kept.graph(ViewQuery().options()).graph.number_of_nodes() > 0
