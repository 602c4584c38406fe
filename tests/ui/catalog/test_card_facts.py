"""What a card says and what the search box finds: pure rules, no window."""

from studio.model import Workflow
from studio.model.workflow import Node
from studio.ui.catalog.catalog_model import categories_of, facts_of, matches


def blueprint(category: str, *agents: str) -> Workflow:
    nodes = [Node(id=f"n{i}", agent_id=agent) for i, agent in enumerate(agents)]
    return Workflow(name="Triage", description="Sort  the\nmail", category=category, nodes=nodes)


def test_a_placeholder_agent_means_the_blueprint_needs_remapping() -> None:
    assert facts_of(blueprint("ops", "placeholder-sorter", "demo-echo-agent"), 0).needs_remapping
    assert not facts_of(blueprint("ops", "demo-echo-agent"), 0).needs_remapping


def test_search_finds_words_in_name_description_category_and_agents() -> None:
    card = facts_of(blueprint("operations", "mail-sorter"), 0)
    assert card.description == "Sort the mail" and card.node_count == 1
    for text in ("triage", "SORT mail", "operations", "mail-sorter", ""):
        assert matches(card, "", text), text
    assert not matches(card, "", "triage billing")
    assert matches(card, "operations", "triage") and not matches(card, "billing", "triage")


def test_categories_are_listed_once_in_order_without_blanks() -> None:
    cards = [facts_of(blueprint(c), i) for i, c in enumerate(["ops", "", "Data", "ops"])]
    assert categories_of(cards) == ["Data", "ops"]
