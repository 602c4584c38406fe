"""The history keeps each subject's projection and joins them: the graph it gives at a moment
is the one projecting every head at once gives, node for node and edge for edge, in the same
order, whatever moments were asked for before (every pair of moments, both ways)."""

from datetime import datetime
from itertools import product

import pytest

from studio.knowledge.insight import suspect_links
from studio.knowledge.knowledge_history import KnowledgeHistory, read_history
from studio.knowledge.projection import Projection, ViewOptions, project
from studio.workspace import Workspace
from tests.knowledge.test_fixture_ingest import FIXTURE
from tests.knowledge.test_graph_view_cut import REQUIREMENTS, STORIES

LAYERS = [ViewOptions(), ViewOptions(items=True, units=True, sections=True)]


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeHistory:
    """The fixture corpus and three more subjects landed turn about, revised after their
    stories: many moments, each changing the heads of one subject."""
    folder = tmp_path_factory.mktemp("kg")
    workspace = Workspace(data_dir=folder, database=str(folder / "k.db"))
    try:
        workspace.knowledge.ingest(FIXTURE)
        subjects = ("alpha", "beta", "gamma")
        for subject in subjects:
            workspace.knowledge.land(REQUIREMENTS.format(subject=subject, n=1))
        for subject in subjects:
            workspace.knowledge.land(STORIES.format(subject=subject))
        for subject in subjects[:2]:
            workspace.knowledge.land(REQUIREMENTS.format(subject=subject, n=3))
        return read_history(workspace.knowledge)
    finally:
        workspace.close()


def at_once(history: KnowledgeHistory, options: ViewOptions, as_of: datetime | None) -> Projection:
    """The projection of every head at once, as the store's own graph makes it."""
    heads = history.heads(as_of)
    nodes = [n for v in heads for n in history.nodes.get(v.ref, ())]
    edges = [e for v in heads for e in history.edges.get(v.ref, ())]
    return project(heads, nodes, edges, options)


def drawn(projection: Projection) -> tuple[list[tuple[str, dict]], list[tuple[str, str, str]]]:
    graph = projection.graph
    return list(graph.nodes(data=True)), list(graph.edges(keys=True))


def test_the_corpus_has_moments_that_change_one_subject_each(history: KnowledgeHistory) -> None:
    assert len(history.subjects) == 4
    assert len(history.moments) > 8


@pytest.mark.parametrize("options", LAYERS)
def test_every_pair_of_moments_gives_the_graph_of_every_head_at_once(
    history: KnowledgeHistory, options: ViewOptions
) -> None:
    moments: list[datetime | None] = [None, *(m.at for m in history.moments)]
    for before, after in product(moments, moments):
        fresh = KnowledgeHistory(history.versions, history.nodes, history.edges)
        fresh.graph(options, before)

        joined = fresh.graph(options, after)

        assert drawn(joined) == drawn(at_once(history, options, after)), (before, after)


def test_a_walk_through_time_and_back_stays_equal(history: KnowledgeHistory) -> None:
    moments: list[datetime | None] = [None, *(m.at for m in history.moments)]
    walk = [*moments, *reversed(moments), *moments[::2], *moments[1::3]]
    for options in [*LAYERS, ViewOptions(subject="alpha")]:
        for moment in walk:
            joined = history.graph(options, moment)
            assert drawn(joined) == drawn(at_once(history, options, moment)), (options, moment)


def test_the_suspect_links_kept_per_subject_are_those_of_every_head_at_once(
    history: KnowledgeHistory,
) -> None:
    moments: list[datetime | None] = [None, *(m.at for m in history.moments)]
    found = 0
    for moment in [*moments, *reversed(moments)]:
        heads = history.heads(moment)
        nodes = [n for v in heads for n in history.nodes.get(v.ref, ())]
        edges = [e for v in heads for e in history.edges.get(v.ref, ())]
        every = suspect_links(history.versions_by(moment), heads, nodes, edges)
        assert history.suspects(moment) == every, moment
        for subject in history.subjects:
            assert history.suspects(moment, subject) == [s for s in every if s.subject == subject]
        found += len(every)
    assert found > 0
