"""The history the knowledge view reads once answers every moment as the store's own queries do:
the heads, the graph, the difference between two moments and the coverage gaps, at each
landing moment of the checkout-redesign corpus and between them; a damaged version is left
out and named."""

import gc
import weakref
from datetime import timedelta
from pathlib import Path

import pytest

from studio.knowledge.knowledge_base import KnowledgeBase
from studio.knowledge.knowledge_history import read_history
from studio.knowledge.projection import ViewOptions
from studio.workspace import Workspace
from tests.knowledge.test_fixture_ingest import FIXTURE, SUBJECT
from tests.store.test_knowledge_integrity import raw as tamper

STORIES = f"{SUBJECT}/stories/2026-09-09-stories.md"
OLD_REQUIREMENTS = f"{SUBJECT}/requirements/2026-09-01-requirements.md"
NEW_REQUIREMENTS = f"{SUBJECT}/requirements/2026-09-08-requirements.md"
EVERY_LAYER = ViewOptions(items=True, units=True, sections=True)


@pytest.fixture
def knowledge(studio_data_dir: Path) -> KnowledgeBase:
    workspace = Workspace()
    workspace.knowledge.ingest(FIXTURE)
    yield workspace.knowledge
    workspace.close()


def test_each_landing_moment_is_listed_once_oldest_first(knowledge: KnowledgeBase) -> None:
    history = read_history(knowledge)

    times = [moment.at for moment in history.moments]
    assert times == sorted({v.front.created_at for v in knowledge.repository.versions()})
    assert len(times) == 6
    assert "Checkout requirements (revised)" in history.moments[2].label


def test_the_heads_and_the_graph_match_the_store_at_every_moment(
    knowledge: KnowledgeBase,
) -> None:
    history = read_history(knowledge)
    times = [m.at for m in history.moments]
    moments = [None, *times, *(t - timedelta(seconds=1) for t in times)]

    for as_of in moments:
        assert sorted(v.ref for v in history.heads(as_of)) == sorted(
            v.ref for v in knowledge.heads(as_of=as_of)
        ), as_of
        for options in (ViewOptions(), EVERY_LAYER, ViewOptions(items=True, subject=SUBJECT)):
            assert (
                history.graph(options, as_of).to_data() == knowledge.graph(options, as_of).to_data()
            ), (as_of, options)
        assert history.gaps(as_of) == knowledge.coverage(as_of)


def test_before_the_revision_the_older_requirements_are_the_head(
    knowledge: KnowledgeBase,
) -> None:
    history = read_history(knowledge)
    revision = history.version(NEW_REQUIREMENTS)
    assert revision is not None
    just_before = revision.front.created_at - timedelta(seconds=1)

    before = {v.ref for v in history.heads(just_before)}
    now = {v.ref for v in history.heads()}

    assert OLD_REQUIREMENTS in before and NEW_REQUIREMENTS not in before
    assert NEW_REQUIREMENTS in now and OLD_REQUIREMENTS not in now
    changed = history.diff(just_before, None, ViewOptions(subject=SUBJECT)).nodes_changed
    assert "requirements" in {change.id for change in changed}


def test_the_filters_list_what_the_store_holds(knowledge: KnowledgeBase) -> None:
    history = read_history(knowledge)

    assert history.subjects == [SUBJECT]
    assert history.kinds == ["design", "personas", "requirements", "stories", "unit-plan"]
    assert history.item_types == [
        "component",
        "contract",
        "decision",
        "persona",
        "requirement",
        "story",
    ]
    assert [v.ref for v in history.lineage_of(SUBJECT, "requirements")] == [
        OLD_REQUIREMENTS,
        NEW_REQUIREMENTS,
    ]


def test_a_damaged_text_is_left_out_and_named(
    knowledge: KnowledgeBase, studio_data_dir: Path
) -> None:
    tamper(
        studio_data_dir / "studio.db",
        "DROP TRIGGER artifact_bodies_no_update",
        "UPDATE artifact_bodies SET body = body || 'x' "
        "WHERE sha256 = (SELECT sha256 FROM artifact_versions WHERE ref = ?)",
        parameters=(STORIES,),
    )

    history = read_history(knowledge)

    assert STORIES not in {v.ref for v in history.versions}
    assert [d.ref for d in history.damaged] == [STORIES]
    assert "stories" not in history.graph(ViewOptions(subject=SUBJECT)).graph


def test_an_empty_store_has_an_empty_history(studio_data_dir: Path) -> None:
    workspace = Workspace()
    try:
        history = read_history(workspace.knowledge)
    finally:
        workspace.close()

    assert history.empty and history.moments == [] and history.heads() == []


def test_a_history_and_its_graphs_are_freed_without_the_cycle_collector(
    knowledge: KnowledgeBase,
) -> None:
    """The window keeps each history it reads out of the collector's reach (``gc.freeze``);
    anything dropped then that only a collection would free stays in memory for good."""
    history = read_history(knowledge)
    graph = history.graph(EVERY_LAYER).graph
    looked_at = (list(graph.edges), list(graph.in_edges), dict(graph.degree))
    looked_at += (dict(graph.in_degree), dict(graph.out_degree), list(graph.out_edges))
    gone = [weakref.ref(history), weakref.ref(graph)]
    gc.disable()
    try:
        del history, graph, looked_at
        assert [ref() for ref in gone] == [None, None]
    finally:
        gc.enable()
