"""Graph rules: topological order, cycles, would-be cycles and isolated nodes."""

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.model.graph import (
    Link,
    find_cycle,
    isolated_nodes,
    topological_order,
    would_close_cycle,
)
from tests.model.graph_strategies import Graph, dags, graphs


def is_cycle(cycle: list[str], links: list[Link]) -> bool:
    """Whether each id links to the next and the last links back to the first."""
    return bool(cycle) and all(step in links for step in pairwise([*cycle, cycle[0]]))


@settings(max_examples=200)
@given(dags(8, 15))
def test_topological_order_puts_every_source_before_its_target(graph: Graph) -> None:
    ids, links = graph
    order, leftover = topological_order(ids, links)
    assert leftover == []
    assert sorted(order) == sorted(ids)
    position = {node_id: index for index, node_id in enumerate(order)}
    assert all(position[source] < position[target] for source, target in links)


@settings(max_examples=200)
@given(graphs(8, 15))
def test_leftover_nodes_exist_exactly_when_there_is_a_cycle(graph: Graph) -> None:
    ids, links = graph
    order, leftover = topological_order(ids, links)
    assert bool(leftover) == bool(find_cycle(ids, links))
    assert sorted(order + leftover) == sorted(ids)


@settings(max_examples=200)
@given(graphs(8, 15))
def test_ordered_nodes_come_after_all_their_sources(graph: Graph) -> None:
    ids, links = graph
    order, _ = topological_order(ids, links)
    position = {node_id: index for index, node_id in enumerate(order)}
    for source, target in links:
        if target in position:
            assert source in position
            assert position[source] < position[target]


@settings(max_examples=200)
@given(graphs(8, 15))
def test_found_cycle_is_a_real_loop_of_links(graph: Graph) -> None:
    ids, links = graph
    cycle = find_cycle(ids, links)
    if cycle:
        assert is_cycle(cycle, links)
        assert len(set(cycle)) == len(cycle)


@settings(max_examples=200)
@given(dags(8, 15))
def test_dag_has_no_cycle(graph: Graph) -> None:
    assert find_cycle(*graph) == []


@settings(max_examples=200)
@given(dags(8, 15), st.data())
def test_would_close_cycle_agrees_with_adding_the_link(graph: Graph, data: st.DataObject) -> None:
    ids, links = graph
    if not ids:
        return
    source = data.draw(st.sampled_from(ids))
    target = data.draw(st.sampled_from(ids))
    closes = would_close_cycle(links, source, target)
    assert closes == bool(find_cycle(ids, [*links, (source, target)]))


@settings(max_examples=200)
@given(graphs(8, 15))
def test_isolated_nodes_are_those_no_link_touches(graph: Graph) -> None:
    ids, links = graph
    touched = {end for link in links for end in link}
    expected = [node_id for node_id in ids if node_id not in touched] if len(ids) > 1 else []
    assert isolated_nodes(ids, links) == expected


def test_ties_keep_the_given_node_order() -> None:
    assert topological_order(["c", "b", "a"], []) == (["c", "b", "a"], [])
    assert topological_order(["c", "a", "b"], [("a", "b")]) == (["c", "a", "b"], [])


def test_nodes_behind_a_cycle_are_left_over() -> None:
    ids = ["start", "x", "y", "after"]
    links = [("start", "x"), ("x", "y"), ("y", "x"), ("y", "after")]
    assert topological_order(ids, links) == (["start"], ["x", "y", "after"])
    assert find_cycle(ids, links) == ["x", "y"]


def test_link_to_itself_would_close_a_cycle() -> None:
    assert would_close_cycle([], "a", "a")


def test_link_back_up_a_chain_would_close_a_cycle() -> None:
    links = [("a", "b"), ("b", "c")]
    assert would_close_cycle(links, "c", "a")
    assert not would_close_cycle(links, "a", "c")


def test_single_node_is_never_isolated() -> None:
    assert isolated_nodes(["a"], []) == []
    assert isolated_nodes([], []) == []
