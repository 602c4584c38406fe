"""The knowledge store's tables: artifact bodies and versions (append-only) and the graph rows
derived from them (rebuildable). Schema version 3 creates them; see ``create_knowledge``.

Bodies and versions are never updated or deleted: the database refuses it with triggers (SQLite
and PostgreSQL). Full-text search is an SQLite FTS5 table whose content is read through a view,
so a body's text is stored once however many versions share it.
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
)

from studio.store.schema import NAMING_CONVENTION, UtcTimestamp

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
    Column("ref", String(512), primary_key=True),
    Column("subject", String(255), nullable=False),
    Column("artifact_id", String(255), nullable=False),
    Column("kind", String(64), nullable=False),
    Column("title", Text, nullable=False),
    Column("created_at", UtcTimestamp, nullable=False),
    Column("landed_at", UtcTimestamp, nullable=False),
    Column("sha256", String(64), ForeignKey("artifact_bodies.sha256"), nullable=False),
    # Unique: a version is superseded by at most one other (no forks in a chain).
    Column("supersedes", String(512), ForeignKey("artifact_versions.ref"), unique=True),
    Column("produced_by", JSON, nullable=False),
    Column("links", JSON, nullable=False),
    Column("seq", Integer, nullable=False, unique=True),
    Index("ix_artifact_versions_subject_artifact", "subject", "artifact_id"),
    Index("ix_artifact_versions_kind", "kind"),
)

kg_derivations = Table(
    # Every graph row one version derived (its sections, items, units and edges), as one JSON
    # document keyed by the version: each row's provenance is the version it is filed under.
    # One insert per artifact keeps a bulk ingest as fast as parsing; the graph is projected in
    # memory, so nothing queries single rows in SQL. Rebuildable, unlike the tables above.
    "kg_derivations",
    knowledge_metadata,
    Column("version_ref", String(512), ForeignKey("artifact_versions.ref"), primary_key=True),
    Column("rows", Text, nullable=False),
)

APPEND_ONLY = {"artifact_bodies": "artifact bodies", "artifact_versions": "artifact versions"}
"""Tables whose rows are never updated or deleted, with how the refusal names them."""

SEARCH_TABLE = "artifact_search"

_SQLITE_APPEND_ONLY = """
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

_POSTGRES_APPEND_ONLY_FUNCTION = """
CREATE OR REPLACE FUNCTION studio_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    RAISE EXCEPTION USING
        MESSAGE = TG_ARGV[0] || ' are append-only', ERRCODE = 'restrict_violation';
END
$body$
"""

_POSTGRES_APPEND_ONLY = """
CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
FOR EACH ROW EXECUTE FUNCTION studio_refuse_change('{label}')
"""


def create_knowledge(connection: Connection) -> None:
    """Create the knowledge tables, their append-only triggers and (SQLite) the search index."""
    knowledge_metadata.create_all(connection, checkfirst=True)
    if connection.dialect.name == "sqlite":
        for table, label in APPEND_ONLY.items():
            for event in ("UPDATE", "DELETE"):
                connection.exec_driver_sql(
                    _SQLITE_APPEND_ONLY.format(
                        table=table, event=event, name=event.lower(), label=label
                    )
                )
        for statement in _SQLITE_SEARCH:
            connection.exec_driver_sql(statement)
    elif connection.dialect.name == "postgresql":
        connection.exec_driver_sql(_POSTGRES_APPEND_ONLY_FUNCTION)
        for table, label in APPEND_ONLY.items():
            connection.exec_driver_sql(_POSTGRES_APPEND_ONLY.format(table=table, label=label))
