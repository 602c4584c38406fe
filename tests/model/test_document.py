"""The workflow under edit: each change announces itself, once, and can be undone exactly."""

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.model.document import DocumentEvent, WorkflowDocument
from studio.model.workflow import Edge, EdgeCondition, Node, Position, Workflow
from tests.model.workflow_strategies import workflows

ALWAYS = EdgeCondition(field="status", operator="exists")


def make_node(node_id: str, **fields: object) -> Node:
    """A node with an agent, and any other fields given."""
    return Node(id=node_id, agent_id="agent", **fields)


def chain() -> Workflow:
    """a -> b -> c, plus a node "d" that no edge touches."""
    return Workflow(
        id="wf-1",
        name="Chain",
        nodes=[make_node(node_id) for node_id in "abcd"],
        edges=[Edge(source="a", target="b"), Edge(source="b", target="c")],
    )


def listened(workflow: Workflow) -> tuple[WorkflowDocument, list[DocumentEvent]]:
    """A document on the workflow and the list its events are collected in."""
    document = WorkflowDocument(workflow)
    events: list[DocumentEvent] = []
    document.subscribe(events.append)
    return document, events


def node_ids(document: WorkflowDocument) -> list[str]:
    return [node.id for node in document.nodes]


def edge_ids(document: WorkflowDocument) -> list[str]:
    return [edge.id for edge in document.edges]


# Reading ------------------------------------------------------------------------------------


def test_a_new_document_shows_the_workflow_as_it_was_given() -> None:
    workflow = chain()
    document, events = listened(workflow)
    assert document.snapshot() == workflow
    assert node_ids(document) == ["a", "b", "c", "d"]
    assert edge_ids(document) == ["a->b", "b->c"]
    assert document.properties.name == "Chain"
    assert document.properties.nodes == document.properties.edges == []
    assert document.node("b") == make_node("b")
    assert document.node("zz") is None
    assert document.edge("b->c") == Edge(source="b", target="c")
    assert document.edge("c->b") is None
    assert events == []


def test_edges_touching_finds_incoming_and_outgoing_edges_in_order() -> None:
    document = WorkflowDocument(chain())
    assert [edge.id for edge in document.edges_touching(["b"])] == ["a->b", "b->c"]
    assert [edge.id for edge in document.edges_touching(["c", "a"])] == ["a->b", "b->c"]
    assert document.edges_touching(["d"]) == []
    assert document.edges_touching([]) == []


def test_would_close_cycle() -> None:
    document = WorkflowDocument(chain())
    assert document.would_close_cycle("c", "a")  # through b
    assert document.would_close_cycle("b", "a")
    assert document.would_close_cycle("d", "d")
    assert not document.would_close_cycle("a", "c")
    assert not document.would_close_cycle("c", "d")
    assert not document.would_close_cycle("d", "a")


def test_unique_node_id_counts_up_from_the_base() -> None:
    document = WorkflowDocument(chain())
    assert document.unique_node_id("new") == "new"
    assert document.unique_node_id("a") == "a-2"
    document.add_node(make_node("a-2"))
    document.add_node(make_node("a-3"))
    assert document.unique_node_id("a") == "a-4"


def test_unique_edge_id_is_named_after_the_ends() -> None:
    document = WorkflowDocument(chain())
    assert document.unique_edge_id("a", "c") == "a->c"
    assert document.unique_edge_id("a", "b") == "a->b#2"
    document.add_edge(Edge(id="a->b#2", source="a", target="b"))
    assert document.unique_edge_id("a", "b") == "a->b#3"


# Nodes --------------------------------------------------------------------------------------


def test_add_node_appends_and_announces() -> None:
    document, events = listened(chain())
    document.add_node(make_node("e"))
    assert node_ids(document) == ["a", "b", "c", "d", "e"]
    assert events == [DocumentEvent("node_added", ("e",))]


@pytest.mark.parametrize(
    ("index", "expected"),
    [(0, "eabcd"), (2, "abecd"), (4, "abcde"), (99, "abcde")],
)
def test_add_node_at_an_index_keeps_definition_order(index: int, expected: str) -> None:
    document, events = listened(chain())
    document.add_node(make_node("e"), index)
    assert node_ids(document) == list(expected)
    assert edge_ids(document) == ["a->b", "b->c"]
    assert events == [DocumentEvent("node_added", ("e",))]


def test_add_node_refuses_a_duplicate_id_and_changes_nothing() -> None:
    document, events = listened(chain())
    with pytest.raises(ValueError, match="'b' already exists"):
        document.add_node(make_node("b", name="Other"))
    assert document.snapshot() == chain()
    assert events == []


def test_remove_node_returns_it_and_its_place() -> None:
    document, events = listened(chain())
    removed, index = document.remove_node("d")
    assert (removed, index) == (make_node("d"), 3)
    assert node_ids(document) == ["a", "b", "c"]
    assert events == [DocumentEvent("node_removed", ("d",))]


@pytest.mark.parametrize("node_id", ["a", "b", "c"])
def test_remove_node_refuses_while_edges_touch_it(node_id: str) -> None:
    document, events = listened(chain())
    with pytest.raises(ValueError, match=f"node '{node_id}' still has edges"):
        document.remove_node(node_id)
    assert document.snapshot() == chain()
    assert events == []


def test_removing_a_node_and_its_edges_then_putting_them_back_restores_the_order() -> None:
    document = WorkflowDocument(chain())
    removed_edges = [document.remove_edge(edge.id) for edge in document.edges_touching(["b"])]
    node, index = document.remove_node("b")
    assert index == 1
    assert node_ids(document) == ["a", "c", "d"]
    document.add_node(node, index)
    for edge, edge_index in reversed(removed_edges):
        document.add_edge(edge, edge_index)
    assert document.snapshot() == chain()


def test_remove_node_of_an_unknown_id_fails_and_changes_nothing() -> None:
    document, events = listened(chain())
    with pytest.raises(ValueError):
        document.remove_node("zz")
    assert document.snapshot() == chain()
    assert events == []


def test_replace_node_announces_a_real_change() -> None:
    document, events = listened(chain())
    renamed = make_node("b", name="Review")
    document.replace_node(renamed)
    assert document.node("b") == renamed
    assert node_ids(document) == ["a", "b", "c", "d"]
    assert events == [DocumentEvent("node_changed", ("b",))]


def test_replace_node_with_an_equal_node_is_silent() -> None:
    document, events = listened(chain())
    document.replace_node(make_node("b"))
    assert events == []


def test_replace_node_of_an_unknown_id_fails() -> None:
    document, events = listened(chain())
    with pytest.raises(KeyError):
        document.replace_node(make_node("zz"))
    assert document.snapshot() == chain()
    assert events == []


def test_move_nodes_announces_only_the_nodes_that_moved() -> None:
    document, events = listened(chain())
    document.move_nodes({"c": Position(x=5.0, y=6.0), "a": Position(), "b": Position(x=1.0, y=0.0)})
    assert document.node("c").position == Position(x=5.0, y=6.0)
    assert document.node("b").position == Position(x=1.0, y=0.0)
    assert document.node("a") == make_node("a")
    assert node_ids(document) == ["a", "b", "c", "d"]
    assert events == [DocumentEvent("nodes_moved", ("c", "b"))]


def test_moving_nodes_to_where_they_are_is_silent() -> None:
    document, events = listened(chain())
    document.move_nodes({"a": Position(), "b": Position(x=0.0, y=0.0)})
    document.move_nodes({})
    assert events == []


def test_moving_back_to_the_previous_positions_restores_the_snapshot() -> None:
    document = WorkflowDocument(chain())
    before = {node_id: document.node(node_id).position for node_id in ("a", "c")}
    document.move_nodes({"a": Position(x=-3.5, y=2.0), "c": Position(x=8.0, y=1.0)})
    document.move_nodes(before)
    assert document.snapshot() == chain()


# Edges --------------------------------------------------------------------------------------


def test_add_edge_announces() -> None:
    document, events = listened(chain())
    document.add_edge(Edge(source="c", target="d"))
    assert edge_ids(document) == ["a->b", "b->c", "c->d"]
    assert events == [DocumentEvent("edge_added", ("c->d",))]


def test_add_edge_at_an_index_keeps_definition_order() -> None:
    document, events = listened(chain())
    document.add_edge(Edge(source="a", target="d"), 1)
    assert edge_ids(document) == ["a->b", "a->d", "b->c"]
    document.add_edge(Edge(source="c", target="d"), 0)
    assert edge_ids(document) == ["c->d", "a->b", "a->d", "b->c"]
    assert events == [
        DocumentEvent("edge_added", ("a->d",)),
        DocumentEvent("edge_added", ("c->d",)),
    ]


@pytest.mark.parametrize(("source", "target", "missing"), [("zz", "a", "zz"), ("a", "yy", "yy")])
def test_add_edge_refuses_a_missing_end(source: str, target: str, missing: str) -> None:
    document, events = listened(chain())
    with pytest.raises(ValueError, match=f"missing node '{missing}'"):
        document.add_edge(Edge(source=source, target=target))
    assert document.snapshot() == chain()
    assert events == []


def test_add_edge_refuses_a_duplicate_id() -> None:
    document, events = listened(chain())
    with pytest.raises(ValueError, match="'a->b' already exists"):
        document.add_edge(Edge(id="a->b", source="c", target="d"))
    assert document.snapshot() == chain()
    assert events == []


@pytest.mark.parametrize(("edge_id", "index"), [("a->b", 0), ("b->c", 1)])
def test_remove_edge_returns_it_and_its_place(edge_id: str, index: int) -> None:
    document, events = listened(chain())
    removed = document.edge(edge_id)
    assert document.remove_edge(edge_id) == (removed, index)
    assert edge_id not in edge_ids(document)
    assert events == [DocumentEvent("edge_removed", (edge_id,))]
    document.add_edge(removed, index)
    assert document.snapshot() == chain()


def test_remove_edge_of_an_unknown_id_fails_and_changes_nothing() -> None:
    document, events = listened(chain())
    with pytest.raises(ValueError):
        document.remove_edge("zz")
    assert document.snapshot() == chain()
    assert events == []


def test_replace_edge_announces_a_changed_condition_only() -> None:
    document, events = listened(chain())
    conditional = Edge(source="a", target="b", condition=ALWAYS)
    document.replace_edge(conditional)
    document.replace_edge(conditional.model_copy())
    assert document.edge("a->b") == conditional
    assert edge_ids(document) == ["a->b", "b->c"]
    assert events == [DocumentEvent("edge_changed", ("a->b",))]


def test_replace_edge_of_an_unknown_id_fails() -> None:
    document, events = listened(chain())
    with pytest.raises(KeyError):
        document.replace_edge(Edge(source="c", target="d"))
    assert document.snapshot() == chain()
    assert events == []


# Workflow properties ------------------------------------------------------------------------


def test_set_properties_announces_the_changed_fields() -> None:
    document, events = listened(chain())
    document.set_properties(name="Renamed", timeout=30.0)
    assert (document.properties.name, document.properties.timeout) == ("Renamed", 30.0)
    assert document.snapshot().nodes == chain().nodes
    assert events == [DocumentEvent("workflow_changed", ("name", "timeout"))]


def test_set_properties_with_the_same_values_is_silent() -> None:
    document, events = listened(chain())
    document.set_properties(name="Chain", description="", timeout=None)
    document.set_properties()
    assert events == []


def test_set_properties_refuses_other_fields_and_changes_nothing() -> None:
    document, events = listened(chain())
    with pytest.raises(KeyError, match="nodes, status"):
        document.set_properties(name="Renamed", status="PUBLISHED", nodes=[])
    assert document.snapshot() == chain()
    assert events == []


def test_setting_the_previous_properties_restores_the_snapshot() -> None:
    document = WorkflowDocument(chain())
    before = {"name": document.properties.name, "category": document.properties.category}
    document.set_properties(name="Renamed", category="Support")
    document.set_properties(**before)
    assert document.snapshot() == chain()


# Everything at once -------------------------------------------------------------------------


def test_replace_all_returns_the_previous_snapshot_and_announces_a_reset() -> None:
    document, events = listened(chain())
    document.move_nodes({"a": Position(x=1.0, y=1.0)})
    edited = document.snapshot()
    events.clear()
    other = Workflow(name="Other", nodes=[make_node("x")])
    assert document.replace_all(other) == edited
    assert document.snapshot() == other
    assert node_ids(document) == ["x"]
    assert edge_ids(document) == []
    assert document.properties.name == "Other"
    assert events == [DocumentEvent("reset")]
    assert document.replace_all(edited) == other
    assert document.snapshot() == edited


# Listening ----------------------------------------------------------------------------------


def test_unsubscribe_stops_only_that_listener() -> None:
    document = WorkflowDocument(chain())
    first: list[DocumentEvent] = []
    second: list[DocumentEvent] = []
    stop_first = document.subscribe(first.append)
    document.subscribe(second.append)
    document.add_node(make_node("e"))
    stop_first()
    stop_first()  # a second call is harmless
    document.remove_node("e")
    assert first == [DocumentEvent("node_added", ("e",))]
    assert second == [
        DocumentEvent("node_added", ("e",)),
        DocumentEvent("node_removed", ("e",)),
    ]


def test_a_listener_may_unsubscribe_while_being_told() -> None:
    document = WorkflowDocument(chain())
    heard: list[DocumentEvent] = []
    stops: list[Callable[[], None]] = []

    def once(event: DocumentEvent) -> None:
        heard.append(event)
        stops[0]()

    stops.append(document.subscribe(once))
    later: list[DocumentEvent] = []
    document.subscribe(later.append)
    document.add_node(make_node("e"))
    document.remove_node("e")
    assert heard == [DocumentEvent("node_added", ("e",))]
    assert len(later) == 2


# Known defects: strict, so that the fix turns them into failures to clean up ---------------


def test_move_nodes_with_an_unknown_id_changes_nothing() -> None:
    document, events = listened(chain())
    with pytest.raises(KeyError):
        document.move_nodes({"a": Position(x=5.0, y=5.0), "zz": Position()})
    assert document.snapshot() == chain()
    assert events == []


def test_set_properties_refuses_invalid_values_and_changes_nothing() -> None:
    document, events = listened(chain())
    with pytest.raises(ValueError):
        document.set_properties(timeout=-1.0)
    assert document.snapshot() == chain()
    assert events == []


def test_replace_edge_refuses_a_missing_end() -> None:
    document, events = listened(chain())
    with pytest.raises(ValueError, match="missing node 'zz'"):
        document.replace_edge(Edge(id="a->b", source="a", target="zz"))
    assert document.snapshot() == chain()
    assert events == []


# Random edits undone ------------------------------------------------------------------------

Undo = Callable[[], object]
Step = tuple[Undo, list[DocumentEvent]]
"""How to undo an edit, and the events the edit should have announced."""

NAMES = st.sampled_from(["", "Draft", "Review", "Ünïcödé"])
COORDINATES = st.sampled_from([0.0, -1.5, 40.0])


def add_node(document: WorkflowDocument, data: st.DataObject) -> Step:
    node_id = document.unique_node_id(data.draw(st.sampled_from(["new", "a"]), label="base"))
    index = data.draw(st.integers(0, len(document.nodes) + 1), label="index")
    document.add_node(make_node(node_id, name=data.draw(NAMES, label="name")), index)
    assert node_ids(document).index(node_id) == min(index, len(document.nodes) - 1)
    return lambda: document.remove_node(node_id), [DocumentEvent("node_added", (node_id,))]


def remove_node(document: WorkflowDocument, data: st.DataObject) -> Step:
    touched = {end for edge in document.edges for end in (edge.source, edge.target)}
    free = [node_id for node_id in node_ids(document) if node_id not in touched]
    node_id = data.draw(st.sampled_from(free), label="node")
    node, index = document.remove_node(node_id)
    return lambda: document.add_node(node, index), [DocumentEvent("node_removed", (node_id,))]


def replace_node(document: WorkflowDocument, data: st.DataObject) -> Step:
    previous = document.node(data.draw(st.sampled_from(node_ids(document)), label="node"))
    changed = previous.model_copy(update={"name": data.draw(NAMES, label="name")})
    document.replace_node(changed)
    expected = [DocumentEvent("node_changed", (changed.id,))] if changed != previous else []
    return lambda: document.replace_node(previous), expected


def move_nodes(document: WorkflowDocument, data: st.DataObject) -> Step:
    chosen = data.draw(st.lists(st.sampled_from(node_ids(document)), unique=True), label="nodes")
    positions = {
        node_id: Position(x=data.draw(COORDINATES), y=data.draw(COORDINATES)) for node_id in chosen
    }
    previous = {node_id: document.node(node_id).position for node_id in chosen}
    moved = tuple(node_id for node_id in chosen if positions[node_id] != previous[node_id])
    document.move_nodes(positions)
    expected = [DocumentEvent("nodes_moved", moved)] if moved else []
    return lambda: document.move_nodes(previous), expected


def add_edge(document: WorkflowDocument, data: st.DataObject) -> Step:
    source = data.draw(st.sampled_from(node_ids(document)), label="source")
    target = data.draw(st.sampled_from(node_ids(document)), label="target")
    edge_id = document.unique_edge_id(source, target)
    index = data.draw(st.integers(0, len(document.edges)), label="index")
    document.add_edge(Edge(id=edge_id, source=source, target=target), index)
    assert edge_ids(document).index(edge_id) == index
    return lambda: document.remove_edge(edge_id), [DocumentEvent("edge_added", (edge_id,))]


def remove_edge(document: WorkflowDocument, data: st.DataObject) -> Step:
    edge_id = data.draw(st.sampled_from(edge_ids(document)), label="edge")
    edge, index = document.remove_edge(edge_id)
    return lambda: document.add_edge(edge, index), [DocumentEvent("edge_removed", (edge_id,))]


def replace_edge(document: WorkflowDocument, data: st.DataObject) -> Step:
    previous = document.edge(data.draw(st.sampled_from(edge_ids(document)), label="edge"))
    condition = data.draw(st.sampled_from([None, ALWAYS]), label="condition")
    changed = previous.model_copy(update={"condition": condition})
    document.replace_edge(changed)
    expected = [DocumentEvent("edge_changed", (changed.id,))] if changed != previous else []
    return lambda: document.replace_edge(previous), expected


def set_properties(document: WorkflowDocument, data: st.DataObject) -> Step:
    changes = data.draw(
        st.fixed_dictionaries(
            {},
            optional={
                "name": NAMES,
                "description": NAMES,
                "category": NAMES,
                "timeout": st.sampled_from([None, 5.0, 60.0]),
            },
        ),
        label="changes",
    )
    previous = {key: getattr(document.properties, key) for key in changes}
    changed = sorted(key for key in changes if changes[key] != previous[key])
    document.set_properties(**changes)
    # Which unchanged fields join the changed ones in the event is left open.
    expected = [DocumentEvent("workflow_changed", tuple(changed))] if changed else []
    return lambda: document.set_properties(**previous), expected


def replace_all(document: WorkflowDocument, data: st.DataObject) -> Step:
    other = data.draw(st.sampled_from([Workflow(), chain()]), label="workflow")
    previous = document.replace_all(other)
    return lambda: document.replace_all(previous), [DocumentEvent("reset")]


def edits(document: WorkflowDocument) -> list[Callable[[WorkflowDocument, st.DataObject], Step]]:
    """The edits that make sense on the document as it is now."""
    available = [add_node, set_properties, replace_all]
    if document.nodes:
        available += [replace_node, move_nodes, add_edge]
    if document.edges:
        available += [remove_edge, replace_edge]
    touched = {end for edge in document.edges for end in (edge.source, edge.target)}
    if any(node_id not in touched for node_id in node_ids(document)):
        available.append(remove_node)
    return available


def same_events(heard: list[DocumentEvent], expected: list[DocumentEvent]) -> bool:
    """Equal, except that a properties event may also name fields set to their old value."""
    if len(heard) != len(expected):
        return False
    return all(
        got == wanted
        or (got.kind == wanted.kind == "workflow_changed" and set(wanted.ids) <= set(got.ids))
        for got, wanted in zip(heard, expected, strict=True)
    )


@settings(max_examples=150, deadline=None)
@given(workflows(max_nodes=5), st.data())
def test_undoing_random_edits_in_reverse_restores_the_original(
    workflow: Workflow, data: st.DataObject
) -> None:
    document, events = listened(workflow)
    original = document.snapshot()
    assert original == workflow
    undo: list[tuple[Undo, Workflow]] = []
    for _ in range(data.draw(st.integers(1, 12), label="steps")):
        before = document.snapshot()
        edit = data.draw(st.sampled_from(edits(document)), label="edit")
        events.clear()
        step, expected = edit(document, data)
        assert same_events(events, expected), (edit.__name__, events, expected)
        undo.append((step, before))
    for step, before in reversed(undo):
        step()
        assert document.snapshot() == before
    assert document.snapshot() == original
