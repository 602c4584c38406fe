"""The cheap cut (only the layers shown are projected) gives exactly the view the cut of every
layer gives, for every choice of layers and filters, at every moment of the fixture corpus; and
the view marks the gaps and suspect links of the nodes and edges it shows, never those of
another subject's nodes that share their keys."""

from datetime import datetime
from itertools import product

import pytest

from studio.knowledge.graph_view import ViewQuery, cut, cut_from_every_layer, node_id, view_of
from studio.knowledge.knowledge_history import KnowledgeHistory, read_history
from studio.knowledge.projection import Projection
from studio.workspace import Workspace
from tests.knowledge.test_fixture_ingest import SUBJECT

KINDS = (None, frozenset({"requirements", "stories"}), frozenset())
ITEM_TYPES = (None, frozenset({"requirement", "component"}))


REQUIREMENTS = """---
id: requirements
kind: requirements
subject: {subject}
title: Requirements
produced_by: {{capability: analysis, workflow: intake, execution: exec-{subject}-{n}}}
created_at: 2026-03-0{n}T10:00:00Z
---
# Requirements

```yaml requirement
id: REQ-1
title: Pay as a guest
text: Version {n}.
```
"""
STORIES = """---
id: stories
kind: stories
subject: {subject}
title: Stories
produced_by: {{capability: analysis, workflow: intake, execution: exec-{subject}-2}}
links:
  - {{type: DERIVED_FROM, target: requirements}}
created_at: 2026-03-02T10:00:00Z
---
# Stories

```yaml story
id: ST-1
title: Pay as a guest
covers: [REQ-1]
```
"""


@pytest.fixture(scope="module")
def revised(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeHistory:
    """Two subjects whose requirements were revised after the stories built on them."""
    folder = tmp_path_factory.mktemp("kg")
    workspace = Workspace(data_dir=folder, database=str(folder / "k.db"))
    try:
        for subject in ("alpha", "beta"):
            workspace.knowledge.land(REQUIREMENTS.format(subject=subject, n=1))
            workspace.knowledge.land(STORIES.format(subject=subject))
            workspace.knowledge.land(REQUIREMENTS.format(subject=subject, n=3))
        return read_history(workspace.knowledge)
    finally:
        workspace.close()


def drawn(projection: Projection) -> tuple[dict[str, dict], list[tuple[str, str, str]]]:
    graph = projection.graph
    return {node: dict(graph.nodes[node]) for node in graph.nodes}, projection.edge_keys()


@pytest.mark.parametrize("subject", [SUBJECT, None])
def test_the_cut_of_the_layers_shown_is_the_cut_of_every_layer(
    history: KnowledgeHistory, subject: str | None
) -> None:
    moments: list[datetime | None] = [None, *(moment.at for moment in history.moments)]
    compared = 0
    for items, units, sections, kinds, item_types in product(
        (False, True), (False, True), (False, True), KINDS, ITEM_TYPES
    ):
        query = ViewQuery(items, units, sections, subject, kinds, item_types)
        for moment in moments:
            cheap = drawn(cut(history, query, moment))
            assert cheap == drawn(cut_from_every_layer(history, query, moment)), (query, moment)
            compared += bool(cheap[0])
    assert compared > 100  # most of them draw something


@pytest.mark.parametrize("subject", [SUBJECT, "alpha", None])
def test_the_view_marks_every_gap_and_suspect_link_it_shows(
    history: KnowledgeHistory, revised: KnowledgeHistory, subject: str | None
) -> None:
    marked = 0
    history = history if subject == SUBJECT else revised
    for items, units in product((False, True), (False, True)):
        for moment in [None, *(m.at for m in history.moments)]:
            query = ViewQuery(items, units, subject=subject, as_of=moment)
            view = view_of(history, query)
            graph, edges = view.projection.graph, set(view.projection.edge_keys())
            mine = {subject} if subject is not None else {g.subject for g in history.gaps(moment)}
            mine |= {s.subject for s in history.suspects(moment)} if subject is None else set()
            gaps = {
                node_id(query, g.subject, g.key): g
                for g in history.gaps(moment)
                if g.subject in mine
            }
            suspects = {}
            for s in (s for s in history.suspects(moment) if s.subject in mine):
                ends = (node_id(query, s.subject, s.item), node_id(query, s.subject, s.target))
                for drawn_edge in ((ends[0], s.link, ends[1]), (ends[1], s.link, ends[0])):
                    if drawn_edge in edges:
                        suspects[drawn_edge] = s

            assert view.gaps == {n: g for n, g in gaps.items() if n in graph}
            assert view.suspects == suspects
            marked += len(view.gaps) + len(view.suspects)
    assert marked > 0
