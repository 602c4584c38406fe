"""Append-only means append-only, on a real SQLite file opened the way another program would
open it: conflicting inserts (``INSERT OR REPLACE``, ``REPLACE INTO``) are refused, and a
version changed behind the triggers' back (triggers dropped, file bytes edited) is caught by
its version hash when read, reported as damaged and left out where the caller asks for that."""

import json
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import UniqueConstraint, inspect, text

from studio.model import Workflow
from studio.store import WorkflowRepository, migrations, open_database
from studio.store.knowledge import ArtifactIntegrityError, KnowledgeRepository
from studio.store.knowledge_integrity import DamagedVersion
from studio.store.knowledge_schema import UNIQUE_KEYS, knowledge_metadata
from studio.store.migrations import SCHEMA_VERSION
from tests.store.test_knowledge_store import FEB, JAN, MAR, artifact, sha

TITLE = "Guest checkout requirements"
FIRST_BODY = "# Requirements\n\nGuests pay without an account.\n"
SECOND_BODY = "# Requirements\n\nGuests pay with a saved wallet.\n"


def land_two(store: KnowledgeRepository):
    """Two versions of one artifact and one of another, as the landing code stores them."""
    first = artifact("requirements", FIRST_BODY, JAN, title=TITLE)
    second = artifact("requirements", SECOND_BODY, MAR, supersedes=first[0].ref, title=TITLE)
    personas = artifact("personas", "# Personas\n\nA guest.\n", FEB, kind="personas")
    store.add_versions([first, personas, second])
    return first[0], second[0], personas[0]


def raw(db_path: Path, *statements: str, parameters: tuple = ()) -> None:
    """Run statements on the file with the plain sqlite3 module, as any other program could."""
    connection = sqlite3.connect(db_path)
    try:
        for statement in statements:
            connection.execute(statement, parameters if "?" in statement else ())
        connection.commit()
    finally:
        connection.close()


def stored_rows(db_path: Path) -> dict[str, list]:
    connection = sqlite3.connect(db_path)
    try:
        return {
            table: connection.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
            for table in ("artifact_versions", "artifact_bodies")
        }
    finally:
        connection.close()


# --- conflicting inserts ---------------------------------------------------------------------

_COPY = (
    "ref, subject, artifact_id, kind, title, created_at, landed_at, sha256, supersedes, "
    "produced_by, links, seq"
)
REPLACEMENTS = {
    "versions: INSERT OR REPLACE with a new title": (
        f"INSERT OR REPLACE INTO artifact_versions ({_COPY}) "
        f"SELECT {_COPY.replace('title', '?')} FROM artifact_versions WHERE seq = 1",
        ("A rewritten title",),
    ),
    "versions: REPLACE INTO with another seq's number": (
        f"REPLACE INTO artifact_versions ({_COPY}) "
        f"SELECT {_COPY.replace('ref', '?', 1)} FROM artifact_versions WHERE seq = 2",
        ("checkout-redesign/personas/another.md",),
    ),
    "versions: REPLACE INTO that takes over a supersedes": (
        f"REPLACE INTO artifact_versions ({_COPY}) "
        f"SELECT {_COPY.replace('ref', '?', 1).replace('seq', 'seq + 10')} "
        "FROM artifact_versions WHERE seq = 3",
        ("checkout-redesign/requirements/a-fork.md",),
    ),
    "bodies: REPLACE INTO with another text": (
        "REPLACE INTO artifact_bodies (sha256, body, size) VALUES (?, 'Tampered.', 9)",
        (sha(FIRST_BODY),),
    ),
    "bodies: INSERT OR REPLACE with another text": (
        "INSERT OR REPLACE INTO artifact_bodies (sha256, body, size) VALUES (?, 'Tampered.', 9)",
        (sha(SECOND_BODY),),
    ),
}


@pytest.mark.parametrize(("statement", "parameters"), REPLACEMENTS.values(), ids=REPLACEMENTS)
def test_a_conflicting_insert_from_another_program_is_refused(
    store, db_path: Path, statement: str, parameters: tuple
) -> None:
    first, second, personas = land_two(store)
    before = stored_rows(db_path)

    with pytest.raises(sqlite3.IntegrityError, match="are append-only"):
        raw(db_path, statement, parameters=parameters)

    assert stored_rows(db_path) == before
    assert store.version(first.ref) == first
    assert store.body(first.ref) == FIRST_BODY
    assert store.body(second.ref) == SECOND_BODY
    assert store.heads() == [personas, second]


def test_a_new_version_and_body_from_the_store_still_land(store) -> None:
    land_two(store)
    third = artifact("design", "# Design\n", MAR, kind="design")
    store.add_version(*third)
    assert store.version(third[0].ref) == third[0]


def test_every_unique_key_of_the_append_only_tables_is_guarded() -> None:
    for name, keys in UNIQUE_KEYS.items():
        table_ = knowledge_metadata.tables[name]
        unique = {c.name for c in table_.primary_key.columns}
        unique |= {c.name for c in table_.columns if c.unique}
        for constraint in table_.constraints:
            if isinstance(constraint, UniqueConstraint):
                unique |= {c.name for c in constraint.columns}
        assert set(keys) == unique, name


# --- fields changed behind the triggers ------------------------------------------------------

CHANGES = {
    "title": "title = 'A title nobody wrote'",
    "subject": "subject = 'payments'",
    "artifact_id": "artifact_id = 'other'",
    "kind": "kind = 'decisions'",
    "created_at": "created_at = '2024-01-01T00:00:00.000000Z'",
    "landed_at": "landed_at = '2030-01-01T00:00:00.000000Z'",
    "sha256": f"sha256 = '{sha(FIRST_BODY)}'",
    "supersedes": "supersedes = NULL",
    "produced_by": """produced_by = '{"workflow": "wf-evil"}'""",
    "links": "links = '[]'",
    "seq": "seq = 30",
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES)
def test_any_field_changed_behind_the_triggers_is_damage_found_on_read(
    store, db_path: Path, change: str
) -> None:
    first, second, personas = land_two(store)
    raw(
        db_path,
        "DROP TRIGGER artifact_versions_no_update",
        f"UPDATE artifact_versions SET {change} WHERE ref = ?",
        parameters=(second.ref,),
    )
    expected = f"damaged: {second.ref}: its stored fields do not match its version hash"

    for read in (lambda: store.version(second.ref), store.heads, store.versions):
        with pytest.raises(ArtifactIntegrityError, match=expected):
            read()
    with pytest.raises(ArtifactIntegrityError, match=expected):
        store.body(second.ref)
    damaged: list[DamagedVersion] = []
    heads = store.heads(damaged=damaged)
    assert second.ref not in {v.ref for v in heads}
    assert personas in heads
    assert [d.ref for d in damaged] == [second.ref]
    assert damaged[0].message.startswith(expected)
    assert store.version(first.ref) == first


def test_a_title_changed_in_the_file_bytes_is_damage_found_on_read(store, db_path: Path) -> None:
    _first, second, personas = land_two(store)
    store.database.close()  # the last connection checkpoints the WAL into the file
    data = db_path.read_bytes()
    assert TITLE.encode() in data
    db_path.write_bytes(data.replace(TITLE.encode(), b"Guest checkout requirementz"))

    damaged: list[DamagedVersion] = []
    heads = store.heads(damaged=damaged)

    assert [v.ref for v in heads] == [personas.ref]
    assert {d.ref for d in damaged} == {second.ref}
    with pytest.raises(ArtifactIntegrityError, match=f"damaged: {second.ref}"):
        store.version(second.ref)


def test_a_body_changed_behind_the_triggers_is_damage_found_on_read(store, db_path: Path) -> None:
    first, second, _personas = land_two(store)
    raw(
        db_path,
        "DROP TRIGGER artifact_bodies_no_update",
        "UPDATE artifact_bodies SET body = 'Guests pay twice.' WHERE sha256 = ?",
        parameters=(second.sha256,),
    )

    with pytest.raises(ArtifactIntegrityError, match=f"damaged: {second.ref}: its text"):
        store.body(second.ref)
    damaged: list[DamagedVersion] = []
    texts = store.texts([first, second], damaged=damaged)
    assert texts == {first.ref: FIRST_BODY}
    assert [d.ref for d in damaged] == [second.ref]
    assert "its text does not match the SHA-256" in damaged[0].problem


def test_search_leaves_out_a_damaged_hit_and_names_it(store, db_path: Path) -> None:
    _first, second, _personas = land_two(store)
    raw(
        db_path,
        "DROP TRIGGER artifact_versions_no_update",
        "UPDATE artifact_versions SET title = 'Wallet of a stranger' WHERE ref = ?",
        parameters=(second.ref,),
    )

    damaged: list[DamagedVersion] = []
    hits = store.search("wallet", damaged=damaged)

    assert hits == []
    assert [d.ref for d in damaged] == [second.ref]
    with pytest.raises(ArtifactIntegrityError, match=f"damaged: {second.ref}"):
        store.search("wallet")


def test_search_leaves_out_a_hit_whose_body_was_changed(store, db_path: Path) -> None:
    _first, second, _personas = land_two(store)
    raw(
        db_path,
        "DROP TRIGGER artifact_bodies_no_update",
        "UPDATE artifact_bodies SET body = 'Send your wallet to us.' WHERE sha256 = ?",
        parameters=(second.sha256,),
    )

    damaged: list[DamagedVersion] = []
    assert store.search("wallet", damaged=damaged) == []
    assert [d.ref for d in damaged] == [second.ref]


def test_a_row_inserted_without_a_version_hash_is_damaged(store, db_path: Path) -> None:
    land_two(store)
    body = "# Planted\n"
    raw(
        db_path,
        "INSERT INTO artifact_bodies (sha256, body, size) VALUES (?, '# Planted\n', 10)",
        parameters=(sha(body),),
    )
    raw(
        db_path,
        f"INSERT INTO artifact_versions ({_COPY}) VALUES ('x/planted.md', 'x', 'planted', "
        "'notes', 'Planted', '2025-01-01T00:00:00.000000Z', '2025-01-01T00:00:00.000000Z', ?, "
        "NULL, '{}', '[]', 99)",
        parameters=(sha(body),),
    )
    damaged: list[DamagedVersion] = []
    store.versions(damaged=damaged)
    assert [d.ref for d in damaged] == ["x/planted.md"]


# --- the version hash ------------------------------------------------------------------------


def test_the_version_hash_is_stored_with_every_version(store, db_path: Path) -> None:
    first, _second, _personas = land_two(store)
    connection = sqlite3.connect(db_path)
    row = connection.execute(
        f"SELECT {_COPY}, version_sha256 FROM artifact_versions WHERE ref = ?", (first.ref,)
    ).fetchone()
    connection.close()
    fields = dict(zip([*_COPY.split(", "), "version_sha256"], row, strict=True))
    fields["produced_by"] = json.loads(fields["produced_by"])
    fields["links"] = json.loads(fields["links"])
    stored_hash = fields.pop("version_sha256")
    document = json.dumps(fields, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert stored_hash == sha(document)


# --- migrating a database stored before version hashes ---------------------------------------


def _version_3_database(db_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A database as schema version 3 left it (no version hashes), with one version landed."""
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:3])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 3)
    database = open_database(db_path)
    stored = WorkflowRepository(database).create(Workflow.model_validate({"name": "kept"}))
    database.close()
    monkeypatch.undo()
    connection = sqlite3.connect(db_path)
    try:
        columns = {row[1] for row in connection.execute("PRAGMA table_info(artifact_versions)")}
        if "version_sha256" in columns:  # today's table definition has it; version 3 had not
            connection.execute("ALTER TABLE artifact_versions DROP COLUMN version_sha256")
        version, body, _ = artifact("requirements", FIRST_BODY, JAN, title=TITLE)
        connection.execute(
            "INSERT INTO artifact_bodies (sha256, body, size) VALUES (?, ?, ?)",
            (version.sha256, body, len(body)),
        )
        links = [{"type": link.type, "target": link.target} for link in version.front.links]
        connection.execute(
            f"INSERT INTO artifact_versions ({_COPY}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                version.ref,
                version.subject,
                version.artifact_id,
                version.front.kind,
                version.front.title,
                "2025-01-10T09:30:00.000000Z",
                "2025-01-10T09:30:00.000000Z",
                version.sha256,
                None,
                json.dumps(version.front.produced_by),
                json.dumps(links),
                1,
            ),
        )
        connection.commit()
    finally:
        connection.close()
    return stored, [version]


def test_a_version_3_database_gains_version_hashes_and_the_new_triggers(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workflow, (old,) = _version_3_database(db_path, monkeypatch)

    database = open_database(db_path)
    try:
        store = KnowledgeRepository(database)
        with database.read() as connection:
            assert (
                connection.execute(text("SELECT version FROM schema_info")).scalar()
                == SCHEMA_VERSION
            )
            columns = {c["name"] for c in inspect(connection).get_columns("artifact_versions")}
        assert "version_sha256" in columns
        assert store.version(old.ref) == old
        assert store.body(old.ref) == FIRST_BODY
        assert WorkflowRepository(database).get(workflow.id).name == "kept"
        second = artifact("requirements", SECOND_BODY, MAR, supersedes=old.ref, title=TITLE)
        store.add_version(*second)
        assert store.heads() == [second[0]]
    finally:
        database.close()
    statement, parameters = REPLACEMENTS["versions: INSERT OR REPLACE with a new title"]
    with pytest.raises(sqlite3.IntegrityError, match="artifact versions are append-only"):
        raw(db_path, statement, parameters=parameters)
    with pytest.raises(sqlite3.IntegrityError, match="artifact versions are append-only"):
        raw(db_path, "UPDATE artifact_versions SET title = 'x'")


def test_a_migration_that_fails_half_way_leaves_version_3_whole(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workflow, (old,) = _version_3_database(db_path, monkeypatch)

    def broken(_fields) -> str:
        raise RuntimeError("the disk went away")

    monkeypatch.setattr("studio.store.knowledge_schema.version_digest", broken)
    with pytest.raises(RuntimeError, match="the disk went away"):
        open_database(db_path)
    monkeypatch.undo()

    connection = sqlite3.connect(db_path)
    try:
        assert connection.execute("SELECT version FROM schema_info").fetchone() == (3,)
        columns = {row[1] for row in connection.execute("PRAGMA table_info(artifact_versions)")}
        triggers = {
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        }
    finally:
        connection.close()
    assert "version_sha256" not in columns
    assert "artifact_versions_no_update" in triggers
    reopened = open_database(db_path)
    try:
        assert KnowledgeRepository(reopened).version(old.ref) == old
    finally:
        reopened.close()
