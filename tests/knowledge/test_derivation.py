"""Deriving graph rows from artifacts: the fixture corpus, sections, items, units, citations."""

import hashlib
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import yaml

from studio.knowledge.derivation import derive, scan_body
from studio.knowledge.front_matter import artifact_ref, read_front_matter, split_artifact
from studio.knowledge.item_types import DEFAULT, ItemType, Relation
from studio.knowledge.lint import lint_artifact
from studio.model.knowledge import ArtifactVersion, Derivation, GraphNode

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "checkout-redesign"
LANDED = datetime(2026, 10, 1, tzinfo=UTC)


def derive_text(text: str, registry=DEFAULT) -> Derivation:
    """Derive an artifact's rows the way landing does, from its whole text."""
    data, body, body_line = split_artifact(text)
    front = read_front_matter(data)
    digest = hashlib.sha256(text.encode()).hexdigest()
    version = ArtifactVersion(artifact_ref(front), front, digest, LANDED)
    return derive(version, body, body_line, registry)


def artifact(body: str, kind: str = "design") -> str:
    """An artifact text around ``body``; the body starts on line 9."""
    return (
        "---\n"
        f"id: {kind}\n"
        f"kind: {kind}\n"
        "subject: checkout-redesign\n"
        "title: Checkout design\n"
        "produced_by: {execution: exec-7, node: design, attempt: 2}\n"
        "created_at: 2026-09-10T15:00:00Z\n"
        "---\n" + body
    )


def nodes_of(derivation: Derivation, node_type: str) -> list[GraphNode]:
    return [node for node in derivation.nodes if node.type == node_type]


def edges_of(derivation: Derivation) -> set[tuple[str, str, str]]:
    return {(edge.source, edge.type, edge.target) for edge in derivation.edges}


def current_heads() -> list[Derivation]:
    """Derivations of the fixture's versions that nothing supersedes."""
    texts = [path.read_text(encoding="utf-8") for path in sorted(FIXTURE.glob("2026-*.md"))]
    fronts = [read_front_matter(split_artifact(text)[0]) for text in texts]
    superseded = {front.supersedes for front in fronts if front.supersedes}
    assert len(texts) == 6 and len(superseded) == 1
    return [
        derive_text(text)
        for text, front in zip(texts, fronts, strict=True)
        if artifact_ref(front) not in superseded
    ]


def test_the_fixture_heads_give_the_expected_counts() -> None:
    expected = yaml.safe_load((FIXTURE / "expected.yaml").read_text(encoding="utf-8"))
    heads = current_heads()
    nodes = [node for derivation in heads for node in derivation.nodes]
    counts = Counter(node.type for node in nodes)

    assert len(heads) == expected["logical_artifacts"]
    assert counts["artifact"] == expected["logical_artifacts"]
    assert counts["section"] == expected["sections_current"]
    assert {name: counts[name] for name in expected["items_current"]} == expected["items_current"]
    assert counts["unit"] == expected["units"]
    assert counts["story-map-entry"] == 0


def test_the_fixture_heads_give_every_required_edge() -> None:
    expected = yaml.safe_load((FIXTURE / "expected.yaml").read_text(encoding="utf-8"))
    edges: set[tuple[str, str, str]] = set()
    for derivation in current_heads():
        for source, edge_type, target in edges_of(derivation):
            # The projection resolves a [[kind]] citation to the artifact of that kind.
            edges.add((source, edge_type, target.removeprefix("kind:")))

    missing = [edge for edge in map(tuple, expected["edges_required"]) if edge not in edges]

    assert missing == []


def test_rows_carry_their_subject_and_version() -> None:
    for derivation in current_heads():
        (artifact_node,) = nodes_of(derivation, "artifact")
        ref = artifact_node.version_ref
        rows = [*derivation.nodes, *derivation.edges]

        assert ref.startswith(f"checkout-redesign/{artifact_node.data['kind']}/2026-09-")
        assert {(row.subject, row.version_ref) for row in rows} == {("checkout-redesign", ref)}


def test_the_artifact_and_its_run() -> None:
    derivation = derive_text(artifact("# Design\n"))

    artifact_node, run = derivation.nodes
    assert (artifact_node.key, artifact_node.type, artifact_node.label) == (
        "design",
        "artifact",
        "Checkout design",
    )
    assert artifact_node.data == {
        "kind": "design",
        "created_at": "2026-09-10T15:00:00+00:00",
        "produced_by": {"execution": "exec-7", "node": "design", "attempt": 2},
    }
    assert (run.key, run.type, run.label) == ("run:exec-7", "run", "exec-7")
    assert edges_of(derivation) == {("run:exec-7", "PRODUCES", "design")}


SECTIONS = """\
# Checkout design

Intro.

## Overview
Text.

### Details
More.

## Overview
Again.

### Details

# Appendix

## Details
"""


def test_sections_have_anchors_levels_and_file_line_ranges() -> None:
    derivation = derive_text(artifact(SECTIONS))

    sections = {
        node.key: (node.data["level"], node.data["start"], node.data["end"])
        for node in nodes_of(derivation, "section")
    }

    # The body starts on line 9: "# Checkout design". Ranges end before the next heading of
    # the same or a higher level, or at the last line.
    assert sections == {
        "design#overview": (2, 13, 18),
        "design#details": (3, 16, 18),
        "design#overview-1": (2, 19, 23),
        "design#details-1": (3, 22, 23),
        "design#details-2": (2, 26, 26),
    }


def test_h1_is_not_a_section() -> None:
    derivation = derive_text(artifact(SECTIONS))

    titles = [node.label for node in nodes_of(derivation, "section")]

    assert "Checkout design" not in titles and "Appendix" not in titles


def test_a_section_is_linked_both_ways_and_keeps_its_title() -> None:
    derivation = derive_text(artifact("## Cart [API](http://x) `v2`\nText.\n"))

    (section,) = nodes_of(derivation, "section")

    assert section.key == "design#cart-api-v2"
    assert section.data == {
        "anchor": "cart-api-v2",
        "level": 2,
        "title": "Cart API `v2`",
        "start": 9,
        "end": 10,
    }
    assert {("design", "HAS_SECTION", section.key), (section.key, "DERIVED_FROM", "design")} <= (
        edges_of(derivation)
    )


def test_a_link_whose_url_has_parentheses_reduces_to_its_text() -> None:
    body = "## See [the spec](https://example.com/wiki/Cart_(checkout)) <b>now</b>\nText.\n"

    (section,) = nodes_of(derive_text(artifact(body)), "section")

    assert section.data["title"] == "See the spec now"
    assert section.key == "design#see-the-spec-now"


def test_anchors_follow_github_de_duplication() -> None:
    body = "## Notes\n## Notes 1\n## Notes\n## Notes\n"

    derivation = derive_text(artifact(body))

    anchors = [node.data["anchor"] for node in nodes_of(derivation, "section")]
    assert anchors == ["notes", "notes-1", "notes-2", "notes-3"]


ITEMS = """\
# Design

```yaml component
id: C-TOP
name: Before any section
```

## Components

- The cart:

  ```yaml component
  id: C-CART
  name: Cart service
  ```

> ```yaml decision
> id: D-1
> title: Keep carts server-side
> covers: REQ-2
> ```

```yaml
plain: yaml, not an item
```
"""


def test_items_anywhere_in_the_body_become_nodes() -> None:
    derivation = derive_text(artifact(ITEMS))

    items = {node.key: node for node in derivation.nodes if node.type in ("component", "decision")}

    assert list(items) == ["C-TOP", "C-CART", "D-1"]
    assert items["C-CART"].label == "Cart service"
    assert items["C-CART"].data == {
        "id": "C-CART",
        "name": "Cart service",
        "section": "design#components",
        "line": 20,
    }
    assert items["C-TOP"].data["section"] is None
    assert items["D-1"].data["section"] == "design#components"
    assert {
        ("design", "HAS_ITEM", "C-CART"),
        ("C-CART", "DERIVED_FROM", "design"),
        ("D-1", "COVERS", "REQ-2"),
    } <= edges_of(derivation)


def test_units_are_keyed_by_slug_and_implemented_by_items() -> None:
    body = (
        "## Units\n\n```yaml unit\nslug: guest-pay\ntitle: Guest payment\n"
        "implements: ST-1\ndepends_on: [cart-store]\nexposes: K-1\nconsumes_contract: [K-2]\n```\n"
    )

    derivation = derive_text(artifact(body, kind="unit-plan"))

    (unit,) = nodes_of(derivation, "unit")
    assert (unit.key, unit.label) == ("unit:guest-pay", "Guest payment")
    assert {
        ("unit-plan", "HAS_ITEM", "unit:guest-pay"),
        ("unit:guest-pay", "DERIVED_FROM", "unit-plan"),
        ("ST-1", "IMPLEMENTS", "unit:guest-pay"),
        ("unit:guest-pay", "DEPENDS_ON", "unit:cart-store"),
        ("unit:guest-pay", "EXPOSES", "K-1"),
        ("unit:guest-pay", "CONSUMES_CONTRACT", "K-2"),
    } <= edges_of(derivation)


def test_citations_come_from_paragraph_text_only_once_each() -> None:
    body = (
        "See [[stories]] and [[requirements]], again [[stories]].\n\n"
        "- In a list: [[personas]]\n\n"
        "Not `[[glossary]]` in code, nor [[design]] itself.\n\n"
        "    [[indented-code]]\n\n"
        "```\n[[fenced]]\n```\n\n"
        "## Heading [[heading]]\n"
    )

    derivation = derive_text(artifact(body))

    cites = [edge.target for edge in derivation.edges if edge.type == "CITES"]
    assert cites == ["kind:stories", "kind:requirements", "kind:personas"]


def test_explicit_links_become_edges() -> None:
    text = artifact("# Design\n").replace(
        "created_at", "links:\n  - {type: DEPENDS_ON, target: stories}\ncreated_at"
    )

    assert ("design", "DEPENDS_ON", "stories") in edges_of(derive_text(text))


def test_registering_a_type_is_all_it_takes_to_validate_and_extract_it() -> None:
    risk = ItemType(
        "risk",
        required=("id", "title", "likelihood"),
        relations={"threatens": Relation("THREATENS")},
    )
    registry = DEFAULT.with_type(risk)
    body = (
        "## Risks\n\n```yaml risk\n"
        "id: R-1\ntitle: Wallet outage\nlikelihood: low\nthreatens: [REQ-3]\n```\n"
    )
    text = artifact(body)

    assert [p.code for p in lint_artifact(text, known_refs=set())] == ["kg.item.unknown_type"]
    assert lint_artifact(text, known_refs=set(), registry=registry) == []
    broken = text.replace("likelihood: low\n", "")
    codes = [p.code for p in lint_artifact(broken, known_refs=set(), registry=registry)]
    assert codes == ["kg.item.missing_field"]

    derivation = derive_text(text, registry)

    (node,) = nodes_of(derivation, "risk")
    assert (node.key, node.label, node.data["likelihood"]) == ("R-1", "Wallet outage", "low")
    assert ("R-1", "THREATENS", "REQ-3") in edges_of(derivation)
    assert nodes_of(derive_text(text), "risk") == []


def test_item_dates_are_stored_as_iso_text() -> None:
    body = "```yaml decision\nid: D-9\ntitle: Ship\nstatus: accepted\ncontext: 2026-09-01\n```\n"

    (decision,) = nodes_of(derive_text(artifact(body)), "decision")

    assert decision.data["context"] == "2026-09-01"


def test_derivation_is_deterministic() -> None:
    text = artifact(ITEMS + SECTIONS + "See [[stories]].\n")
    first = derive_text(text)
    scan_body.cache_clear()

    again = derive_text(text)

    assert again == first
    assert again is not first
