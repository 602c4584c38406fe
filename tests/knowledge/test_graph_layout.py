"""Where the knowledge graph's nodes go: lineage columns, no overlaps, positions that stay put.

Random graphs (Hypothesis) check that no two boxes ever overlap and that ordering never adds
crossings; the checkout-redesign corpus, ingested into a SQLite file, checks the columns, the
neighbourhood around a requirement, and that nodes keep their places when the filter or the
moment changes.
"""

import random
from collections.abc import Iterator
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.knowledge.graph_layout import (
    COLUMN_PITCH,
    NODE_H,
    NODE_W,
    Point,
    StableLayout,
    layer_columns,
    layered_layout,
    neighbourhood_layout,
)
from studio.knowledge.knowledge_base import KnowledgeBase
from studio.knowledge.layout_ordering import (
    count_crossings,
    free_height,
    order_columns,
    spread,
)
from studio.knowledge.projection import Projection, UnknownNodeError, ViewOptions
from studio.workspace import Workspace

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "checkout-redesign"
SUBJECT = "checkout-redesign"
ALL = ViewOptions(items=True, units=True, subject=SUBJECT)
BEFORE_DESIGN = datetime(2026, 9, 9, 12, tzinfo=UTC)
"""Stories are in, the design and the unit plan not yet."""
FIRST_WEEK = datetime(2026, 9, 5, tzinfo=UTC)
"""Only the first requirements and the personas."""
TYPES = ("run", "artifact", "artifact", "requirement", "story", "section", "unit")
EDGE_TYPES = ("PRODUCES", "DERIVED_FROM", "CITES", "HAS_ITEM", "COVERS", "IMPLEMENTS", "RELATES_TO")


def graph_of(nodes: list[tuple[str, str, str]], edges: list[tuple[str, str, str]]) -> Projection:
    """A projection of (id, type, subject) nodes and (source, type, target) edges."""
    graph: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    for node, kind, subject in nodes:
        graph.add_node(
            node, type=kind, label=node, subject=subject, ref="r", data={}, hidden=frozenset()
        )
    for source, kind, target in edges:
        graph.add_edge(source, target, key=kind)
    return Projection(graph)


@st.composite
def projections(draw: st.DrawFn, max_nodes: int = 40) -> Projection:
    """Random graphs of every node type in one or two subjects, with any edges among them."""
    count = draw(st.integers(1, max_nodes))
    nodes = [
        (f"n{number}", draw(st.sampled_from(TYPES)), draw(st.sampled_from(("a", "b"))))
        for number in range(count)
    ]
    ends = st.integers(0, count - 1)
    pairs = draw(st.lists(st.tuples(ends, st.sampled_from(EDGE_TYPES), ends), max_size=80))
    return graph_of(nodes, [(f"n{s}", kind, f"n{t}") for s, kind, t in pairs])


def overlaps(positions: dict[str, Point]) -> list[tuple[str, str]]:
    """Pairs of nodes whose boxes intersect."""
    items = sorted(positions.items())
    return [
        (a, b)
        for index, (a, (ax, ay)) in enumerate(items)
        for b, (bx, by) in items[index + 1 :]
        if abs(ax - bx) < NODE_W and abs(ay - by) < NODE_H
    ]


@pytest.fixture
def knowledge(tmp_path: Path) -> Iterator[KnowledgeBase]:
    """The checkout-redesign corpus ingested into a SQLite file of its own."""
    workspace = Workspace(database=str(tmp_path / "knowledge.db"))
    workspace.knowledge.ingest(FIXTURE)
    yield workspace.knowledge
    workspace.close()


@settings(max_examples=60, deadline=None)
@given(projections())
def test_no_two_boxes_overlap_in_the_layered_layout(projection: Projection) -> None:
    positions = layered_layout(projection)

    assert set(positions) == set(projection.graph.nodes)
    assert overlaps(positions) == []


@settings(max_examples=60, deadline=None)
@given(projections(), st.integers(1, 3), st.data())
def test_no_two_boxes_overlap_around_a_focus(
    projection: Projection, depth: int, data: st.DataObject
) -> None:
    focus = data.draw(st.sampled_from(sorted(projection.graph.nodes)))

    positions = neighbourhood_layout(projection, focus, depth)

    assert positions[focus] == (-NODE_W / 2, -NODE_H / 2)
    assert overlaps(positions) == []


@settings(max_examples=40, deadline=None)
@given(projections(), st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=4))
def test_a_stable_layout_keeps_every_node_it_placed_and_never_overlaps(
    whole: Projection, seeds: list[int]
) -> None:
    layout = StableLayout()
    seen: dict[str, Point] = {}
    for seed in seeds:
        chosen = random.Random(seed).sample(sorted(whole.graph), k=len(whole.graph) // 2 + 1)
        view = Projection(whole.graph.subgraph(chosen).copy())

        placed = layout.place(view)

        assert set(placed) == set(chosen)
        assert {n: placed[n] for n in placed if n in seen} == {
            n: seen[n] for n in placed if n in seen
        }
        seen |= placed
        assert overlaps(layout.positions) == []


def test_columns_follow_lineage(knowledge: KnowledgeBase) -> None:
    projection = knowledge.graph(ALL)
    x = {node: left for node, (left, _) in layered_layout(projection).items()}
    graph = projection.graph

    for source, target, kind in graph.edges(keys=True):
        if kind == "PRODUCES":
            assert x[source] < x[target], f"run {source} is not left of {target}"
        if kind == "HAS_ITEM":
            assert x[source] < x[target], f"artifact {source} is not left of {target}"
        if kind == "IMPLEMENTS":
            assert x[source] < x[target], f"item {source} is not left of unit {target}"
    assert x["requirements"] < x["stories"]  # built from the requirements: one step right
    assert x["stories"] == x["design"] == x["unit-plan"]  # further down the chain: the same
    assert x["requirements"] == x["personas"]
    assert {x[n] for n in graph if graph.nodes[n]["type"] == "run"} == {0.0}


def test_artifacts_built_from_others_share_the_second_sub_column() -> None:
    chain = [f"a{number}" for number in range(8)]
    projection = graph_of(
        [(node, "artifact", "s") for node in chain] + [("i", "requirement", "s")],
        [(later, "DERIVED_FROM", earlier) for earlier, later in pairwise(chain)],
    )

    columns = layer_columns(projection)

    assert [columns[node] for node in chain] == [1, 2, 2, 2, 2, 2, 2, 2]
    assert columns["i"] == 3


def test_artifacts_citing_each_other_share_a_sub_column() -> None:
    projection = graph_of(
        [("a", "artifact", "s"), ("b", "artifact", "s"), ("c", "artifact", "s")],
        [("a", "CITES", "b"), ("b", "CITES", "a"), ("c", "DERIVED_FROM", "a")],
    )

    columns = layer_columns(projection)

    assert columns["a"] == columns["b"] == 1
    assert columns["c"] == 2


def test_each_subject_is_a_band_of_its_own() -> None:
    nodes = [
        (f"{s}/{k}", kind, s) for s in ("b", "a") for k, kind in (("x", "artifact"), ("r", "run"))
    ]
    projection = graph_of(nodes, [("a/r", "PRODUCES", "a/x"), ("b/r", "PRODUCES", "b/x")])

    y = {node: top for node, (_, top) in layered_layout(projection).items()}

    assert max(y["a/x"], y["a/r"]) + NODE_H < min(y["b/x"], y["b/r"])


def test_the_layout_depends_on_the_graph_not_on_the_order_it_was_built_in(
    knowledge: KnowledgeBase,
) -> None:
    projection = knowledge.graph(ALL)
    nodes = list(projection.graph.nodes(data=True))
    edges = list(projection.graph.edges(keys=True))
    random.Random(4).shuffle(nodes)
    random.Random(5).shuffle(edges)
    rebuilt: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    rebuilt.add_nodes_from(nodes)
    rebuilt.add_edges_from(edges)

    first = layered_layout(projection)

    assert layered_layout(knowledge.graph(ALL)) == first
    assert layered_layout(Projection(rebuilt)) == first


def test_ordering_removes_the_crossings_of_a_crafted_case() -> None:
    projection = graph_of(
        [(n, "run", "s") for n in "abc"] + [(n, "artifact", "s") for n in "xyz"],
        [("a", "PRODUCES", "z"), ("b", "PRODUCES", "y"), ("c", "PRODUCES", "x")],
    )
    around = {n: tuple(sorted(nx.all_neighbors(projection.graph, n))) for n in projection.graph}
    columns = [["a", "b", "c"], ["x", "y", "z"]]

    ordered = order_columns(columns, around)

    assert count_crossings(columns, around) == 3
    assert count_crossings(ordered, around) == 0


def test_ordering_keeps_the_best_order_seen_when_later_sweeps_make_it_worse() -> None:
    columns = [["a0", "a1", "a2", "a3"], ["b0", "b1", "b2"], ["c0", "c1", "c2", "c3"]]
    edges = [("a0", "c3"), ("a1", "b0"), ("a1", "c2"), ("a2", "b1")]
    edges += [("a3", "c2"), ("a3", "c3"), ("b1", "c3")]
    graph: nx.Graph[str] = nx.Graph(edges)
    graph.add_nodes_from(node for column in columns for node in column)
    around = {n: tuple(sorted(graph.neighbors(n))) for n in graph}

    ordered = order_columns(columns, around)

    assert count_crossings(columns, around) == 2
    assert count_crossings(ordered, around) == 1  # after the first sweep; later ones make 3


@settings(max_examples=60, deadline=None)
@given(projections())
def test_ordering_never_adds_crossings(projection: Projection) -> None:
    columns = layer_columns(projection)
    layers: list[list[str]] = [[] for _ in range(max(columns.values()) + 1)]
    for node in sorted(columns):
        layers[columns[node]].append(node)
    around = {n: tuple(sorted(set(nx.all_neighbors(projection.graph, n)) - {n})) for n in columns}

    ordered = order_columns(layers, around)

    assert [sorted(layer) for layer in ordered] == [sorted(layer) for layer in layers]
    assert count_crossings(ordered, around) <= count_crossings(layers, around)


def test_the_focus_is_centred_with_what_it_came_from_left_and_what_came_from_it_right(
    knowledge: KnowledgeBase,
) -> None:
    positions = neighbourhood_layout(knowledge.graph(ALL), "REQ-1", 1)
    x = {node: left for node, (left, _) in positions.items()}

    assert positions["REQ-1"] == (-NODE_W / 2, -NODE_H / 2)
    assert set(positions) == {"REQ-1", "requirements", "ST-1"}
    assert x["requirements"] == x["REQ-1"] - COLUMN_PITCH  # built from it
    assert x["ST-1"] == x["REQ-1"] + COLUMN_PITCH  # covers it


def test_a_neighbourhood_reaches_as_deep_as_asked(knowledge: KnowledgeBase) -> None:
    projection = knowledge.graph(ALL)

    deeper = neighbourhood_layout(projection, "REQ-1", 2)

    assert {"stories", "REQ-2", "run:exec-0004", "unit:guest-pay"} <= set(deeper)
    assert deeper["unit:guest-pay"][0] > deeper["ST-1"][0]
    assert deeper["run:exec-0004"][0] < deeper["requirements"][0]
    with pytest.raises(UnknownNodeError, match="R-NOPE"):
        neighbourhood_layout(projection, "R-NOPE", 1)


def test_nodes_stay_put_when_items_are_hidden_and_shown_again(knowledge: KnowledgeBase) -> None:
    layout = StableLayout()
    shown = layout.place(knowledge.graph(ALL))

    hidden = layout.place(knowledge.graph(ViewOptions(subject=SUBJECT)))
    again = layout.place(knowledge.graph(ALL))

    assert hidden == {node: shown[node] for node in hidden}
    assert again == shown


def test_nodes_stay_put_when_the_moment_moves(knowledge: KnowledgeBase) -> None:
    layout = StableLayout()
    early = layout.place(knowledge.graph(ALL, as_of=FIRST_WEEK))

    later = layout.place(knowledge.graph(ALL, as_of=BEFORE_DESIGN))
    now = layout.place(knowledge.graph(ALL))
    back = layout.place(knowledge.graph(ALL, as_of=BEFORE_DESIGN))

    assert set(early) < set(later) < set(now)
    assert {node: later[node] for node in early} == early
    assert {node: now[node] for node in later} == later
    assert back == later
    assert overlaps(now) == []


def test_new_nodes_go_into_their_column_near_their_neighbours(knowledge: KnowledgeBase) -> None:
    layout = StableLayout()
    layout.place(knowledge.graph(ViewOptions(subject=SUBJECT)))

    placed = layout.place(knowledge.graph(ALL))

    columns = layer_columns(knowledge.graph(ALL))
    assert placed["REQ-1"][0] == columns["REQ-1"] * COLUMN_PITCH
    assert placed["unit:cart-store"][0] == columns["unit:cart-store"] * COLUMN_PITCH
    assert abs(placed["REQ-1"][1] - placed["requirements"][1]) < 10 * NODE_H
    assert overlaps(placed) == []


def test_a_primed_layout_places_every_view_as_the_universe_was_laid_out(
    knowledge: KnowledgeBase,
) -> None:
    moments = [knowledge.graph(ALL, as_of=when) for when in (FIRST_WEEK, BEFORE_DESIGN, None)]
    whole = Projection(nx.compose_all([moment.graph for moment in moments]))
    layout = StableLayout()

    primed = layout.prime(whole)

    assert primed == layered_layout(whole)
    for projection in moments:
        placed = layout.place(projection)
        assert placed == {node: primed[node] for node in projection.graph}


def test_reset_lays_the_next_view_out_afresh(knowledge: KnowledgeBase) -> None:
    layout = StableLayout()
    layout.place(knowledge.graph(ALL, as_of=FIRST_WEEK))
    layout.place(knowledge.graph(ALL))

    layout.reset()

    assert layout.place(knowledge.graph(ALL)) == layered_layout(knowledge.graph(ALL))


@given(st.lists(st.one_of(st.none(), st.floats(-1e4, 1e4)), max_size=30), st.floats(1, 100))
def test_spread_keeps_the_order_and_the_pitch(wishes: list[float | None], pitch: float) -> None:
    heights = spread(wishes, pitch)

    assert len(heights) == len(wishes)
    assert all(b - a >= pitch * (1 - 1e-9) for a, b in pairwise(heights))


def test_spread_centres_a_crowd_on_its_wish() -> None:
    assert spread([100.0, 100.0, 100.0], 10.0) == [90.0, 100.0, 110.0]
    assert spread([None, 50.0, None], 10.0) == [40.0, 50.0, 60.0]


@given(st.lists(st.integers(-50, 50), unique=True), st.integers(-60, 60))
def test_a_free_height_is_the_nearest_one_clear_of_every_box(rows: list[int], wish: int) -> None:
    taken = sorted(row * 7.0 for row in rows)

    height = free_height(taken, float(wish), 10.0, reach=len(taken) + 1)

    assert all(abs(height - other) >= 10.0 for other in taken)
    nearer = [
        h / 2
        for h in range(2 * wish - 800, 2 * wish + 800)
        if abs(h / 2 - wish) < abs(height - wish)
    ]
    assert not [h for h in nearer if all(abs(h - other) >= 10.0 for other in taken)]


def test_a_free_height_in_a_packed_column_is_past_its_end() -> None:
    packed = [float(height) for height in range(0, 1001, 10)]

    assert free_height(packed, 500.0, 10.0, reach=3) == -10.0
    assert free_height(packed, 700.0, 10.0, reach=3) == 1010.0
    assert free_height(packed, 995.0, 10.0, reach=3) == 1010.0
