"""Coverage gaps and suspect links over hand-built versions and rows."""

from datetime import UTC, datetime

from studio.knowledge.insight import Gap, coverage_gaps, suspect_links
from studio.model.knowledge import ArtifactVersion, FrontMatter, GraphEdge, GraphNode

SHOP = "shop"


def version(artifact_id: str, day: int, supersedes: str | None = None) -> ArtifactVersion:
    """A version of an artifact in the shop subject, created on a day of September 2026."""
    created = datetime(2026, 9, day, 9, 30, tzinfo=UTC)
    ref = f"{SHOP}/{artifact_id}/2026-09-{day:02d}-{artifact_id}.md"
    front = FrontMatter(artifact_id, artifact_id, SHOP, artifact_id, {}, created, supersedes)
    return ArtifactVersion(ref, front, "0" * 64, created)


def node(written_in: ArtifactVersion, key: str, node_type: str) -> GraphNode:
    return GraphNode(key, node_type, f"{node_type} {key}", SHOP, written_in.ref)


def edge(written_in: ArtifactVersion, source: str, edge_type: str, target: str) -> GraphEdge:
    return GraphEdge(source, edge_type, target, SHOP, written_in.ref)


REQUIREMENTS = version("requirements", 1)
STORIES = version("stories", 2)
DESIGN = version("design", 3)
PLAN = version("plan", 3)


def traced() -> tuple[list[GraphNode], list[GraphEdge]]:
    """Every requirement covered by a story, every story implemented, the decision covering."""
    nodes = [
        node(REQUIREMENTS, "REQ-1", "requirement"),
        node(REQUIREMENTS, "REQ-2", "requirement"),
        node(STORIES, "ST-1", "story"),
        node(STORIES, "ST-2", "story"),
        node(DESIGN, "D-1", "decision"),
        node(PLAN, "unit:pay", "unit"),
        node(PLAN, "unit:cart", "unit"),
    ]
    edges = [
        edge(STORIES, "ST-1", "COVERS", "REQ-1"),
        edge(STORIES, "ST-2", "COVERS", "REQ-2"),
        edge(DESIGN, "D-1", "COVERS", "REQ-2"),
        edge(PLAN, "ST-1", "IMPLEMENTS", "unit:pay"),
        edge(PLAN, "ST-2", "IMPLEMENTS", "unit:cart"),
    ]
    return nodes, edges


def gap_keys(gaps: list[Gap]) -> dict[str, str]:
    return {gap.key: gap.missing for gap in gaps}


def test_no_gap_when_everything_is_traced() -> None:
    assert coverage_gaps(*traced()) == []


def test_a_requirement_no_story_covers_is_a_gap_even_when_a_decision_covers_it() -> None:
    nodes, edges = traced()
    edges = [e for e in edges if (e.source, e.type) != ("ST-2", "COVERS")]
    (gap,) = coverage_gaps(nodes, edges)
    assert (gap.key, gap.type, gap.ref) == ("REQ-2", "requirement", REQUIREMENTS.ref)
    assert gap.missing == "no story covers it"
    assert gap.message.startswith("requirement REQ-2 (requirement REQ-2, in shop/requirements/")


def test_a_story_no_unit_implements_is_a_gap() -> None:
    nodes, edges = traced()
    edges = [e for e in edges if e.target != "unit:cart"]
    assert gap_keys(coverage_gaps(nodes, edges)) == {"ST-2": "no unit implements it"}


def test_a_decision_that_covers_nothing_is_a_gap() -> None:
    nodes, edges = traced()
    nodes.append(node(DESIGN, "D-2", "decision"))
    # Covering a requirement that no longer exists covers nothing either.
    nodes.append(node(DESIGN, "D-3", "decision"))
    edges.append(edge(DESIGN, "D-3", "COVERS", "REQ-9"))
    gaps = coverage_gaps(nodes, edges)
    assert gap_keys(gaps) == {"D-2": "it covers nothing", "D-3": "it covers nothing"}


def test_gaps_of_every_kind_at_once_in_a_stable_order() -> None:
    nodes, _ = traced()
    gaps = coverage_gaps(nodes, [])
    assert [gap.key for gap in gaps] == ["D-1", "REQ-1", "REQ-2", "ST-1", "ST-2"]


def revised_requirements(stories_day: int) -> tuple[list[ArtifactVersion], list[ArtifactVersion]]:
    """Requirements landed on day 1 and revised on day 4, stories written on the given day."""
    revised = version("requirements", 4, supersedes=REQUIREMENTS.ref)
    stories = version("stories", stories_day)
    return [REQUIREMENTS, stories, revised], [revised, stories]


def story_rows(
    heads: list[ArtifactVersion],
) -> tuple[list[GraphNode], list[GraphEdge]]:
    requirements, stories = heads
    nodes = [
        node(requirements, "requirements", "artifact"),
        node(requirements, "REQ-1", "requirement"),
        node(stories, "stories", "artifact"),
        node(stories, "ST-1", "story"),
    ]
    edges = [
        edge(requirements, "requirements", "HAS_ITEM", "REQ-1"),
        edge(stories, "stories", "HAS_ITEM", "ST-1"),
        edge(stories, "ST-1", "COVERS", "REQ-1"),
        edge(stories, "stories", "DERIVED_FROM", "requirements"),
        edge(stories, "stories", "CITES", "kind:requirements"),
    ]
    return nodes, edges


def test_links_written_before_the_requirements_were_revised_are_suspect() -> None:
    every, heads = revised_requirements(stories_day=2)
    suspects = suspect_links(every, heads, *story_rows(heads))
    assert [(s.item, s.link, s.target) for s in suspects] == [
        ("ST-1", "COVERS", "REQ-1"),
        ("stories", "DERIVED_FROM", "requirements"),
    ]
    suspect = suspects[0]
    assert suspect.item_ref == "shop/stories/2026-09-02-stories.md"
    assert suspect.item_written == datetime(2026, 9, 2, 9, 30, tzinfo=UTC)
    assert suspect.target_ref == "shop/requirements/2026-09-04-requirements.md"
    assert suspect.target_revised == datetime(2026, 9, 4, 9, 30, tzinfo=UTC)
    assert suspect.message == (
        "ST-1 relies on REQ-1 (COVERS), written in shop/stories/2026-09-02-stories.md on "
        "2026-09-02, but REQ-1 was revised in shop/requirements/2026-09-04-requirements.md on "
        "2026-09-04"
    )


def test_links_written_after_the_revision_are_not_suspect() -> None:
    every, heads = revised_requirements(stories_day=5)
    assert suspect_links(every, heads, *story_rows(heads)) == []


def test_a_later_first_version_is_not_a_revision() -> None:
    requirements, stories = version("requirements", 4), version("stories", 2)
    heads = [requirements, stories]
    assert suspect_links(heads, heads, *story_rows(heads)) == []


def test_a_unit_relies_on_the_story_it_implements() -> None:
    plan, stories = version("plan", 3), version("stories", 5, supersedes=STORIES.ref)
    heads = [plan, stories]
    nodes = [node(stories, "ST-1", "story"), node(plan, "unit:pay", "unit")]
    edges = [edge(plan, "ST-1", "IMPLEMENTS", "unit:pay")]
    (suspect,) = suspect_links([STORIES, *heads], heads, nodes, edges)
    assert (suspect.item, suspect.link, suspect.target) == ("unit:pay", "IMPLEMENTS", "ST-1")
    assert (suspect.item_ref, suspect.target_ref) == (plan.ref, stories.ref)


def test_rows_of_superseded_versions_are_not_read() -> None:
    every, heads = revised_requirements(stories_day=2)
    nodes, edges = story_rows(heads)
    old_stories = version("stories", 1)
    edges = [e for e in edges if e.type != "COVERS"]
    edges.append(edge(old_stories, "ST-1", "COVERS", "REQ-1"))
    suspects = suspect_links([*every, old_stories], heads, nodes, edges)
    assert [s.link for s in suspects] == ["DERIVED_FROM"]
