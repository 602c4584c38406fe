"""Automatic layout: columns by generation, links pointing right, few crossings, fast."""

import random
from functools import cache
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.model.graph import Link
from studio.model.layout import layered_layout, layout_positions, needs_layout
from studio.model.workflow import Edge, Node, Position, Workflow
from tests.model.graph_strategies import Graph, dags, graphs

COLUMN_GAP, ROW_GAP = 280.0, 140.0


def generations(node_ids: list[str], links: list[Link]) -> dict[str, int]:
    """Longest path from a root to each node, by the definition (a DAG is assumed)."""
    predecessors: dict[str, set[str]] = {node_id: set() for node_id in node_ids}
    for source, target in links:
        predecessors[target].add(source)

    @cache
    def generation(node_id: str) -> int:
        return max((generation(p) + 1 for p in predecessors[node_id]), default=0)

    return {node_id: generation(node_id) for node_id in node_ids}


def column_of(x: float) -> int:
    """The column a laid-out x coordinate stands for."""
    column = round(x / COLUMN_GAP)
    assert x == column * COLUMN_GAP
    return column


def columns(placed: dict[str, tuple[float, float]]) -> dict[int, list[str]]:
    """Ids per column, top to bottom."""
    result: dict[int, list[str]] = {}
    for node_id, (x, _y) in sorted(placed.items(), key=lambda item: item[1]):
        result.setdefault(column_of(x), []).append(node_id)
    return result


def crossings(placed: dict[str, tuple[float, float]], links: list[Link]) -> int:
    """Pairs of straight links that cross strictly between their ends (brute force)."""
    count = 0
    for i, (a, b) in enumerate(links):
        for c, d in links[i + 1 :]:
            if {a, b} & {c, d}:
                continue
            (ax, ay), (bx, by), (cx, cy), (dx, dy) = (placed[n] for n in (a, b, c, d))
            if (ax, bx) == (cx, dx) and (ay - cy) * (by - dy) < 0:
                count += 1
    return count


def random_dag(size: int, seed: int) -> Graph:
    """A DAG where each node has one to three earlier nodes as predecessors; ids shuffled."""
    rng = random.Random(seed)
    ids = [f"node-{number}" for number in range(size)]
    links = [
        (ids[rng.randrange(number)], ids[number])
        for number in range(1, size)
        for _ in range(rng.randint(1, 3))
    ]
    rng.shuffle(ids)
    return ids, links


# Properties --------------------------------------------------------------------------------


@settings(max_examples=200)
@given(dags(12, 25))
def test_every_link_points_strictly_right(graph: Graph) -> None:
    node_ids, links = graph
    placed = layered_layout(node_ids, links)
    assert set(placed) == set(node_ids)
    for source, target in links:
        assert placed[source][0] < placed[target][0]


@settings(max_examples=200)
@given(dags(12, 25))
def test_columns_are_longest_path_generations(graph: Graph) -> None:
    node_ids, links = graph
    placed = layered_layout(node_ids, links)
    expected = generations(node_ids, links)
    assert {node_id: column_of(x) for node_id, (x, _y) in placed.items()} == expected


@settings(max_examples=200)
@given(graphs(12, 20))
def test_every_node_gets_its_own_position_even_on_a_cycle(graph: Graph) -> None:
    node_ids, links = graph
    placed = layered_layout(node_ids, links)
    assert set(placed) == set(node_ids)
    assert len(set(placed.values())) == len(node_ids)


@settings(max_examples=100)
@given(dags(12, 25), st.floats(-1e4, 1e4), st.floats(-1e4, 1e4))
def test_columns_are_centred_on_the_origin(graph: Graph, left: float, middle: float) -> None:
    node_ids, links = graph
    placed = layered_layout(node_ids, links, column_gap=10.0, row_gap=5.0, origin=(left, middle))
    by_column: dict[float, list[float]] = {}
    for x, y in placed.values():
        by_column.setdefault(x, []).append(y)
    for x, heights in by_column.items():
        assert round((x - left) / 10.0) * 10.0 + left == x
        assert abs(sum(heights) / len(heights) - middle) < 1e-6
        gaps = [b - a for a, b in pairwise(sorted(heights))]
        assert all(abs(gap - 5.0) < 1e-6 for gap in gaps)


@settings(max_examples=100)
@given(dags(12, 25), st.randoms(use_true_random=False))
def test_the_same_input_gives_the_same_layout(graph: Graph, rng: random.Random) -> None:
    node_ids, links = graph
    first = layered_layout(node_ids, links)
    assert layered_layout(list(node_ids), list(links)) == first
    # Listing the links in another order changes nothing.
    shuffled = list(links)
    rng.shuffle(shuffled)
    assert layered_layout(node_ids, shuffled) == first


@settings(max_examples=100)
@given(dags(12, 25))
def test_sweeps_never_add_crossings_between_neighbouring_columns(graph: Graph) -> None:
    node_ids, links = graph
    placed = layered_layout(node_ids, links)
    # Definition order in every column is where the sweeps start; the kept ordering is
    # never worse than that on links between neighbouring columns.
    start: dict[str, tuple[float, float]] = {}
    for column_ids in columns(placed).values():
        in_order = sorted(column_ids, key=node_ids.index)
        for node_id, (x, y) in zip(in_order, sorted(placed[n] for n in column_ids), strict=True):
            start[node_id] = (x, y)
    short = [(s, t) for s, t in dict.fromkeys(links) if placed[t][0] - placed[s][0] == COLUMN_GAP]
    assert crossings(placed, short) <= crossings(start, short)


# Examples ----------------------------------------------------------------------------------


def test_nothing_to_lay_out() -> None:
    assert layered_layout([], []) == {}


def test_a_chain_is_one_straight_horizontal_line() -> None:
    node_ids = ["a", "b", "c", "d", "e"]
    placed = layered_layout(node_ids, [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e")])
    assert placed == {node_id: (i * COLUMN_GAP, 0.0) for i, node_id in enumerate(node_ids)}


def test_a_diamond_has_its_middle_pair_in_one_column_above_each_other() -> None:
    links = [("start", "left"), ("start", "right"), ("left", "end"), ("right", "end")]
    placed = layered_layout(["start", "left", "right", "end"], links)
    assert placed == {
        "start": (0.0, 0.0),
        "left": (COLUMN_GAP, -ROW_GAP / 2),
        "right": (COLUMN_GAP, ROW_GAP / 2),
        "end": (2 * COLUMN_GAP, 0.0),
    }


def test_gaps_and_origin_are_honoured() -> None:
    placed = layered_layout(["a", "b", "c"], [("a", "b"), ("a", "c")], origin=(100.0, 50.0))
    assert placed == {
        "a": (100.0, 50.0),
        "b": (100.0 + COLUMN_GAP, 50.0 - ROW_GAP / 2),
        "c": (100.0 + COLUMN_GAP, 50.0 + ROW_GAP / 2),
    }
    wide = layered_layout(["a", "b"], [("a", "b")], column_gap=10.0, row_gap=3.0)
    assert wide == {"a": (0.0, 0.0), "b": (10.0, 0.0)}


def test_isolated_nodes_stand_in_the_first_column() -> None:
    placed = layered_layout(["a", "lonely", "b"], [("a", "b")])
    assert column_of(placed["lonely"][0]) == 0
    assert column_of(placed["b"][0]) == 1


def test_a_crossed_pair_is_uncrossed() -> None:
    node_ids = ["top", "bottom", "first", "second"]
    links = [("top", "second"), ("bottom", "first")]
    assert crossings(dict(zip(node_ids, [(0, 0), (0, 1), (1, 0), (1, 1)], strict=True)), links)
    placed = layered_layout(node_ids, links)
    assert crossings(placed, links) == 0
    assert placed["second"][1] < placed["first"][1]


def test_a_crossed_bipartite_graph_is_uncrossed() -> None:
    # Each source feeds the target listed in the opposite order (and two also feed the middle
    # one): in definition order five pairs of links cross.
    sources, targets = ["s1", "s2", "s3"], ["t1", "t2", "t3"]
    links = [("s1", "t3"), ("s2", "t2"), ("s3", "t1"), ("s1", "t2"), ("s3", "t2")]
    rows = [(x, y) for x in (0, 1) for y in (0, 1, 2)]
    assert crossings(dict(zip(sources + targets, rows, strict=True)), links) == 5
    placed = layered_layout(sources + targets, links)
    assert [n for n, _ in sorted(placed.items(), key=lambda item: item[1])][3:] == [
        "t3",
        "t2",
        "t1",
    ]
    assert crossings(placed, links) == 0


def test_a_later_column_follows_its_predecessors() -> None:
    # Two independent chains whose ends are defined in the opposite order.
    node_ids = ["a1", "b1", "b2", "a2", "b3", "a3"]
    links = [("a1", "a2"), ("a2", "a3"), ("b1", "b2"), ("b2", "b3")]
    placed = layered_layout(node_ids, links)
    assert crossings(placed, links) == 0
    assert placed["a2"][1] == placed["a3"][1] == placed["a1"][1]
    assert placed["b2"][1] == placed["b3"][1] == placed["b1"][1]


def test_nodes_on_a_cycle_come_after_the_last_column_in_definition_order() -> None:
    node_ids = ["loop-b", "root", "child", "loop-a", "self"]
    links = [("root", "child"), ("loop-a", "loop-b"), ("loop-b", "loop-a"), ("self", "self")]
    placed = layered_layout(node_ids, links)
    assert columns(placed) == {0: ["root"], 1: ["child"], 2: ["loop-b", "loop-a", "self"]}


def test_links_to_unknown_nodes_and_repeated_ids_are_ignored() -> None:
    placed = layered_layout(["a", "b", "a"], [("a", "b"), ("a", "b"), ("ghost", "a")])
    assert placed == {"a": (0.0, 0.0), "b": (COLUMN_GAP, 0.0)}


def test_layout_positions_lays_out_a_workflow() -> None:
    workflow = Workflow(
        nodes=[Node(id=node_id, agent_id="agent") for node_id in ("a", "b", "c")],
        edges=[Edge(source="a", target="b"), Edge(source="a", target="c")],
    )
    assert layout_positions(workflow) == {
        "a": Position(x=0.0, y=0.0),
        "b": Position(x=COLUMN_GAP, y=-ROW_GAP / 2),
        "c": Position(x=COLUMN_GAP, y=ROW_GAP / 2),
    }


def test_two_thousand_nodes_are_laid_out_left_to_right() -> None:
    # How fast: bench/layout.py.
    node_ids, links = random_dag(2000, seed=7)
    placed = layered_layout(node_ids, links)
    assert set(placed) == set(node_ids)
    assert all(placed[source][0] < placed[target][0] for source, target in links)


def test_ties_keep_definition_order() -> None:
    # "t2" and "t3" both hang under "a", "t1" and "t4" under "b": each pair ties.
    node_ids = ["a", "b", "t1", "t2", "t3", "t4"]
    links = [("b", "t1"), ("a", "t2"), ("a", "t3"), ("b", "t4")]
    placed = layered_layout(node_ids, links)
    assert columns(placed)[1] == ["t2", "t3", "t1", "t4"]


def test_the_best_ordering_seen_is_kept() -> None:
    # Two sources feeding the same two targets cross once whatever the order; the later sweeps
    # drag the chain "c" -> "d" -> "end" across them and make it worse, so they are not kept.
    node_ids = ["a", "b", "c", "d", "x", "lonely", "y", "end"]
    links = [("c", "d"), ("d", "end"), ("a", "y"), ("b", "y"), ("a", "x"), ("b", "x")]
    rows = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (0, 3), (1, 2), (2, 0)]  # definition order
    start = dict(zip(node_ids, rows, strict=True))
    assert crossings(start, links) == 5
    assert crossings(layered_layout(node_ids, links), links) == 1


def workflow_at(*places: tuple[float, float]) -> Workflow:
    nodes = [
        {"id": f"n{i}", "agentId": "echo", "position": {"x": x, "y": y}}
        for i, (x, y) in enumerate(places)
    ]
    return Workflow.model_validate({"name": "Placed", "nodes": nodes})


def test_a_file_without_positions_needs_laying_out() -> None:
    assert needs_layout(workflow_at((0, 0), (0, 0), (0, 0)))


def test_overlapping_nodes_need_laying_out_and_spread_ones_do_not() -> None:
    assert needs_layout(workflow_at((0, 0), (300, 0), (120, 30)))
    assert not needs_layout(workflow_at((0, 0), (300, 0), (0, 140), (300, 140)))
    assert not needs_layout(workflow_at((0, 0)))
    assert not needs_layout(workflow_at((0, 0), (150, 70)))  # side by side, just clear
