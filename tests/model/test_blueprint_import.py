"""Importing a blueprint, the pure part: its placeholder slots, the agents suggested for
each, the copy with the slots mapped and the copy's name."""

from pathlib import Path

import pytest

from studio.model import AgentDefinition, Node, Workflow, load_blueprint_folder
from studio.model.blueprint_import import (
    UnknownSlotError,
    copy_name,
    placeholder_slots,
    remapped,
    slot_words,
    suggested_agents,
)

REPO_ROOT = Path(__file__).resolve().parents[2]


def workflow(*agents: str) -> Workflow:
    nodes = [Node(id=f"n{number}", agent_id=agent) for number, agent in enumerate(agents)]
    return Workflow(name="flow", nodes=nodes)


def agent(agent_id: str, name: str, description: str = "") -> AgentDefinition:
    return AgentDefinition(id=agent_id, name=name, kind="echo", description=description)


def test_slots_are_the_distinct_placeholders_in_node_order() -> None:
    flow = workflow("placeholder-b", "real", "placeholder-a", "placeholder-b")
    assert placeholder_slots(flow) == ["placeholder-b", "placeholder-a"]


def test_a_workflow_without_placeholders_has_no_slots() -> None:
    assert placeholder_slots(workflow("real", "other")) == []


def test_the_conditional_router_seed_has_three_slots() -> None:
    blueprints, _failures = load_blueprint_folder(REPO_ROOT / "blueprints")
    router = next(b for b in blueprints if b.slug == "conditional-router")
    assert placeholder_slots(router.workflow) == [
        "placeholder-classifier",
        "placeholder-fulfiller",
        "placeholder-responder",
    ]


def test_seed_blueprints_are_published_blueprints_named_by_their_slug() -> None:
    blueprints, _failures = load_blueprint_folder(REPO_ROOT / "blueprints")
    assert {(b.workflow.status, b.workflow.is_blueprint) for b in blueprints} == {
        ("PUBLISHED", True)
    }
    assert all(b.workflow.id == b.slug and b.workflow.version == 1 for b in blueprints)


def test_slot_words_are_what_a_person_reads() -> None:
    assert slot_words("placeholder-data_loader") == "data loader"


def test_the_agent_closest_by_id_comes_first() -> None:
    agents = [agent("echo", "Echo"), agent("ticket-classifier", "Tickets"), agent("zzz", "Z")]
    assert suggested_agents("placeholder-classifier", agents)[0] == "ticket-classifier"


def test_the_description_counts_when_the_names_say_nothing() -> None:
    agents = [
        agent("alpha", "Alpha", "Sends the reply to the customer."),
        agent("beta", "Beta", "Classifies each message by intent."),
    ]
    assert suggested_agents("placeholder-classifier", agents) == ["beta", "alpha"]


def test_every_real_agent_is_suggested_and_no_placeholder() -> None:
    agents = [agent("a", "A"), agent("placeholder-x", "X"), agent("b", "B")]
    assert sorted(suggested_agents("placeholder-q", agents)) == ["a", "b"]


def test_remapping_replaces_each_mapped_slot_and_leaves_the_original_alone() -> None:
    flow = workflow("placeholder-a", "real", "placeholder-a", "placeholder-b")
    copy = remapped(flow, {"placeholder-a": "echo"})
    assert [node.agent_id for node in copy.nodes] == ["echo", "real", "echo", "placeholder-b"]
    assert flow.nodes[0].agent_id == "placeholder-a"
    assert copy.nodes[0] is not flow.nodes[0]


def test_a_blank_agent_leaves_the_slot_unmapped() -> None:
    copy = remapped(workflow("placeholder-a"), {"placeholder-a": ""})
    assert placeholder_slots(copy) == ["placeholder-a"]


def test_a_mapping_key_that_is_no_slot_is_an_error_naming_it() -> None:
    flow = workflow("placeholder-a")
    with pytest.raises(UnknownSlotError, match="no placeholder 'placeholder-z'") as raised:
        remapped(flow, {"placeholder-a": "echo", "placeholder-z": "echo"})
    assert raised.value.slots == ["placeholder-z"]


def test_the_first_copy_is_named_copy() -> None:
    assert copy_name("Router", set()) == "Router (Copy)"


def test_later_copies_are_numbered_from_2() -> None:
    taken = {"Router (Copy)", "Router (Copy 2)"}
    assert copy_name("Router", taken) == "Router (Copy 3)"
    assert copy_name("Router", {"Router (Copy 2)"}) == "Router (Copy)"
