"""The agent library's tables: immutable numbered versions of agent definitions, and the large
bodies they share, stored once by SHA-256. Schema version 6 creates them (``create_library``)
and gives each execution the agent versions it pinned.

A version row holds its definition without the bodies (``definition``), the SHA-256 of each
body by setting key (``body_refs``) and the SHA-256 of the whole definition as saved
(``definition_sha256``), so that a read can tell a damaged body or row from a sound one. On
SQLite, triggers refuse any UPDATE or DELETE of either table, as ``workflow_versions_immutable``
does for workflow versions.
"""

from sqlalchemy import (
    JSON,
    Column,
    Connection,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    inspect,
)

from studio.store.schema import NAMING_CONVENTION, UtcTimestamp, executions

AGENT_ID_CHARS = 255
NAMESPACE_CHARS = 32

library_metadata = MetaData(naming_convention=NAMING_CONVENTION)
"""Separate from ``schema.metadata``: version 1 creates that one whole, and must not create
these tables."""

agent_bodies = Table(
    "agent_bodies",
    library_metadata,
    Column("sha256", String(64), primary_key=True),
    Column("body", Text, nullable=False),
    Column("size", Integer, nullable=False),
)

agent_versions = Table(
    "agent_versions",
    library_metadata,
    Column("namespace", String(NAMESPACE_CHARS), nullable=False),
    Column("agent_id", String(AGENT_ID_CHARS), nullable=False),
    Column("version", Integer, nullable=False),
    Column("definition", JSON, nullable=False),
    Column("body_refs", JSON, nullable=False),
    Column("definition_sha256", String(64), nullable=False),
    Column("created_at", UtcTimestamp, nullable=False),
    PrimaryKeyConstraint("namespace", "agent_id", "version"),
)

IMMUTABLE = {"agent_versions": "agent versions", "agent_bodies": "agent bodies"}
"""The tables whose rows are never changed or removed, with how the refusal names them."""

_SQLITE_IMMUTABLE = """
CREATE TRIGGER IF NOT EXISTS {table}_immutable_{name}
BEFORE {event} ON {table}
BEGIN SELECT RAISE(ABORT, '{label} are immutable'); END
"""

PINNED_AGENTS_COLUMN = "agent_versions"
"""The executions column holding {agent id: {namespace, version}} of the run."""


def create_library(connection: Connection) -> None:
    """Version 6: the library's tables, their SQLite triggers, and the executions column
    recording the agent versions each run pinned."""
    library_metadata.create_all(connection, checkfirst=True)
    if connection.dialect.name == "sqlite":
        for table, label in IMMUTABLE.items():
            for event in ("UPDATE", "DELETE"):
                connection.exec_driver_sql(
                    _SQLITE_IMMUTABLE.format(
                        table=table, event=event, name=event.lower(), label=label
                    )
                )
    existing = {column["name"] for column in inspect(connection).get_columns(executions.name)}
    if PINNED_AGENTS_COLUMN not in existing:
        column_type = executions.c[PINNED_AGENTS_COLUMN].type.compile(dialect=connection.dialect)
        connection.exec_driver_sql(
            f"ALTER TABLE {executions.name} ADD COLUMN {PINNED_AGENTS_COLUMN} {column_type}"
        )
