"""Merging a newer blueprint version into a workflow imported from an older one."""

from collections.abc import Iterable

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from studio.model import Edge, EdgeCondition, Node, NodeConfiguration, Position, Workflow
from studio.model.blueprint_changes import (
    Change,
    describe_changes,
    node_data,
    related,
    same,
    value_at,
)
from studio.model.blueprint_merge import Conflict, merge_blueprint_update
from studio.model.graph import find_cycle
from studio.model.problems import has_errors
from studio.model.structure import reference_problems
from tests.model.workflow_strategies import workflows


def blueprint() -> Workflow:
    """Version 1 of a support triage blueprint."""
    return Workflow(
        name="Support triage",
        version=1,
        is_blueprint=True,
        status="PUBLISHED",
        nodes=[
            Node(id="intake", agent_id="intake-agent", name="Intake"),
            Node(
                id="classify",
                agent_id="classifier",
                name="Classify request",
                position=Position(x=280, y=0),
                configuration=NodeConfiguration(
                    model_override="gpt-4o", parameters={"threshold": 0.5}
                ),
            ),
            Node(id="reply", agent_id="writer", name="Draft reply", position=Position(x=560)),
            Node(id="escalate", agent_id="pager", name="Escalate", position=Position(x=560, y=140)),
        ],
        edges=[
            Edge(source="intake", target="classify"),
            Edge(
                source="classify",
                target="reply",
                condition=EdgeCondition(field="priority", operator="equals", value="low"),
            ),
        ],
    )


def imported(base: Workflow) -> Workflow:
    """The copy a designer imported into an app, before any local edit."""
    return base.model_copy(
        update={
            "id": "wf-1",
            "name": "Support triage (Copy)",
            "status": "DRAFT",
            "app_id": "app-1",
            "version": 4,
            "is_blueprint": False,
        }
    )


def edited_node(workflow: Workflow, node_id: str, **fields: object) -> Workflow:
    """The workflow with one node's fields replaced."""
    nodes = [
        node.model_copy(update=fields) if node.id == node_id else node for node in workflow.nodes
    ]
    return workflow.model_copy(update={"nodes": nodes})


def with_parameters(workflow: Workflow, node_id: str, **changes: object) -> Workflow:
    """The workflow with a node's configuration fields replaced."""
    node = workflow.node(node_id)
    assert node is not None
    configuration = node.configuration.model_copy(update=changes)
    return edited_node(workflow, node_id, configuration=configuration)


def without_node(workflow: Workflow, node_id: str) -> Workflow:
    """The workflow without a node and its edges."""
    return workflow.model_copy(
        update={
            "nodes": [node for node in workflow.nodes if node.id != node_id],
            "edges": [edge for edge in workflow.edges if node_id not in (edge.source, edge.target)],
        }
    )


def with_edge(workflow: Workflow, edge: Edge) -> Workflow:
    """The workflow with one more edge."""
    return workflow.model_copy(update={"edges": [*workflow.edges, edge]})


def texts(items: Iterable[Change | Conflict]) -> list[str]:
    """Each change or conflict as its one line."""
    return [item.describe() for item in items]


def assert_sound(workflow: Workflow) -> None:
    """The workflow passes the model's own structural validation."""
    problems = reference_problems(workflow)
    assert not has_errors(problems), problems


HIGH_PRIORITY = EdgeCondition(field="priority", operator="equals", value="high")


def test_blueprint_changes_and_a_local_edit_elsewhere_are_both_kept() -> None:
    base = blueprint()
    theirs = with_parameters(base, "classify", parameters={"threshold": 0.7})
    theirs = with_edge(theirs, Edge(source="classify", target="escalate", condition=HIGH_PRIORITY))
    ours = edited_node(imported(base), "reply", timeout=30.0)

    result = merge_blueprint_update(base, theirs, ours)

    merged = result.merged
    classify = merged.node("classify")
    assert classify is not None and classify.configuration.parameters == {"threshold": 0.7}
    assert [(edge.source, edge.target) for edge in merged.edges][-1] == ("classify", "escalate")
    assert merged.edges[-1].condition == HIGH_PRIORITY
    reply = merged.node("reply")
    assert reply is not None and reply.timeout == 30.0
    assert texts(result.blueprint_changes) == [
        "Node 'Classify request': parameter 'threshold' 0.5 → 0.7",
        "Edge 'Classify request' → 'Escalate': added (when priority = \"high\")",
    ]
    assert texts(result.local_edits) == ["Node 'Draft reply': timeout none → 30"]
    assert result.conflicts == ()
    assert_sound(merged)


def test_the_merged_workflow_keeps_its_own_identity() -> None:
    base = blueprint()
    theirs = base.model_copy(update={"name": "Support triage v2", "version": 2})
    ours = imported(base)

    merged = merge_blueprint_update(base, theirs, ours).merged

    identity = ("id", "name", "status", "app_id", "version", "is_blueprint")
    assert {field: getattr(merged, field) for field in identity} == {
        "id": "wf-1",
        "name": "Support triage (Copy)",
        "status": "DRAFT",
        "app_id": "app-1",
        "version": 4,
        "is_blueprint": False,
    }


def test_a_field_changed_on_both_sides_keeps_the_local_value_and_is_listed() -> None:
    base = blueprint()
    theirs = with_parameters(base, "classify", model_override="gpt-4.1")
    theirs = edited_node(theirs, "reply", agent_id="writer-v2")
    ours = with_parameters(imported(base), "classify", model_override="gpt-4o-mini")

    result = merge_blueprint_update(base, theirs, ours)

    classify = result.merged.node("classify")
    assert classify is not None and classify.configuration.model_override == "gpt-4o-mini"
    reply = result.merged.node("reply")
    assert reply is not None and reply.agent_id == "writer-v2"
    assert texts(result.conflicts) == [
        "Node 'Classify request': model override: the blueprint has gpt-4.1, this workflow "
        "gpt-4o-mini; the local value is kept"
    ]
    change, other = result.blueprint_changes
    assert change.describe() == "Node 'Classify request': model override gpt-4o → gpt-4.1"
    assert result.conflicts_with(change) == result.conflicts
    assert result.conflicts_with(other) == ()
    assert result.conflicts_with(result.local_edits[0]) == result.conflicts


def test_the_same_change_on_both_sides_is_no_conflict() -> None:
    base = blueprint()
    theirs = with_parameters(base, "classify", model_override="gpt-4.1")
    ours = with_parameters(imported(base), "classify", model_override="gpt-4.1")

    result = merge_blueprint_update(base, theirs, ours)

    assert result.conflicts == ()
    assert result.merged == ours


def test_different_keys_of_one_mapping_merge_key_by_key() -> None:
    base = blueprint()
    theirs = with_parameters(base, "classify", parameters={"threshold": 0.7})
    ours = with_parameters(
        imported(base), "classify", parameters={"threshold": 0.5, "tone": "warm"}
    )

    result = merge_blueprint_update(base, theirs, ours)

    classify = result.merged.node("classify")
    assert classify is not None
    assert classify.configuration.parameters == {"threshold": 0.7, "tone": "warm"}
    assert result.conflicts == ()


def test_a_node_removed_locally_that_the_blueprint_changed_is_a_conflict() -> None:
    base = blueprint()
    theirs = edited_node(base, "escalate", agent_id="pager-v2")
    ours = without_node(imported(base), "escalate")

    result = merge_blueprint_update(base, theirs, ours)

    assert result.merged.node("escalate") is None
    assert texts(result.conflicts) == [
        "Node 'Escalate': removed here, but the blueprint changes it; it stays removed"
    ]
    assert result.conflicts_with(result.blueprint_changes[0]) == result.conflicts
    assert_sound(result.merged)


def test_a_node_the_blueprint_removed_that_was_edited_locally_is_kept_with_its_edges() -> None:
    base = blueprint()
    theirs = without_node(base, "reply")
    ours = edited_node(imported(base), "reply", name="Write the reply")

    result = merge_blueprint_update(base, theirs, ours)

    assert result.merged.node("reply") is not None
    assert ("classify", "reply") in [(edge.source, edge.target) for edge in result.merged.edges]
    assert texts(result.conflicts) == [
        "Node 'Write the reply': the blueprint removes it, but it was edited here; it is kept"
    ]


def test_a_node_the_blueprint_removed_goes_with_its_edges_when_unedited() -> None:
    base = blueprint()
    ours = imported(base)

    result = merge_blueprint_update(base, without_node(base, "reply"), ours)

    assert result.merged.node("reply") is None
    assert [(edge.source, edge.target) for edge in result.merged.edges] == [("intake", "classify")]
    assert result.conflicts == ()
    assert texts(result.blueprint_changes) == [
        "Node 'Draft reply': removed",
        "Edge 'Classify request' → 'Draft reply': removed",
    ]


def test_a_blueprint_edge_to_a_node_removed_locally_is_dropped_and_listed() -> None:
    base = blueprint()
    theirs = with_edge(base, Edge(source="classify", target="escalate", condition=HIGH_PRIORITY))
    ours = without_node(imported(base), "escalate")

    result = merge_blueprint_update(base, theirs, ours)

    assert ("classify", "escalate") not in [(e.source, e.target) for e in result.merged.edges]
    assert texts(result.conflicts) == [
        "Edge 'Classify request' → 'Escalate': dropped: node 'Escalate' is no longer in the "
        "workflow"
    ]
    assert_sound(result.merged)


def test_a_local_edge_to_a_node_the_blueprint_removed_is_dropped_and_listed() -> None:
    base = blueprint()
    theirs = without_node(base, "escalate")
    ours = with_edge(imported(base), Edge(source="reply", target="escalate"))

    result = merge_blueprint_update(base, theirs, ours)

    assert result.merged.node("escalate") is None
    assert [(edge.source, edge.target) for edge in result.merged.edges] == [
        ("intake", "classify"),
        ("classify", "reply"),
    ]
    assert texts(result.conflicts) == [
        "Edge 'Draft reply' → 'Escalate': dropped: node 'Escalate' is no longer in the workflow"
    ]
    assert_sound(result.merged)


def test_a_blueprint_edge_that_would_close_a_loop_with_local_edges_is_not_added() -> None:
    base = blueprint()
    theirs = with_edge(base, Edge(source="escalate", target="reply"))
    ours = with_edge(imported(base), Edge(source="reply", target="escalate"))

    result = merge_blueprint_update(base, theirs, ours)

    assert ("escalate", "reply") not in [(e.source, e.target) for e in result.merged.edges]
    assert texts(result.conflicts) == [
        "Edge 'Escalate' → 'Draft reply': from the blueprint, not added: with the local edges it "
        "would close a loop"
    ]
    assert_sound(result.merged)


def test_an_added_edge_whose_id_is_taken_locally_gets_a_free_one() -> None:
    base = blueprint()
    theirs = with_edge(base, Edge(id="route", source="classify", target="escalate"))
    ours = with_edge(imported(base), Edge(id="route", source="intake", target="escalate"))

    merged = merge_blueprint_update(base, theirs, ours).merged

    assert [edge.id for edge in merged.edges][-2:] == ["route", "route-2"]
    assert_sound(merged)


def test_a_condition_changed_by_the_blueprint_is_applied_and_described() -> None:
    base = blueprint()
    medium = EdgeCondition(field="priority", operator="notEquals", value="high")
    theirs = base.model_copy(
        update={"edges": [base.edges[0], base.edges[1].model_copy(update={"condition": medium})]}
    )

    result = merge_blueprint_update(base, theirs, imported(base))

    assert result.merged.edges[1].condition == medium
    assert texts(result.blueprint_changes) == [
        "Edge 'Classify request' → 'Draft reply': condition when priority = \"low\" → when "
        'priority ≠ "high"'
    ]


def test_workflow_settings_merge_field_by_field() -> None:
    base = blueprint()
    theirs = base.model_copy(
        update={"configuration": base.configuration.model_copy(update={"model_override": "o3"})}
    )
    ours = imported(base).model_copy(
        update={"configuration": base.configuration.model_copy(update={"parameters": {"a": 1}})}
    )

    result = merge_blueprint_update(base, theirs, ours)

    assert result.merged.configuration.model_override == "o3"
    assert result.merged.configuration.parameters == {"a": 1}
    assert texts(result.blueprint_changes) == ["Workflow settings: model override none → o3"]
    assert texts(result.local_edits) == ["Workflow settings: parameter 'a' not set → 1"]


def test_no_change_on_either_side_gives_ours_unchanged() -> None:
    base = blueprint()
    ours = imported(base)

    result = merge_blueprint_update(base, base, ours)

    assert result.merged == ours
    assert result.blueprint_changes == result.local_edits == result.conflicts == ()


def test_local_edits_alone_are_kept_as_they_are() -> None:
    base = blueprint()
    ours = with_edge(
        edited_node(imported(base), "reply", position=Position(x=9, y=9)),
        Edge(source="reply", target="escalate"),
    )

    result = merge_blueprint_update(base, base, ours)

    assert result.merged == ours
    assert result.blueprint_changes == ()


def test_an_added_node_is_placed_beside_its_neighbours_as_they_sit_locally() -> None:
    base = blueprint()
    notify = Node(id="notify", agent_id="mailer", name="Notify", position=Position(x=840, y=0))
    theirs = base.model_copy(update={"nodes": [*base.nodes, notify]})
    theirs = with_edge(theirs, Edge(source="reply", target="notify"))
    ours = edited_node(imported(base), "reply", position=Position(x=1060, y=400))

    merged = merge_blueprint_update(base, theirs, ours).merged

    placed = merged.node("notify")
    assert placed is not None and placed.position == Position(x=1340, y=400)
    assert [node.position for node in merged.nodes[:4]] == [node.position for node in ours.nodes]


def test_an_added_node_is_moved_clear_of_a_local_node_in_its_spot() -> None:
    base = blueprint()
    lonely = Node(id="audit", agent_id="auditor", position=Position(x=560, y=280))
    theirs = base.model_copy(update={"nodes": [*base.nodes, lonely]})
    ours = edited_node(imported(base), "escalate", position=Position(x=600, y=300))

    placed = merge_blueprint_update(base, theirs, ours).merged.node("audit")

    assert placed is not None and placed.position == Position(x=560, y=280 + 96)


def test_changes_name_nodes_alike_in_both_lists_when_renamed_locally() -> None:
    base = blueprint()
    theirs = edited_node(base, "classify", agent_id="classifier-v2")
    ours = edited_node(imported(base), "classify", name="Sort tickets")

    result = merge_blueprint_update(base, theirs, ours)

    assert texts(result.blueprint_changes) == [
        "Node 'Sort tickets': agent classifier → classifier-v2"
    ]
    assert texts(result.local_edits) == [
        "Node 'Sort tickets': name Classify request → Sort tickets"
    ]
    assert describe_changes(base, theirs)[0].place == "Node 'Classify request'"


# Random edits on both sides -------------------------------------------------------------------

NEW_NODE_IDS = ("added-a", "added-b", "added-c")
"""Ids both sides may add, so that some draws add the same node on both sides."""


@st.composite
def edited(draw: st.DrawFn, workflow: Workflow) -> Workflow:
    """The workflow after a few random edits that keep it sound."""
    for _ in range(draw(st.integers(min_value=0, max_value=5))):
        edit = draw(st.sampled_from(EDITS))
        workflow = edit(draw, workflow)
    return workflow


def _remove_node(draw: st.DrawFn, workflow: Workflow) -> Workflow:
    if not workflow.nodes:
        return workflow
    return without_node(workflow, draw(st.sampled_from(workflow.nodes)).id)


def _add_node(draw: st.DrawFn, workflow: Workflow) -> Workflow:
    node_id = draw(st.sampled_from(NEW_NODE_IDS))
    if workflow.node(node_id) is not None:
        return workflow
    position = Position(x=draw(st.integers(-500, 500)), y=draw(st.integers(-500, 500)))
    node = Node(id=node_id, agent_id=draw(st.sampled_from(("a", "b"))), position=position)
    return workflow.model_copy(update={"nodes": [*workflow.nodes, node]})


def _edit_node(draw: st.DrawFn, workflow: Workflow) -> Workflow:
    if not workflow.nodes:
        return workflow
    node = draw(st.sampled_from(workflow.nodes))
    field = draw(st.sampled_from(("agent_id", "name", "timeout", "model", "parameter", "moved")))
    value = draw(st.sampled_from(("x", "y")))
    if field == "model":
        return with_parameters(workflow, node.id, model_override=value)
    if field == "parameter":
        parameters = {**node.configuration.parameters, value: draw(st.integers(0, 2))}
        return with_parameters(workflow, node.id, parameters=parameters)
    if field == "timeout":
        return edited_node(workflow, node.id, timeout=draw(st.sampled_from((5.0, 9.0))))
    if field == "moved":
        return edited_node(workflow, node.id, position=Position(x=draw(st.integers(0, 900))))
    return edited_node(workflow, node.id, **{field: value})


def _add_edge(draw: st.DrawFn, workflow: Workflow) -> Workflow:
    if len(workflow.nodes) < 2:
        return workflow
    source, target = draw(st.permutations(workflow.nodes))[:2]
    pairs = {(edge.source, edge.target) for edge in workflow.edges}
    links = [*pairs, (source.id, target.id)]
    if (source.id, target.id) in pairs or find_cycle([n.id for n in workflow.nodes], links):
        return workflow
    edge_id = draw(st.sampled_from(("e-1", "e-2", f"{source.id}->{target.id}")))
    if edge_id in {edge.id for edge in workflow.edges}:
        return workflow
    return with_edge(workflow, Edge(id=edge_id, source=source.id, target=target.id))


def _edit_edge(draw: st.DrawFn, workflow: Workflow) -> Workflow:
    if not workflow.edges:
        return workflow
    chosen = draw(st.sampled_from(workflow.edges))
    condition = draw(st.sampled_from((None, HIGH_PRIORITY)))
    removed = draw(st.booleans())
    edges = [
        edge.model_copy(update={"condition": condition}) if edge is chosen else edge
        for edge in workflow.edges
        if not (removed and edge is chosen)
    ]
    return workflow.model_copy(update={"edges": edges})


def _edit_settings(draw: st.DrawFn, workflow: Workflow) -> Workflow:
    update = {"model_override": draw(st.sampled_from(("x", "y", None)))}
    if draw(st.booleans()):
        update = {"parameters": {draw(st.sampled_from(("p", "q"))): draw(st.integers(0, 2))}}
    configuration = workflow.configuration.model_copy(update=update)
    return workflow.model_copy(update={"configuration": configuration})


EDITS = (_remove_node, _add_node, _edit_node, _add_edge, _edit_edge, _edit_settings)


@st.composite
def merges(draw: st.DrawFn) -> tuple[Workflow, Workflow, Workflow]:
    """A sound base, and two sound versions edited from it independently."""
    base = draw(workflows(max_nodes=5))
    return base, draw(edited(base)), imported(draw(edited(base)))


MERGE_SETTINGS = settings(max_examples=100, deadline=None)


@MERGE_SETTINGS
@given(merges())
def test_a_merge_of_sound_workflows_is_sound(versions: tuple[Workflow, Workflow, Workflow]) -> None:
    base, theirs, ours = versions
    for version in versions:
        assert_sound(version)

    merged = merge_blueprint_update(base, theirs, ours).merged

    assert_sound(merged)
    identity = ("id", "name", "status", "app_id", "org_id", "version", "is_blueprint")
    assert all(getattr(merged, field) == getattr(ours, field) for field in identity)
    kept = {node.id: node.position for node in merged.nodes}
    assert all(kept[node.id] == node.position for node in ours.nodes if node.id in kept)


@MERGE_SETTINGS
@given(merges())
def test_without_conflicts_the_merge_has_both_sides_changes(
    versions: tuple[Workflow, Workflow, Workflow],
) -> None:
    base, theirs, ours = versions

    result = merge_blueprint_update(base, theirs, ours)

    assume(not result.conflicts)
    assert covered(describe_changes(theirs, result.merged), result.local_edits)
    assert covered(describe_changes(ours, result.merged), result.blueprint_changes)


def covered(differences: list[Change], changes: tuple[Change, ...]) -> bool:
    """Whether every difference concerns one of the changes (a node added locally covers
    each of its fields)."""
    return all(any(related(d.key, c.key) for c in changes) for d in differences)


@MERGE_SETTINGS
@given(merges())
def test_an_unchanged_side_gives_the_other(versions: tuple[Workflow, Workflow, Workflow]) -> None:
    base, theirs, ours = versions

    untouched = merge_blueprint_update(base, base, ours)
    updated = merge_blueprint_update(base, theirs, imported(base))

    assert untouched.merged == ours
    assert untouched.conflicts == updated.conflicts == ()
    assert describe_changes(theirs, updated.merged) == []


@MERGE_SETTINGS
@given(merges())
def test_conflicting_fields_keep_the_local_value(
    versions: tuple[Workflow, Workflow, Workflow],
) -> None:
    base, theirs, ours = versions

    result = merge_blueprint_update(base, theirs, ours)

    for conflict in result.conflicts:
        kind, *rest = conflict.key
        if kind == "node" and len(rest) > 1:
            merged_node, our_node = result.merged.node(rest[0]), ours.node(rest[0])
            assert merged_node is not None and our_node is not None
            path = tuple(rest[1:])
            assert same(value_at(node_data(merged_node), path), value_at(node_data(our_node), path))
