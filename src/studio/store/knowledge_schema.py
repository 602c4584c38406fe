"""The knowledge store's tables: artifact bodies and versions (append-only) and the graph rows
derived from them (rebuildable). Schema version 3 creates them (``create_knowledge``); version
4 adds each version's hash and refuses conflicting inserts (``add_version_hashes``).

Bodies and versions are never updated, deleted or replaced: the database refuses it with
triggers (SQLite and PostgreSQL), including an insert whose key is stored already (SQLite's
``INSERT OR REPLACE`` would otherwise delete the stored row without firing a delete trigger).
What the triggers cannot stop (a program that drops them, or edits the file's bytes) the version
hash catches on read; ``knowledge_integrity`` defines it. Full-text search is an SQLite FTS5
table whose content is read through a view, so a body's text is stored once however many
versions share it.
"""

from sqlalchemy import (
    JSON,
    Column,
    Connection,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    inspect,
    select,
    type_coerce,
    update,
)

from studio.store.knowledge_integrity import RAW_COLUMNS, plain_fields, version_digest
from studio.store.schema import NAMING_CONVENTION, UtcTimestamp

SUBJECT_CHARS = 255
ARTIFACT_ID_CHARS = 255
KIND_CHARS = 64
REF_CHARS = 512
"""The longest subject, artifact id, kind and ref a version row holds (PostgreSQL refuses a
longer one; the lint keeps artifacts within them)."""

knowledge_metadata = MetaData(naming_convention=NAMING_CONVENTION)
"""Separate from ``schema.metadata``: versions 1 and 2 create that one whole, and must not
create these tables."""

artifact_bodies = Table(
    "artifact_bodies",
    knowledge_metadata,
    Column("sha256", String(64), primary_key=True),
    Column("body", Text, nullable=False),
    Column("size", Integer, nullable=False),
)

artifact_versions = Table(
    "artifact_versions",
    knowledge_metadata,
    Column("ref", String(REF_CHARS), primary_key=True),
    Column("subject", String(SUBJECT_CHARS), nullable=False),
    Column("artifact_id", String(ARTIFACT_ID_CHARS), nullable=False),
    Column("kind", String(KIND_CHARS), nullable=False),
    Column("title", Text, nullable=False),
    Column("created_at", UtcTimestamp, nullable=False),
    Column("landed_at", UtcTimestamp, nullable=False),
    Column("sha256", String(64), ForeignKey("artifact_bodies.sha256"), nullable=False),
    # Unique: a version is superseded by at most one other (no forks in a chain).
    Column("supersedes", String(REF_CHARS), ForeignKey("artifact_versions.ref"), unique=True),
    Column("produced_by", JSON, nullable=False),
    Column("links", JSON, nullable=False),
    Column("seq", Integer, nullable=False, unique=True),
    # Empty only in a row another program inserted: it then fails its check like any damage.
    Column("version_sha256", String(64), nullable=False, server_default=""),
    Index("ix_artifact_versions_subject_artifact", "subject", "artifact_id"),
    Index("ix_artifact_versions_kind", "kind"),
)

VERSION_COLUMNS_AS_STORED = [
    type_coerce(column_, Text).label(column_.name) if column_.name in RAW_COLUMNS else column_
    for column_ in artifact_versions.columns
]
"""The columns of a version row with its times and JSON as the text stored, for the check to
read before anything parses them."""

kg_derivations = Table(
    # Every graph row one version derived (its sections, items, units and edges), as one JSON
    # document keyed by the version: each row's provenance is the version it is filed under.
    # One insert per artifact keeps a bulk ingest as fast as parsing; the graph is projected in
    # memory, so nothing queries single rows in SQL. Rebuildable, unlike the tables above.
    "kg_derivations",
    knowledge_metadata,
    Column("version_ref", String(REF_CHARS), ForeignKey("artifact_versions.ref"), primary_key=True),
    Column("rows", Text, nullable=False),
)

APPEND_ONLY = {"artifact_bodies": "artifact bodies", "artifact_versions": "artifact versions"}
"""Tables whose rows are never updated or deleted, with how the refusal names them."""
UNIQUE_KEYS = {"artifact_bodies": ("sha256",), "artifact_versions": ("ref", "supersedes", "seq")}
"""Every unique column of the append-only tables: an insert that repeats one is refused."""

SEARCH_TABLE = "artifact_search"

SQLITE_APPEND_ONLY = """
CREATE TRIGGER IF NOT EXISTS {table}_no_{name}
BEFORE {event} ON {table}
BEGIN SELECT RAISE(ABORT, '{label} are append-only'); END
"""

_SQLITE_SEARCH = [
    # One row per version; rowid is the version's seq. FTS5 reads title and body back through
    # the view when it needs them (snippets), so the body is not copied into the index tables.
    """
    CREATE VIEW IF NOT EXISTS artifact_search_content AS
    SELECT v.seq AS seq, v.ref AS ref, v.title AS title, b.body AS body
    FROM artifact_versions AS v JOIN artifact_bodies AS b ON b.sha256 = v.sha256
    """,
    f"""
    CREATE VIRTUAL TABLE IF NOT EXISTS {SEARCH_TABLE} USING fts5(
        ref UNINDEXED, title, body,
        content='artifact_search_content', content_rowid='seq',
        tokenize='porter unicode61 remove_diacritics 2'
    )
    """,
]

POSTGRES_APPEND_ONLY_FUNCTION = """
CREATE OR REPLACE FUNCTION studio_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    RAISE EXCEPTION USING
        MESSAGE = TG_ARGV[0] || ' are append-only', ERRCODE = 'restrict_violation';
END
$body$
"""

POSTGRES_APPEND_ONLY = """
CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
FOR EACH ROW EXECUTE FUNCTION studio_refuse_change('{label}')
"""


def create_knowledge(connection: Connection) -> None:
    """Create the knowledge tables, their append-only triggers and (SQLite) the search index."""
    knowledge_metadata.create_all(connection, checkfirst=True)
    refuse_changes(connection, APPEND_ONLY)
    if connection.dialect.name == "sqlite":
        for statement in _SQLITE_SEARCH:
            connection.exec_driver_sql(statement)


def refuse_changes(connection: Connection, tables: dict[str, str]) -> None:
    """Triggers that refuse any UPDATE or DELETE of the tables (name → how the refusal names
    their rows), on SQLite and on PostgreSQL."""
    if connection.dialect.name == "sqlite":
        for table, label in tables.items():
            for event in ("UPDATE", "DELETE"):
                connection.exec_driver_sql(
                    SQLITE_APPEND_ONLY.format(
                        table=table, event=event, name=event.lower(), label=label
                    )
                )
    elif connection.dialect.name == "postgresql":
        connection.exec_driver_sql(POSTGRES_APPEND_ONLY_FUNCTION)
        for table, label in tables.items():
            connection.exec_driver_sql(POSTGRES_APPEND_ONLY.format(table=table, label=label))


_SQLITE_NO_REPLACE = """
CREATE TRIGGER IF NOT EXISTS {table}_no_replace
BEFORE INSERT ON {table}
WHEN {conflict}
BEGIN SELECT RAISE(ABORT, '{label} are append-only: a row with this key is stored already'); END
"""

_POSTGRES_NO_REPLACE_FUNCTION = """
CREATE OR REPLACE FUNCTION studio_refuse_existing_{table}() RETURNS trigger LANGUAGE plpgsql
AS $body$
BEGIN
    IF {conflict} THEN
        RAISE EXCEPTION USING ERRCODE = 'restrict_violation',
            MESSAGE = '{label} are append-only: a row with this key is stored already';
    END IF;
    RETURN NEW;
END
$body$
"""

_POSTGRES_NO_REPLACE = """
CREATE TRIGGER {table}_no_replace BEFORE INSERT ON {table}
FOR EACH ROW EXECUTE FUNCTION studio_refuse_existing_{table}()
"""

_POSTGRES_NO_TRUNCATE = """
CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}
FOR EACH STATEMENT EXECUTE FUNCTION studio_refuse_change('{label}')
"""


def add_version_hashes(connection: Connection) -> None:
    """Version 4: every version's hash (computed for the rows stored before) and triggers that
    refuse an insert repeating a stored key (and, on PostgreSQL, a TRUNCATE).

    Filling the new column is the one UPDATE these tables ever see: the update trigger of
    artifact_versions is dropped and created again around it, inside the migration's single
    write transaction (DDL is transactional on both databases), so no other connection ever
    sees the table without it and a failure leaves version 3 as it was."""
    columns = {c["name"] for c in inspect(connection).get_columns(artifact_versions.name)}
    if "version_sha256" not in columns:
        type_ = artifact_versions.c.version_sha256.type.compile(dialect=connection.dialect)
        connection.exec_driver_sql(
            f"ALTER TABLE artifact_versions ADD COLUMN version_sha256 {type_} NOT NULL DEFAULT ''"
        )
    _fill_version_hashes(connection)
    postgres = connection.dialect.name == "postgresql"
    for table, label in APPEND_ONLY.items():
        conflict = " OR ".join(
            f"EXISTS (SELECT 1 FROM {table} WHERE {key} = NEW.{key})" for key in UNIQUE_KEYS[table]
        )
        names = {"table": table, "label": label, "conflict": conflict}
        if postgres:
            connection.exec_driver_sql(_POSTGRES_NO_REPLACE_FUNCTION.format(**names))
            for trigger in (_POSTGRES_NO_REPLACE, _POSTGRES_NO_TRUNCATE):
                connection.exec_driver_sql(trigger.format(**names))
        else:
            connection.exec_driver_sql(_SQLITE_NO_REPLACE.format(**names))


def _fill_version_hashes(connection: Connection) -> None:
    """Hash the versions stored without one, with the update trigger lifted meanwhile."""
    unhashed = connection.execute(
        select(*VERSION_COLUMNS_AS_STORED).where(artifact_versions.c.version_sha256 == "")
    ).all()
    # A row whose JSON does not parse keeps no hash, and so is reported as damaged when read.
    readable = [fields for fields in map(plain_fields, unhashed) if fields is not None]
    if not readable:
        return
    hashes = [{"row_ref": f["ref"], "row_hash": version_digest(f)} for f in readable]
    table, label = artifact_versions.name, APPEND_ONLY[artifact_versions.name]
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"DROP TRIGGER {table}_append_only ON {table}")
    else:
        connection.exec_driver_sql(f"DROP TRIGGER {table}_no_update")
    connection.execute(
        update(artifact_versions)
        .where(artifact_versions.c.ref == bindparam("row_ref"))
        .values(version_sha256=bindparam("row_hash")),
        hashes,
    )
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(POSTGRES_APPEND_ONLY.format(table=table, label=label))
    else:
        connection.exec_driver_sql(
            SQLITE_APPEND_ONLY.format(table=table, event="UPDATE", name="update", label=label)
        )


VERSION_NUMBERS = "artifact_version_numbers"
"""The PostgreSQL sequence that numbers versions (``seq``)."""


def add_version_numbers(connection: Connection) -> None:
    """Version 8: on PostgreSQL a sequence hands out version numbers, so landings side by side
    never wait for one another's numbers (SQLite's writers take turns anyway and number
    versions after the last one). It starts after the last number stored."""
    if connection.dialect.name != "postgresql":
        return
    connection.exec_driver_sql(f"CREATE SEQUENCE IF NOT EXISTS {VERSION_NUMBERS}")
    connection.exec_driver_sql(
        f"SELECT setval('{VERSION_NUMBERS}', "
        "(SELECT coalesce(max(seq), 0) + 1 FROM artifact_versions), false)"
    )


def search_in_batches(connection: Connection) -> None:
    """Version 9: the search index is filled in batches (``knowledge_search_index``). No table
    changes; the version keeps a Studio that indexed every landing at once, and would index
    past the versions waiting, from opening the database."""
