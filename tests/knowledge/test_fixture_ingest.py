"""Ingesting the checkout-redesign corpus yields exactly what its expected.yaml lists.

The numbers and lists are read from expected.yaml itself, so the fixture is the specification:
the versions and heads, the superseded file, the sections, typed items and units of the
current heads, the traceability edges of the projection and the coverage gaps. Rebuilding the
derived rows from the stored text gives the rows landing gave, every time.
"""

import re
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from studio.knowledge.knowledge_base import KnowledgeBase
from studio.knowledge.projection import ViewOptions
from studio.model.knowledge import ARTIFACT, SECTION, UNIT
from studio.workspace import Workspace

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "checkout-redesign"
EXPECTED: dict[str, Any] = yaml.safe_load((FIXTURE / "expected.yaml").read_text("utf-8"))
SUBJECT = "checkout-redesign"
NOT_ITEMS = {ARTIFACT, SECTION, UNIT, "run"}
"""Node types that are not typed items."""


@pytest.fixture
def knowledge() -> KnowledgeBase:
    workspace = Workspace()
    yield workspace.knowledge
    workspace.close()


@pytest.fixture
def landed(knowledge: KnowledgeBase) -> dict[str, str]:
    """The fixture folder ingested: file name → the ref of the version landed from it."""
    files: list[Path] = []
    refs = knowledge.ingest(FIXTURE, lambda _done, _total, path: files.append(path))
    assert len(files) == len(refs)
    return {path.name: ref for path, ref in zip(files, refs, strict=True)}


def every_layer() -> ViewOptions:
    return ViewOptions(items=True, units=True, sections=True, subject=SUBJECT)


def types_of(knowledge: KnowledgeBase, options: ViewOptions) -> Counter[str]:
    graph = knowledge.graph(options).graph
    return Counter(graph.nodes[node]["type"] for node in graph.nodes)


def test_every_artifact_file_of_the_folder_lands_once(landed: dict[str, str]) -> None:
    artifact_files = {path.name for path in FIXTURE.glob("*.md") if path.name != "README.md"}

    assert set(landed) == artifact_files
    assert len(set(landed.values())) == len(landed)


def test_logical_artifacts_and_versions(knowledge: KnowledgeBase, landed: dict[str, str]) -> None:
    versions = knowledge.repository.versions()
    heads = knowledge.heads()

    assert len(versions) == EXPECTED["artifact_versions"]
    assert {version.ref for version in versions} == set(landed.values())
    assert len({(v.subject, v.artifact_id) for v in versions}) == EXPECTED["logical_artifacts"]
    assert len(heads) == EXPECTED["logical_artifacts"]
    assert {(v.subject, v.artifact_id) for v in heads} == {
        (v.subject, v.artifact_id) for v in versions
    }


def test_exactly_the_listed_files_are_superseded(
    knowledge: KnowledgeBase, landed: dict[str, str]
) -> None:
    heads = {version.ref for version in knowledge.heads()}
    replaced = {v.front.supersedes for v in knowledge.repository.versions()} - {None}
    superseded = {name for name, ref in landed.items() if ref not in heads}

    assert sorted(superseded) == sorted(EXPECTED["superseded"])
    assert replaced == {landed[name] for name in EXPECTED["superseded"]}
    for name in EXPECTED["superseded"]:  # kept for history, with its own text
        ref = landed[name]
        assert knowledge.resolve(ref) == (FIXTURE / name).read_text("utf-8")
        assert [v.ref for v in knowledge.repository.versions()].count(ref) == 1


def test_sections_of_the_current_heads(knowledge: KnowledgeBase, landed: dict[str, str]) -> None:
    options = ViewOptions(sections=True, subject=SUBJECT)

    assert types_of(knowledge, options)[SECTION] == EXPECTED["sections_current"]
    assert types_of(knowledge, ViewOptions(subject=SUBJECT))[SECTION] == 0


def test_typed_items_of_the_current_heads(knowledge: KnowledgeBase, landed: dict[str, str]) -> None:
    types = types_of(knowledge, ViewOptions(items=True, subject=SUBJECT))
    items = {name: count for name, count in types.items() if name not in NOT_ITEMS}

    assert items == EXPECTED["items_current"]


def test_units_of_the_current_heads(knowledge: KnowledgeBase, landed: dict[str, str]) -> None:
    assert types_of(knowledge, ViewOptions(units=True, subject=SUBJECT))[UNIT] == EXPECTED["units"]
    assert types_of(knowledge, ViewOptions(items=True, subject=SUBJECT))[UNIT] == 0


@pytest.mark.parametrize(
    "triple", EXPECTED["edges_required"], ids=[" ".join(t) for t in EXPECTED["edges_required"]]
)
def test_every_required_edge_is_in_the_projection(
    knowledge: KnowledgeBase, landed: dict[str, str], triple: list[str]
) -> None:
    edges = set(knowledge.graph(every_layer()).edge_keys())

    assert tuple(triple) in edges


def test_the_coverage_gaps(knowledge: KnowledgeBase, landed: dict[str, str]) -> None:
    assert [gap.key for gap in knowledge.coverage()] == EXPECTED["coverage_gaps"]


def test_the_superseded_version_is_what_the_graph_showed_before_the_revision(
    knowledge: KnowledgeBase, landed: dict[str, str]
) -> None:
    (old_file,) = EXPECTED["superseded"]
    before = datetime(2026, 9, 5, tzinfo=UTC)  # after the first requirements, before the second
    options = ViewOptions(items=True, subject=SUBJECT)

    then = knowledge.graph(options, as_of=before).graph
    now = knowledge.graph(options).graph

    assert then.nodes["requirements"]["ref"] == landed[old_file]
    assert now.nodes["requirements"]["ref"] != landed[old_file]
    assert {n for n in then.nodes if then.nodes[n]["type"] == "requirement"} < {
        n for n in now.nodes if now.nodes[n]["type"] == "requirement"
    }
    assert all(now.nodes[n]["ref"] != landed[old_file] for n in now.nodes)


def test_rebuilding_gives_the_rows_landing_gave_every_time(
    knowledge: KnowledgeBase, landed: dict[str, str]
) -> None:
    from_landing = knowledge.repository.derived_snapshot()
    shown = knowledge.graph(every_layer()).to_data()

    assert knowledge.rebuild() == EXPECTED["artifact_versions"]
    first = knowledge.repository.derived_snapshot()
    assert knowledge.rebuild() == EXPECTED["artifact_versions"]
    second = knowledge.repository.derived_snapshot()

    assert from_landing  # the comparison says something
    assert first == second
    assert first == from_landing
    assert knowledge.graph(every_layer()).to_data() == shown


def test_ingesting_the_folder_again_lands_nothing(
    knowledge: KnowledgeBase, landed: dict[str, str]
) -> None:
    rows = knowledge.repository.derived_snapshot()

    again = knowledge.ingest(FIXTURE)

    assert sorted(again) == sorted(landed.values())
    assert len(knowledge.repository.versions()) == EXPECTED["artifact_versions"]
    assert knowledge.repository.derived_snapshot() == rows


REVIEW = """\
---
id: review
kind: review-notes
subject: checkout-redesign
title: Review notes
produced_by: {capability: review}
created_at: 2026-09-12T10:00:00Z
---
# Review notes

The units are planned in 2026-09-11-unit-plan.md; REQ-1 is covered by two stories.
"""
"""Names a file of the corpus, so that ``plan.md`` is in some current artifact."""


def containing(knowledge: KnowledgeBase, words: str) -> set[str]:
    """The current artifacts whose text has ``words`` between non-alphanumerics."""
    pattern = re.compile(rf"(?<![a-z0-9]){re.escape(words)}(?![a-z0-9])", re.IGNORECASE)
    return {v.ref for v in knowledge.heads() if pattern.search(knowledge.resolve(v.ref))}


@pytest.mark.parametrize(
    ("query", "files"),
    [
        ("REQ-1", {"2026-09-08-requirements.md", "2026-09-09-stories.md", "review"}),
        ("checkout-redesign", None),  # the subject of every artifact
        ("plan.md", {"review"}),
    ],
)
def test_search_finds_identifiers_as_written(
    knowledge: KnowledgeBase, landed: dict[str, str], query: str, files: set[str] | None
) -> None:
    review = knowledge.land(REVIEW)
    if files is None:
        expected = {version.ref for version in knowledge.heads()}
    else:
        expected = {review if name == "review" else landed[name] for name in files}

    found = {hit.version.ref for hit in knowledge.search(query)}

    assert found == expected == containing(knowledge, query)


def test_search_in_fts5_syntax_is_used_as_written(
    knowledge: KnowledgeBase, landed: dict[str, str]
) -> None:
    def found(query: str) -> set[str]:
        return {hit.version.ref for hit in knowledge.search(query)}

    stories, unit_plan = landed["2026-09-09-stories.md"], landed["2026-09-11-unit-plan.md"]
    assert found("title:construction") == {unit_plan}
    assert found("constr*") == {unit_plan}
    assert found('"guest payment flow"') == {unit_plan}
    assert found("guest NOT payment") == found("guest") - found("payment")
    assert stories in found("guest") and found("guest NOT payment")
    assert found("loyalty OR construction") == found("loyalty") | found("construction")
