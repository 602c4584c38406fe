"""The knowledge store's append-only rules on a real PostgreSQL server, as on SQLite: a
conflicting insert (``ON CONFLICT DO UPDATE``/``DO NOTHING``, a repeated key) and TRUNCATE are
refused; a field changed with the triggers disabled is caught by the version hash, which is
the same hash SQLite stores for the same version; a version 3 database gains its hashes; the
longest subject, kind and id the lint lets through fit their columns; verify finds derived
rows changed behind its back."""

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from studio.knowledge.knowledge_base import KnowledgeBase
from studio.knowledge.landing import ArtifactRejectedError
from studio.store import migrations, open_database
from studio.store.knowledge import ArtifactIntegrityError, KnowledgeRepository
from studio.store.knowledge_integrity import DamagedVersion
from tests.knowledge.test_lint import BASE, longest_landing, with_key
from tests.store.test_knowledge_store import FEB, JAN, MAR, artifact

_NUMBERS = itertools.count(1)


@pytest.fixture
def database_url(postgres_url: str) -> Iterator[str]:
    """A database of its own on the test server (the knowledge tables start empty)."""
    name = f"knowledge_{next(_NUMBERS)}"
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f"CREATE DATABASE {name}")
    admin.dispose()
    yield make_url(postgres_url).set(database=name).render_as_string(hide_password=False)


@pytest.fixture
def store(database_url: str) -> Iterator[KnowledgeRepository]:
    database = open_database(database_url)
    try:
        yield KnowledgeRepository(database)
    finally:
        database.close()


def land_two(store: KnowledgeRepository):
    first = artifact("requirements", "# Requirements\n\nGuests pay.\n", JAN)
    second = artifact(
        "requirements", "# Requirements\n\nGuests pay by wallet.\n", MAR, supersedes=first[0].ref
    )
    personas = artifact("personas", "# Personas\n", FEB, kind="personas")
    store.add_versions([first, personas, second])
    return first[0], second[0], personas[0]


def sql(store: KnowledgeRepository, *statements: str, **parameters) -> None:
    with store.database.write() as connection:
        for statement in statements:
            connection.execute(text(statement), parameters)


COLUMNS = (
    "ref, subject, artifact_id, kind, title, created_at, landed_at, sha256, supersedes, "
    "produced_by, links, seq"
)
REFUSED = {
    "upsert of a version": (
        f"INSERT INTO artifact_versions ({COLUMNS}) SELECT {COLUMNS} FROM artifact_versions "
        "WHERE seq = 1 ON CONFLICT (ref) DO UPDATE SET title = 'A rewritten title'"
    ),
    "insert of a stored version, conflicts ignored": (
        f"INSERT INTO artifact_versions ({COLUMNS}) SELECT {COLUMNS} FROM artifact_versions "
        "WHERE seq = 1 ON CONFLICT DO NOTHING"
    ),
    "upsert of a body": (
        "INSERT INTO artifact_bodies (sha256, body, size) SELECT sha256, 'Tampered.', 9 "
        "FROM artifact_bodies LIMIT 1 ON CONFLICT (sha256) DO UPDATE SET body = 'Tampered.'"
    ),
    "truncate of the versions": "TRUNCATE artifact_versions CASCADE",
    "truncate of the bodies": "TRUNCATE artifact_bodies CASCADE",
}


@pytest.mark.parametrize("statement", REFUSED.values(), ids=REFUSED)
def test_a_conflicting_insert_or_a_truncate_is_refused(store, statement: str) -> None:
    first, second, personas = land_two(store)

    with pytest.raises(IntegrityError, match="are append-only"):
        sql(store, statement)

    assert store.version(first.ref) == first
    assert store.heads() == [personas, second]
    assert store.verify() == (3, [])


def test_the_version_hash_is_the_one_sqlite_stores(store, tmp_path: Path) -> None:
    land_two(store)
    local = open_database(tmp_path / "studio.db")
    try:
        land_two(KnowledgeRepository(local))
        query = "SELECT ref, version_sha256 FROM artifact_versions ORDER BY seq"
        with local.read() as connection:
            on_sqlite = connection.execute(text(query)).all()
    finally:
        local.close()
    with store.database.read() as connection:
        on_postgres = connection.execute(text(query)).all()
    assert on_postgres == on_sqlite
    assert all(len(digest) == 64 for _ref, digest in on_postgres)


def test_a_title_changed_with_the_triggers_disabled_is_damage_found_on_read(store) -> None:
    _first, second, personas = land_two(store)
    sql(
        store,
        "ALTER TABLE artifact_versions DISABLE TRIGGER USER",
        "UPDATE artifact_versions SET title = 'A title nobody wrote' WHERE ref = :ref",
        "ALTER TABLE artifact_versions ENABLE TRIGGER USER",
        ref=second.ref,
    )

    with pytest.raises(ArtifactIntegrityError, match=f"damaged: {second.ref}: its stored fields"):
        store.version(second.ref)
    damaged: list[DamagedVersion] = []
    assert store.heads(damaged=damaged) == [personas]
    assert [d.ref for d in damaged] == [second.ref]
    count, found = store.verify()
    assert (count, [d.ref for d in found]) == (3, [second.ref])


def test_a_text_changed_with_the_triggers_disabled_is_damage_found_on_read(store) -> None:
    first, second, _personas = land_two(store)
    sql(
        store,
        "ALTER TABLE artifact_bodies DISABLE TRIGGER USER",
        "UPDATE artifact_bodies SET body = 'Guests pay twice.' WHERE sha256 = :digest",
        "ALTER TABLE artifact_bodies ENABLE TRIGGER USER",
        digest=second.sha256,
    )

    with pytest.raises(ArtifactIntegrityError, match=f"damaged: {second.ref}: its text"):
        store.body(second.ref)
    assert store.body(first.ref) == "# Requirements\n\nGuests pay.\n"
    assert [d.ref for d in store.verify()[1]] == [second.ref]


def test_a_version_3_database_gains_version_hashes(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:3])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 3)
    old = open_database(database_url)
    version, body, _ = artifact("requirements", "# Requirements\n", JAN)
    with old.write() as connection:
        # Today's table definition has the column; version 3's had not.
        connection.exec_driver_sql("ALTER TABLE artifact_versions DROP COLUMN version_sha256")
        connection.execute(
            text("INSERT INTO artifact_bodies (sha256, body, size) VALUES (:s, :b, :n)"),
            {"s": version.sha256, "b": body, "n": len(body)},
        )
        connection.execute(
            text(
                "INSERT INTO artifact_versions (ref, subject, artifact_id, kind, title, "
                "created_at, landed_at, sha256, supersedes, produced_by, links, seq) VALUES "
                "(:ref, :subject, :id, :kind, :title, :at, :at, :sha, NULL, "
                "CAST(:produced AS json), CAST(:links AS json), 1)"
            ),
            {
                "ref": version.ref,
                "subject": version.subject,
                "id": version.artifact_id,
                "kind": version.front.kind,
                "title": version.front.title,
                "at": "2025-01-10T09:30:00.000000Z",
                "sha": version.sha256,
                "produced": '{"workflow": "wf-1", "execution": "ex-1", "node": "write"}',
                "links": '[{"type": "DERIVED_FROM", "target": "intent"}, '
                '{"type": "CITES", "target": "personas"}]',
            },
        )
    old.close()
    monkeypatch.undo()

    database = open_database(database_url)
    try:
        store = KnowledgeRepository(database)
        assert store.version(version.ref) == version
        assert store.verify() == (1, [])
        with pytest.raises(IntegrityError, match="artifact versions are append-only"):
            sql(store, "UPDATE artifact_versions SET title = 'x'")
        with pytest.raises(IntegrityError, match="artifact versions are append-only"):
            sql(store, REFUSED["upsert of a version"])
    finally:
        database.close()


def test_the_longest_subject_kind_and_id_the_lint_lets_through_land(store) -> None:
    knowledge = KnowledgeBase(store)
    longest = {field: longest_landing(field) for field in ("subject", "kind", "id")}

    def with_keys(longer_kind: int = 0) -> str:
        text = BASE
        for field, length in longest.items():
            length += longer_kind if field == "kind" else 0
            text = with_key(field, "k" * length, text)
        return text

    ref = knowledge.land(with_keys())

    front = store.version(ref).front
    assert [len(front.subject), len(front.kind), len(front.id)] == list(longest.values())
    assert knowledge.resolve(ref) == with_keys()
    with pytest.raises(ArtifactRejectedError, match=r"\[kg\.front_matter\.kind\]"):
        knowledge.land(with_keys(longer_kind=1))
    assert store.refs() == {ref}


def test_verify_finds_derived_rows_changed_behind_its_back(store) -> None:
    knowledge = KnowledgeBase(store)
    ref = knowledge.land(with_key("kind", "stories"))
    sql(store, "UPDATE kg_derivations SET rows = replace(rows, 'Restore', 'PWNED')")

    assert knowledge.verify().differing == [ref]
    knowledge.rebuild()
    assert knowledge.verify().differing == []
