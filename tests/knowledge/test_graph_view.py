"""The knowledge view's choices, applied to the checkout-redesign corpus: the seed's default
layers, the layer toggles and filters, expanding hidden neighbours, focus, lineage, and a
comparison between two moments."""

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from studio.knowledge.graph_search import find_nodes
from studio.knowledge.graph_view import ViewQuery, view_of
from studio.knowledge.knowledge_history import KnowledgeHistory
from studio.workspace import Workspace
from tests.knowledge.test_fixture_ingest import FIXTURE, SUBJECT

NEW_REQUIREMENTS = f"{SUBJECT}/requirements/2026-09-08-requirements.md"


def types_in(history: KnowledgeHistory, query: ViewQuery) -> set[str]:
    graph = view_of(history, query).projection.graph
    return {graph.nodes[node]["type"] for node in graph.nodes}


def test_by_default_artifacts_and_their_runs_are_shown(history: KnowledgeHistory) -> None:
    assert types_in(history, ViewQuery(subject=SUBJECT)) == {"artifact", "run"}


def test_items_units_and_sections_come_on_request(history: KnowledgeHistory) -> None:
    with_items = types_in(history, ViewQuery(subject=SUBJECT, items=True))
    everything = types_in(
        history, ViewQuery(subject=SUBJECT, items=True, units=True, sections=True)
    )

    assert {"requirement", "story", "persona"} <= with_items
    assert "unit" not in with_items and "section" not in with_items
    assert {"unit", "section"} <= everything


def test_filters_keep_only_the_kinds_and_item_types_asked_for(history: KnowledgeHistory) -> None:
    query = ViewQuery(
        subject=SUBJECT,
        items=True,
        kinds=frozenset({"requirements"}),
        item_types=frozenset({"requirement"}),
    )
    graph = view_of(history, query).projection.graph

    artifacts = {n for n in graph.nodes if graph.nodes[n]["type"] == "artifact"}
    items = {n for n in graph.nodes if graph.nodes[n]["type"] not in ("artifact", "run")}
    assert artifacts == {"requirements"}
    assert items == {"REQ-1", "REQ-2", "REQ-3"}


def test_a_node_counts_its_hidden_neighbours_and_expanding_shows_them(
    history: KnowledgeHistory,
) -> None:
    plain = view_of(history, ViewQuery(subject=SUBJECT)).projection
    hidden = plain.graph.nodes["requirements"]["hidden"]
    assert {"REQ-1", "REQ-2", "REQ-3"} <= hidden

    expanded = view_of(history, ViewQuery(subject=SUBJECT, expanded=frozenset({"requirements"})))
    graph = expanded.projection.graph
    assert {"REQ-1", "REQ-2", "REQ-3"} <= set(graph.nodes)
    assert graph.nodes["requirements"]["hidden"] == frozenset()
    assert "ST-1" in graph.nodes["REQ-1"]["hidden"]


def test_focus_keeps_the_neighbourhood_within_the_depth(history: KnowledgeHistory) -> None:
    base = ViewQuery(subject=SUBJECT, items=True, units=True, focus="REQ-1")

    near = set(view_of(history, base).projection.graph.nodes)
    farther = set(view_of(history, replace(base, depth=2)).projection.graph)

    assert near == {"REQ-1", "requirements", "ST-1"}
    assert near < farther and "unit:guest-pay" in farther


def test_lineage_down_from_a_requirement_reaches_its_unit(history: KnowledgeHistory) -> None:
    view = view_of(history, ViewQuery(subject=SUBJECT, items=True, units=True))

    down = view.lineage("REQ-1", "down")
    up = view.lineage("REQ-1", "up")

    assert {"REQ-1", "ST-1", "unit:guest-pay"} <= down
    assert "requirements" in up and "unit:guest-pay" not in up


def test_a_focus_on_something_not_there_at_that_moment_is_reported(
    history: KnowledgeHistory,
) -> None:
    first = history.moments[0].at
    view = view_of(history, ViewQuery(subject=SUBJECT, focus="design", as_of=first))

    assert view.lost_focus and "design" not in view.projection.graph


def test_comparing_two_moments_marks_the_revised_artifact_changed(
    history: KnowledgeHistory,
) -> None:
    revision = history.version(NEW_REQUIREMENTS)
    assert revision is not None
    before = revision.front.created_at - timedelta(seconds=1)

    view = view_of(history, ViewQuery(subject=SUBJECT, compare_to=before))

    assert view.changes is not None
    assert "requirements" in {change.id for change in view.changes.nodes_changed}
    assert {"stories", "design", "unit-plan"} <= {n["id"] for n in view.changes.nodes_added}


def test_the_view_names_no_gap_in_the_fixture_and_every_node_id_is_plain(
    history: KnowledgeHistory,
) -> None:
    view = view_of(history, ViewQuery(subject=SUBJECT, items=True, units=True))

    assert view.gaps == {}
    assert all("/" not in node for node in view.projection.graph.nodes)


def test_search_finds_a_requirement_by_id_first_then_artifacts_by_their_text(
    history: KnowledgeHistory, tmp_path: Path
) -> None:
    workspace = Workspace(data_dir=tmp_path, database=str(tmp_path / "k.db"))
    try:
        workspace.knowledge.ingest(FIXTURE)
        query = ViewQuery(subject=SUBJECT)
        found = find_nodes(workspace.knowledge, history, query, "req-1")
        by_text = find_nodes(workspace.knowledge, history, query, "wallet")
    finally:
        workspace.close()

    assert found[0].node == "REQ-1" and found[0].type == "requirement"
    assert "REQ-3" in {f.node for f in by_text}
    assert {"requirements", "stories"} <= {f.node for f in by_text if f.type == "artifact"}
