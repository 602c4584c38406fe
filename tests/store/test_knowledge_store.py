"""The knowledge store on a real SQLite file: append-only versions and bodies, heads over time,
bodies checked on read, forks refused, derived rows rebuilt identically, full-text search."""

import hashlib
import re
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from studio.model import Workflow
from studio.model.errors import NotFoundError
from studio.model.knowledge import (
    ArtifactVersion,
    Derivation,
    FrontMatter,
    GraphEdge,
    GraphNode,
    Link,
)
from studio.store import WorkflowRepository, migrations, open_database
from studio.store.knowledge import (
    ArtifactIntegrityError,
    KnowledgeConflictError,
    KnowledgeRepository,
    KnowledgeSearchError,
)
from studio.store.knowledge_integrity import DamagedVersion
from studio.store.migrations import SCHEMA_VERSION

JAN = datetime(2025, 1, 10, 9, 30, tzinfo=UTC)
FEB = datetime(2025, 2, 10, 9, 30, tzinfo=UTC)
MAR = datetime(2025, 3, 10, 9, 30, tzinfo=UTC)
KNOWLEDGE_TABLES = {"artifact_bodies", "artifact_versions", "kg_derivations"}


def sha(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def artifact(
    artifact_id: str,
    body: str,
    created_at: datetime,
    *,
    supersedes: str | None = None,
    subject: str = "checkout-redesign",
    kind: str = "requirements",
    title: str | None = None,
) -> tuple[ArtifactVersion, str, Derivation]:
    """A version as the landing code would hand it over, with a small derivation."""
    ref = f"{subject}/{kind}/{created_at:%Y-%m-%d}-{artifact_id}.md"
    front = FrontMatter(
        id=artifact_id,
        kind=kind,
        subject=subject,
        title=title or f"{artifact_id.title()} of {subject}",
        produced_by={"workflow": "wf-1", "execution": "ex-1", "node": "write"},
        created_at=created_at,
        supersedes=supersedes,
        links=(Link("DERIVED_FROM", "intent"), Link("CITES", "personas")),
    )
    version = ArtifactVersion(ref=ref, front=front, sha256=sha(body), landed_at=created_at)
    section = f"{artifact_id}#goals"
    derivation = Derivation(
        nodes=(
            GraphNode(artifact_id, "artifact", front.title, subject, ref, {"kind": kind}),
            GraphNode(section, "section", "Goals", subject, ref, {"level": 2, "lines": [3, 9]}),
        ),
        edges=(GraphEdge(artifact_id, "HAS_SECTION", section, subject, ref),),
    )
    return version, body, derivation


def count(store: KnowledgeRepository, table: str) -> int:
    with store.database.read() as connection:
        return connection.execute(text(f"SELECT count(*) FROM {table}")).scalar()


def counts(store: KnowledgeRepository) -> dict[str, int]:
    return {name: count(store, name) for name in [*sorted(KNOWLEDGE_TABLES), "artifact_search"]}


def landed_two_versions(store: KnowledgeRepository):
    first = artifact("stories", "# Stories\n\nA legacy checkout flow.\n", JAN)
    second = artifact(
        "stories", "# Stories\n\nA one-page checkout.\n", MAR, supersedes=first[0].ref
    )
    store.add_version(*first)
    store.add_version(*second)
    return first[0], second[0]


# --- schema ----------------------------------------------------------------------------------


def test_a_new_database_has_the_knowledge_tables_triggers_and_search(store) -> None:
    assert SCHEMA_VERSION == 9
    with store.database.read() as connection:
        rows = connection.execute(text("SELECT type, name FROM sqlite_master")).all()
        version = connection.execute(text("SELECT version FROM schema_info")).scalar()
    names = {name for _type, name in rows}
    assert version == 9
    assert KNOWLEDGE_TABLES | {"artifact_search", "artifact_search_content"} <= names
    triggers = {name for kind, name in rows if kind == "trigger"}
    assert {
        "artifact_bodies_no_update",
        "artifact_bodies_no_delete",
        "artifact_versions_no_update",
        "artifact_versions_no_delete",
        "artifact_bodies_no_replace",
        "artifact_versions_no_replace",
    } <= triggers


def test_a_version_2_database_is_migrated_to_the_latest_and_keeps_its_data(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:2])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 2)
    old = open_database(db_path)
    stored = WorkflowRepository(old).create(Workflow.model_validate({"name": "kept", "nodes": []}))
    with old.read() as connection:
        assert connection.execute(text("SELECT version FROM schema_info")).scalar() == 2
        tables = set(
            connection.execute(text("SELECT name FROM sqlite_master WHERE type = 'table'"))
            .scalars()
            .all()
        )
    old.close()
    assert not KNOWLEDGE_TABLES & tables
    monkeypatch.undo()

    database = open_database(db_path)
    try:
        with database.read() as connection:
            version = connection.execute(text("SELECT version FROM schema_info")).scalar()
        assert version == SCHEMA_VERSION
        assert WorkflowRepository(database).get(stored.id).name == "kept"
        store = KnowledgeRepository(database)
        store.add_version(*artifact("stories", "# Stories\n", JAN))
        assert [v.artifact_id for v in store.heads()] == ["stories"]
    finally:
        database.close()


# --- append-only -----------------------------------------------------------------------------

CHANGES = [
    ("artifact_bodies", "UPDATE artifact_bodies SET body = 'rewritten'"),
    ("artifact_bodies", "DELETE FROM artifact_bodies"),
    ("artifact_versions", "UPDATE artifact_versions SET title = 'rewritten'"),
    ("artifact_versions", "UPDATE artifact_versions SET supersedes = NULL"),
    ("artifact_versions", "DELETE FROM artifact_versions"),
]


@pytest.mark.parametrize(("table", "statement"), CHANGES)
def test_bodies_and_versions_refuse_update_and_delete(store, table: str, statement: str) -> None:
    first, _second = landed_two_versions(store)
    with store.database.read() as connection:
        before = connection.exec_driver_sql(f"SELECT * FROM {table} ORDER BY 1").all()
    label = table.replace("_", " ")
    with (
        pytest.raises(IntegrityError, match=f"{label} are append-only"),
        store.database.write() as connection,
    ):
        connection.exec_driver_sql(statement)
    with store.database.read() as connection:
        assert connection.exec_driver_sql(f"SELECT * FROM {table} ORDER BY 1").all() == before
    assert store.body(first.ref) == "# Stories\n\nA legacy checkout flow.\n"


def test_an_existing_ref_is_refused_and_nothing_changes(store) -> None:
    version, body, derivation = artifact("stories", "# Stories\n", JAN)
    store.add_version(version, body, derivation)
    before, snapshot = counts(store), store.derived_snapshot()
    other = artifact("stories", "# Stories, again\n", JAN)
    assert other[0].ref == version.ref
    with pytest.raises(KnowledgeConflictError) as refused:
        store.add_version(*other)
    assert str(refused.value) == (
        f"cannot land {version.ref}: a version with that ref is stored already "
        "(stored versions are never replaced)"
    )
    assert counts(store) == before
    assert store.derived_snapshot() == snapshot
    assert store.body(version.ref) == "# Stories\n"


def test_a_fork_is_refused_with_the_version_that_already_supersedes(store) -> None:
    first, second = landed_two_versions(store)
    third_head = artifact(
        "stories",
        "# Stories\n\nAfter the one-page checkout.\n",
        MAR + timedelta(days=2),
        supersedes=second.ref,
    )
    store.add_version(*third_head)
    before, snapshot = counts(store), store.derived_snapshot()
    fork = artifact("stories", "# Stories\n\nA fork.\n", FEB, supersedes=first.ref)
    with pytest.raises(KnowledgeConflictError) as refused:
        store.add_version(*fork)
    message = str(refused.value)
    assert message.startswith(f"cannot land {fork[0].ref}: it supersedes {first.ref}, ")
    assert f"which {second.ref} already supersedes" in message
    assert f"supersede the current head {third_head[0].ref} instead" in message
    assert counts(store) == before
    assert store.derived_snapshot() == snapshot
    assert fork[0].ref not in store.refs()


def test_superseding_a_version_that_is_not_stored_is_refused(store) -> None:
    orphan = artifact("stories", "# Stories\n", FEB, supersedes="checkout-redesign/x/missing.md")
    missing = re.escape("it supersedes checkout-redesign/x/missing.md, which is not stored")
    with pytest.raises(KnowledgeConflictError, match=missing):
        store.add_version(*orphan)
    assert counts(store) == dict.fromkeys(counts(store), 0)


def test_text_that_does_not_match_the_given_sha256_is_refused(store) -> None:
    version, _body, derivation = artifact("stories", "# Stories\n", JAN)
    with pytest.raises(ArtifactIntegrityError, match=f"cannot land {version.ref}: its text"):
        store.add_version(version, "# Something else\n", derivation)
    assert store.refs() == set()


def test_derived_rows_of_another_version_are_refused(store) -> None:
    version, body, derivation = artifact("stories", "# Stories\n", JAN)
    stray = GraphNode("x", "artifact", "X", version.subject, "elsewhere.md")
    with pytest.raises(ValueError, match=re.escape("rows of other versions: ['elsewhere.md']")):
        store.add_version(version, body, Derivation((*derivation.nodes, stray), ()))
    assert counts(store) == dict.fromkeys(counts(store), 0)


def test_a_version_without_a_time_zone_is_refused(store) -> None:
    version, body, derivation = artifact("stories", "# Stories\n", JAN)
    naive = replace(version, front=replace(version.front, created_at=JAN.replace(tzinfo=None)))
    with pytest.raises(ValueError, match="its created_at has no time zone"):
        store.add_version(naive, body, derivation)
    assert store.refs() == set()


# --- batches ---------------------------------------------------------------------------------


def test_a_batch_lands_in_order_and_may_supersede_within_itself(store) -> None:
    first = artifact("stories", "# Stories\n\nOne.\n", JAN)
    second = artifact("stories", "# Stories\n\nTwo.\n", FEB, supersedes=first[0].ref)
    third = artifact("stories", "# Stories\n\nThree.\n", MAR, supersedes=second[0].ref)
    personas = artifact("personas", "# Stories\n\nOne.\n", FEB, kind="personas")
    store.add_versions([first, second, personas])
    store.add_versions(iter([third]))
    store.add_versions([])
    assert store.all_versions_in_landing_order() == [first[0], second[0], personas[0], third[0]]
    assert store.heads() == [personas[0], third[0]]
    assert store.heads(as_of=FEB) == [personas[0], second[0]]
    assert count(store, "artifact_bodies") == 3
    assert [v for v, _ in store.search("two", as_of=FEB)] == [second[0]]


@pytest.mark.parametrize("broken", ["twice", "fork", "unknown"])
def test_a_batch_with_one_refused_version_stores_nothing(store, broken: str) -> None:
    landed = artifact("stories", "# Stories\n", JAN)
    store.add_version(*landed)
    before, snapshot = counts(store), store.derived_snapshot()
    first = artifact("design", "# Design\n", JAN, kind="design")
    second = artifact("design", "# Design v2\n", FEB, kind="design", supersedes=first[0].ref)
    bad = {
        "twice": (first, "a version with that ref is stored already"),
        "fork": (
            artifact("design", "# Fork\n", MAR, kind="design", supersedes=first[0].ref),
            f"which {second[0].ref} already supersedes (that would fork the history); "
            f"supersede the current head {second[0].ref} instead",
        ),
        "unknown": (
            artifact("design", "# X\n", MAR, kind="design", supersedes="nowhere.md"),
            "it supersedes nowhere.md, which is not stored",
        ),
    }[broken]
    with pytest.raises(KnowledgeConflictError, match=re.escape(bad[1])):
        store.add_versions([first, second, bad[0]])
    assert counts(store) == before
    assert store.derived_snapshot() == snapshot
    assert store.refs() == {landed[0].ref}


# --- bodies ----------------------------------------------------------------------------------


def test_a_version_reads_back_as_it_was_landed(store) -> None:
    version, body, _ = artifact("stories", "# Stories\n\nCafé ☕ checkout.\n", JAN)
    store.add_version(version, body, Derivation((), ()))
    assert store.version(version.ref) == version
    assert store.version(version.ref).front.links == version.front.links
    assert store.body(version.ref) == body
    assert store.version("no/such/ref.md") is None
    unknown = re.escape("no artifact version no/such/ref.md is stored")
    with pytest.raises(NotFoundError, match=unknown):
        store.body("no/such/ref.md")
    with store.database.read() as connection:
        size = connection.execute(text("SELECT size FROM artifact_bodies")).scalar()
    assert size == len(body.encode("utf-8"))


def test_identical_text_is_stored_once(store) -> None:
    shared = "# Notes\n\nThe same words.\n"
    one = artifact("notes", shared, JAN)
    other = artifact("notes", shared, FEB, subject="payments")
    store.add_version(*one)
    store.add_version(*other)
    assert count(store, "artifact_bodies") == 1
    assert count(store, "artifact_versions") == 2
    assert store.body(one[0].ref) == store.body(other[0].ref) == shared


def test_a_damaged_body_is_detected_on_read(store, db_path: Path) -> None:
    version, body, derivation = artifact("stories", "# Stories\n\nThe real text.\n", JAN)
    tampered = "# Stories\n\nTampered.\n"
    # Another program writes a body under the sha256 of different text; the landing then finds
    # "its" body stored already and does not write it again.
    with sqlite3.connect(db_path) as raw:
        raw.execute(
            "INSERT INTO artifact_bodies (sha256, body, size) VALUES (?, ?, ?)",
            (version.sha256, tampered, len(tampered)),
        )
    store.add_version(version, body, derivation)
    with pytest.raises(ArtifactIntegrityError) as damaged:
        store.body(version.ref)
    assert str(damaged.value) == (
        f"damaged: {version.ref}: its text does not match the SHA-256 it was stored under: "
        f"it was stored as {version.sha256} but now hashes to {sha(tampered)}"
    )


# --- heads and history -----------------------------------------------------------------------


def test_heads_follow_supersession_and_answer_as_of(store) -> None:
    first, second = landed_two_versions(store)
    personas = artifact("personas", "# Personas\n", FEB, kind="personas")[0]
    store.add_version(*artifact("personas", "# Personas\n", FEB, kind="personas"))

    assert store.heads() == [personas, second]
    assert store.heads(as_of=FEB + timedelta(days=1)) == [personas, first]
    assert store.heads(as_of=JAN + timedelta(days=1)) == [first]
    assert store.heads(as_of=JAN - timedelta(seconds=1)) == []
    assert store.heads(as_of=MAR) == [personas, second]
    assert store.heads(kind="personas") == [personas]
    assert store.heads(subject="payments") == []

    assert store.head_of("checkout-redesign", "stories") == second
    assert store.head_of("checkout-redesign", "stories", as_of=FEB) == first
    assert store.head_of("checkout-redesign", "stories", as_of=JAN - timedelta(days=1)) is None
    assert store.versions("checkout-redesign", "stories") == [first, second]
    assert store.versions() == [first, personas, second]
    assert store.all_versions_in_landing_order() == [first, second, personas]
    assert store.refs() == {first.ref, second.ref, personas.ref}


# --- derived rows ----------------------------------------------------------------------------


def test_graph_rows_are_those_of_the_given_versions_in_a_fixed_order(store) -> None:
    first, second = landed_two_versions(store)
    nodes, edges = store.graph_rows([second.ref])
    assert [(n.key, n.type, n.version_ref) for n in nodes] == [
        ("stories", "artifact", second.ref),
        ("stories#goals", "section", second.ref),
    ]
    assert nodes[1].data == {"level": 2, "lines": [3, 9]}
    assert edges == [
        GraphEdge("stories", "HAS_SECTION", "stories#goals", "checkout-redesign", second.ref)
    ]
    both, _ = store.graph_rows(iter([second.ref, first.ref, second.ref]))
    assert [(n.key, n.version_ref) for n in both] == sorted(
        (key, ref) for key in ("stories", "stories#goals") for ref in (first.ref, second.ref)
    )
    assert store.graph_rows([]) == ([], [])


def test_rows_by_version_are_each_versions_rows_in_the_same_order(store) -> None:
    first, second = landed_two_versions(store)
    nodes, edges = store.graph_rows([first.ref, second.ref])

    by_version = store.graph_rows_by_version(iter([second.ref, first.ref, second.ref]))

    assert set(by_version) == {first.ref, second.ref}
    for ref, (version_nodes, version_edges) in by_version.items():
        assert list(version_nodes) == [node for node in nodes if node.version_ref == ref]
        assert list(version_edges) == [edge for edge in edges if edge.version_ref == ref]
    assert store.graph_rows_by_version([]) == {}


def test_a_version_whose_rows_cannot_be_read_is_damaged_and_left_out(store) -> None:
    first, second = landed_two_versions(store)
    with store.database.write() as connection:
        connection.execute(
            text("UPDATE kg_derivations SET rows = '{' WHERE version_ref = :ref"),
            {"ref": first.ref},
        )
    damaged: list[DamagedVersion] = []

    by_version = store.graph_rows_by_version([first.ref, second.ref], damaged)

    assert set(by_version) == {second.ref}
    assert [(d.ref, d.problem) for d in damaged] == [
        (first.ref, "its derived graph rows cannot be read; `studio kg rebuild` derives them again")
    ]


def test_a_rebuild_gives_identical_rows(store) -> None:
    landed = [
        artifact("stories", "# Stories\n", JAN),
        artifact("personas", "# Personas\n", FEB, kind="personas"),
    ]
    for version in landed:
        store.add_version(*version)
    before = store.derived_snapshot()
    assert len(before) == 6 and before[0][0] == "edge"
    for _ in range(2):
        store.rebuild_derived({version.ref: derivation for version, _, derivation in landed})
        assert store.derived_snapshot() == before
    assert store.all_versions_in_landing_order() == [version for version, _, _ in landed]


def test_rebuild_derived_replaces_every_row_at_once(store) -> None:
    landed = [
        artifact("stories", "# Stories\n", JAN),
        artifact("personas", "# Personas\n", FEB, kind="personas"),
    ]
    store.add_versions(landed)
    before = store.derived_snapshot()
    store.rebuild_derived({version.ref: derivation for version, _, derivation in landed})
    assert store.derived_snapshot() == before
    only = {landed[0][0].ref: landed[0][2]}
    store.rebuild_derived(only)
    assert {row[1] for row in store.derived_snapshot()} == {landed[0][0].ref}
    with pytest.raises(NotFoundError, match=re.escape("no artifact version gone.md is stored")):
        store.rebuild_derived({**only, "gone.md": Derivation((), ())})
    assert {row[1] for row in store.derived_snapshot()} == {landed[0][0].ref}


# --- search ----------------------------------------------------------------------------------


def test_search_ranks_and_snippets_matches(store) -> None:
    often = artifact(
        "design",
        "# Design\n\nLatency budget. Latency per step, latency alerts.\n",
        JAN,
        kind="design",
    )
    once = artifact("plan", "# Plan\n\nShip it, then look at latency later on.\n", JAN, kind="plan")
    never = artifact("notes", "# Notes\n\nNothing relevant.\n", JAN, kind="notes")
    for landed in (once, never, often):
        store.add_version(*landed)
    hits = store.search("latency")
    assert [version.ref for version, _ in hits] == [often[0].ref, once[0].ref]
    assert "«Latency» budget" in hits[0][1]
    assert "look at «latency» later" in hits[1][1]
    assert [v.ref for v, _ in store.search("latency", kind="plan")] == [once[0].ref]
    assert [v.ref for v, _ in store.search("latency", limit=1)] == [often[0].ref]
    assert store.search("latency", subject="payments") == []
    # Titles count too, and the porter stemmer matches other forms of a word.
    assert [v.ref for v, _ in store.search("notes")] == [never[0].ref]
    assert [v.ref for v, _ in store.search("alert")] == [often[0].ref]


def test_words_with_hyphens_and_dots_are_searched_as_written(store) -> None:
    one = artifact("plan", "# Plan\n\nREQ-1 is in plan.md, see checkout-redesign.\n", JAN)
    ten = artifact("notes", "# Notes\n\nREQ-10 is in plan.txt.\n", JAN, kind="notes")
    for landed in (one, ten):
        store.add_version(*landed)

    def found(query: str) -> list[str]:
        return [version.ref for version, _ in store.search(query)]

    assert found("REQ-1") == [one[0].ref]
    assert found("REQ-10") == [ten[0].ref]
    assert found("plan.md") == [one[0].ref]
    assert found("checkout-redesign plan.md") == [one[0].ref]
    assert sorted(found('"plan.md" OR "plan.txt"')) == sorted([one[0].ref, ten[0].ref])
    assert found('"REQ-10"') == [ten[0].ref]
    with pytest.raises(KnowledgeSearchError, match="put words with punctuation in double quotes"):
        store.search("plan.md OR plan.txt")  # FTS5 syntax, so written as FTS5 reads it


def test_search_sees_only_heads_at_the_time_asked(store) -> None:
    first, second = landed_two_versions(store)
    assert store.search("legacy") == []
    assert [v for v, _ in store.search("legacy", as_of=FEB)] == [first]
    assert [v for v, _ in store.search("checkout")] == [second]
    assert [v for v, _ in store.search("checkout", as_of=FEB)] == [first]
    assert store.search("checkout", as_of=JAN - timedelta(days=1)) == []


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ('"unbalanced', "unterminated string"),
        ("nosuch:word", "no such column: nosuch"),
        ("AND", "fts5: syntax error near"),
        ("  ", "the query is empty"),
    ],
)
def test_a_malformed_search_is_refused_clearly(store, query: str, reason: str) -> None:
    landed_two_versions(store)
    with pytest.raises(KnowledgeSearchError) as refused:
        store.search(query)
    assert str(refused.value).startswith(f"cannot search for {query!r}: {reason}")


def test_the_search_index_agrees_with_the_stored_text(store) -> None:
    landed_two_versions(store)
    with store.database.write() as connection:
        connection.exec_driver_sql(
            "INSERT INTO artifact_search (artifact_search) VALUES ('integrity-check')"
        )
