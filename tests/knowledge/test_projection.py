"""The knowledge graph as a view draws it: layers, hidden neighbours, lineage and diff."""

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest

from studio.knowledge.projection import (
    Projection,
    UnknownNodeError,
    ViewOptions,
    diff,
    lineage,
    neighbourhood,
    project,
)
from studio.model.knowledge import (
    ARTIFACT,
    SECTION,
    UNIT,
    ArtifactVersion,
    FrontMatter,
    GraphEdge,
    GraphNode,
)

SHOP = "shop"


@dataclass
class Corpus:
    """Head versions and the rows derived from them, built by hand one artifact at a time."""

    versions: list[ArtifactVersion] = field(default_factory=list)
    nodes: list[GraphNode] = field(default_factory=list)
    edges: list[GraphEdge] = field(default_factory=list)

    def artifact(
        self, artifact_id: str, day: int, execution: str, kind: str = "", subject: str = SHOP
    ) -> ArtifactVersion:
        """Land a head version with its artifact node and the run that produced it."""
        kind = kind or artifact_id
        created = datetime(2026, 9, day, tzinfo=UTC)
        ref = f"{subject}/{kind}/2026-09-{day:02d}-{artifact_id}.md"
        front = FrontMatter(
            artifact_id, kind, subject, artifact_id.title(), {"execution": execution}, created
        )
        version = ArtifactVersion(ref, front, "0" * 64, created)
        self.versions.append(version)
        self.nodes.append(GraphNode(artifact_id, ARTIFACT, front.title, subject, ref))
        self.nodes.append(GraphNode(f"run:{execution}", "run", execution, subject, ref))
        self.link(version, f"run:{execution}", "PRODUCES", artifact_id)
        return version

    def item(
        self, version: ArtifactVersion, key: str, node_type: str, label: str = "", **data: Any
    ) -> None:
        """A node written in the version's artifact, contained in it."""
        node = GraphNode(key, node_type, label or key, version.subject, version.ref, data)
        self.nodes.append(node)
        contains = "HAS_SECTION" if node_type == SECTION else "HAS_ITEM"
        self.link(version, version.artifact_id, contains, key)

    def link(self, version: ArtifactVersion, source: str, edge_type: str, target: str) -> None:
        """An edge written in the version."""
        self.edges.append(GraphEdge(source, edge_type, target, version.subject, version.ref))

    def view(self, **options: Any) -> Projection:
        """The projection of everything built so far."""
        return project(self.versions, self.nodes, self.edges, ViewOptions(**options))


def shop(revised: bool = False) -> Corpus:
    """Requirements, stories that cover and cite them, and a plan whose unit implements one.

    Revised: the requirements are rewritten on day 4 by another run; REQ-1 changes priority,
    REQ-2 is dropped and REQ-3 added.
    """
    corpus = Corpus()
    if revised:
        requirements = corpus.artifact("requirements", 4, "e3")
        corpus.item(
            requirements, "REQ-1", "requirement", "Guest checkout", id="REQ-1", priority="should"
        )
        corpus.item(requirements, "REQ-3", "requirement", "Wallets", id="REQ-3")
    else:
        requirements = corpus.artifact("requirements", 1, "e1")
        corpus.item(
            requirements, "REQ-1", "requirement", "Guest checkout", id="REQ-1", priority="must"
        )
        corpus.item(requirements, "REQ-2", "requirement", "Cart survives", id="REQ-2")
    corpus.item(requirements, "requirements#scope", SECTION, "Scope", anchor="scope")
    stories = corpus.artifact("stories", 2, "e1")
    corpus.item(stories, "ST-1", "story", "Pay as a guest", id="ST-1")
    corpus.item(stories, "ST-2", "story", "Keep my cart", id="ST-2")
    corpus.link(stories, "ST-1", "COVERS", "REQ-1")
    corpus.link(stories, "ST-2", "COVERS", "REQ-2")
    corpus.link(stories, "stories", "DERIVED_FROM", "requirements")
    corpus.link(stories, "stories", "CITES", "kind:requirements")
    corpus.link(stories, "stories", "CITES", "kind:personas")
    plan = corpus.artifact("plan", 3, "e2", kind="unit-plan")
    corpus.item(plan, "unit:pay", UNIT, "Guest payment", slug="pay")
    corpus.link(plan, "unit:pay", "DERIVED_FROM", "plan")
    corpus.link(plan, "ST-1", "IMPLEMENTS", "unit:pay")
    return corpus


def ids(projection: Projection) -> set[str]:
    return set(projection.graph.nodes)


def edges(projection: Projection) -> set[tuple[str, str, str]]:
    return set(projection.edge_keys())


def test_default_view_shows_artifacts_and_runs_and_counts_what_it_hides() -> None:
    view = shop().view()
    assert ids(view) == {
        "shop/requirements",
        "shop/stories",
        "shop/plan",
        "shop/run:e1",
        "shop/run:e2",
    }
    assert edges(view) == {
        ("shop/run:e1", "PRODUCES", "shop/requirements"),
        ("shop/run:e1", "PRODUCES", "shop/stories"),
        ("shop/run:e2", "PRODUCES", "shop/plan"),
        ("shop/stories", "DERIVED_FROM", "shop/requirements"),
        ("shop/stories", "CITES", "shop/requirements"),
    }
    # Two requirements and a section; two stories; one unit; runs hide nothing.
    assert view.hidden_neighbours("shop/requirements") == 3
    assert view.hidden_neighbours("shop/stories") == 2
    assert view.hidden_neighbours("shop/plan") == 1  # held and derived from: one neighbour
    assert view.hidden_neighbours("shop/run:e1") == 0


def test_items_appear_when_asked_and_units_stay_hidden() -> None:
    view = shop().view(items=True)
    assert {"shop/REQ-1", "shop/REQ-2", "shop/ST-1", "shop/ST-2"} <= ids(view)
    assert "shop/unit:pay" not in ids(view)
    assert ("shop/ST-1", "COVERS", "shop/REQ-1") in edges(view)
    assert view.hidden_neighbours("shop/ST-1") == 1  # the unit implementing it
    assert view.hidden_neighbours("shop/requirements") == 1  # the section
    assert view.hidden_neighbours("shop/plan") == 1  # the unit


def test_units_appear_when_asked_with_their_links() -> None:
    view = shop().view(items=True, units=True)
    assert "shop/unit:pay" in ids(view)
    assert ("shop/ST-1", "IMPLEMENTS", "shop/unit:pay") in edges(view)
    assert view.hidden_neighbours("shop/ST-1") == 0
    assert view.hidden_neighbours("shop/plan") == 0


def test_sections_appear_only_when_asked() -> None:
    assert "shop/requirements#scope" not in ids(shop().view(items=True, units=True))
    view = shop().view(sections=True)
    assert "shop/requirements#scope" in ids(view)
    assert ("shop/requirements", "HAS_SECTION", "shop/requirements#scope") in edges(view)
    assert view.hidden_neighbours("shop/requirements") == 2


def test_rows_of_versions_not_given_are_left_out() -> None:
    corpus = shop()
    stale = "shop/requirements/2026-08-01-requirements.md"
    corpus.nodes.append(GraphNode("REQ-0", "requirement", "Old", SHOP, stale))
    corpus.edges.append(GraphEdge("requirements", "HAS_ITEM", "REQ-0", SHOP, stale))
    corpus.edges.append(GraphEdge("ST-1", "COVERS", "REQ-2", SHOP, stale))
    view = corpus.view(items=True)
    assert "shop/REQ-0" not in ids(view)
    assert ("shop/ST-1", "COVERS", "shop/REQ-2") not in edges(view)
    assert view.hidden_neighbours("shop/requirements") == 1


def test_cites_kind_resolves_to_the_current_artifact_of_that_kind() -> None:
    view = shop().view()
    cites = {e for e in edges(view) if e[1] == "CITES"}
    # [[personas]] has no artifact of that kind in the subject: no edge, no stray node.
    assert cites == {("shop/stories", "CITES", "shop/requirements")}
    assert not any("kind:" in node for node in ids(view))


def test_cites_kind_picks_the_most_recent_of_several_artifacts_of_a_kind() -> None:
    corpus = Corpus()
    corpus.artifact("adr-1", 1, "e1", kind="adr")
    corpus.artifact("adr-2", 2, "e1", kind="adr")
    design = corpus.artifact("design", 3, "e1")
    corpus.link(design, "design", "CITES", "kind:adr")
    assert ("shop/design", "CITES", "shop/adr-2") in edges(corpus.view())


def test_ids_are_qualified_across_subjects_and_plain_within_one() -> None:
    corpus = shop()
    corpus.artifact("stories", 5, "e9", subject="returns")
    everything = corpus.view()
    assert {"shop/stories", "returns/stories", "returns/run:e9"} <= ids(everything)
    one = corpus.view(subject=SHOP)
    assert ids(one) == {"requirements", "stories", "plan", "run:e1", "run:e2"}
    assert ("stories", "DERIVED_FROM", "requirements") in edges(one)


def test_to_data_is_sorted_and_keeps_the_fixed_keys() -> None:
    data = shop().view(items=True, subject=SHOP).to_data()
    assert [n["id"] for n in data["nodes"]] == sorted(n["id"] for n in data["nodes"])
    req = next(n for n in data["nodes"] if n["id"] == "REQ-1")
    assert req == {
        "id": "REQ-1",
        "type": "requirement",
        "label": "Guest checkout",
        "subject": SHOP,
        "ref": "shop/requirements/2026-09-01-requirements.md",
        "hidden_neighbours": 0,
        "priority": "must",
    }
    triples = [(e["source"], e["type"], e["target"]) for e in data["edges"]]
    assert triples == sorted(triples)
    assert ("ST-1", "COVERS", "REQ-1") in triples


def test_neighbourhood_depth_one_and_two() -> None:
    view = shop().view(items=True, units=True, subject=SHOP)
    one = neighbourhood(view, "unit:pay", 1)
    assert ids(one) == {"unit:pay", "ST-1", "plan"}
    assert one.hidden_neighbours("ST-1") == 2  # stories and REQ-1, one step further
    assert one.hidden_neighbours("unit:pay") == 0
    two = neighbourhood(view, "unit:pay", 2)
    assert ids(two) == {"unit:pay", "ST-1", "plan", "stories", "REQ-1", "run:e2"}
    assert ("ST-1", "COVERS", "REQ-1") in edges(two)


def test_neighbourhood_keeps_what_the_view_already_hid() -> None:
    view = shop().view(subject=SHOP)
    around = neighbourhood(view, "requirements", 1)
    assert ids(around) == {"requirements", "stories", "run:e1"}
    assert around.hidden_neighbours("requirements") == 3
    assert around.hidden_neighbours("stories") == 2


def test_lineage_up_is_what_a_node_was_built_from() -> None:
    view = shop().view(items=True, units=True, subject=SHOP)
    up = lineage(view, "unit:pay", "up")
    # The story it implements, the requirement that story covers, their artifacts and runs.
    assert ids(up) == {
        "unit:pay",
        "ST-1",
        "REQ-1",
        "plan",
        "stories",
        "requirements",
        "run:e1",
        "run:e2",
    }
    assert not {"ST-2", "REQ-2"} & ids(up)
    assert lineage(view, "REQ-1", "up").graph.number_of_nodes() == 3  # requirements, run:e1


def test_lineage_down_is_what_was_built_from_a_node() -> None:
    view = shop().view(items=True, units=True, subject=SHOP)
    assert ids(lineage(view, "REQ-1", "down")) == {"REQ-1", "ST-1", "unit:pay"}
    assert ids(lineage(view, "unit:pay", "down")) == {"unit:pay"}
    assert ids(lineage(view, "REQ-2", "down")) == {"REQ-2", "ST-2"}


def test_lineage_and_neighbourhood_refuse_an_unknown_node_or_direction() -> None:
    view = shop().view(subject=SHOP)
    with pytest.raises(UnknownNodeError, match="REQ-1"):
        lineage(view, "REQ-1")
    with pytest.raises(UnknownNodeError, match="nowhere"):
        neighbourhood(view, "nowhere", 1)
    with pytest.raises(ValueError, match="sideways"):
        lineage(view, "stories", "sideways")  # type: ignore[arg-type]


def test_diff_names_nodes_and_edges_added_removed_and_changed() -> None:
    before = shop().view(items=True, subject=SHOP)
    after = shop(revised=True).view(items=True, subject=SHOP)
    change = diff(before, after)
    assert [n["id"] for n in change.nodes_added] == ["REQ-3", "run:e3"]
    assert [n["id"] for n in change.nodes_removed] == ["REQ-2"]
    changed = {c.id: c.fields for c in change.nodes_changed}
    assert changed == {"REQ-1": ("ref", "data"), "requirements": ("ref",)}
    assert ("requirements", "HAS_ITEM", "REQ-3") in change.edges_added
    assert ("run:e3", "PRODUCES", "requirements") in change.edges_added
    assert ("ST-2", "COVERS", "REQ-2") in change.edges_removed
    assert ("run:e1", "PRODUCES", "requirements") in change.edges_removed
    assert ("ST-1", "COVERS", "REQ-1") not in change.edges_added + change.edges_removed


def test_diff_data_and_no_change() -> None:
    before = shop().view(subject=SHOP)
    after = shop(revised=True).view(subject=SHOP)
    data = diff(before, after).to_data()
    assert data["nodes"]["added"][0]["id"] == "run:e3"
    (changed,) = data["nodes"]["changed"]
    assert changed["id"] == "requirements"
    assert changed["before"]["ref"] != changed["after"]["ref"]
    assert {"source": "run:e3", "type": "PRODUCES", "target": "requirements"} in data["edges"][
        "added"
    ]
    assert diff(before, shop().view(subject=SHOP)).empty
