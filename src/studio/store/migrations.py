"""Schema versions and the steps between them. A database newer than this Studio is refused."""

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Protocol

from sqlalchemy import Connection, DefaultClause, Table, inspect, select

from studio.store import schema
from studio.store.agent_library_schema import create_library
from studio.store.errors import SchemaTooNewError
from studio.store.knowledge_schema import (
    add_version_hashes,
    add_version_numbers,
    create_knowledge,
    search_in_batches,
)
from studio.store.work_queue_schema import create_work_queue

Migration = Callable[[Connection], None]


class MigratedDatabase(Protocol):
    """What migrating needs of a database: its URL, for messages, and a write transaction."""

    @property
    def url(self) -> str:
        """The database URL, without a password."""
        ...

    def write(self) -> AbstractContextManager[Connection]:
        """A connection in a write transaction, committed on success."""
        ...


SQLITE_IMMUTABLE_VERSIONS = """
CREATE TRIGGER IF NOT EXISTS workflow_versions_immutable
BEFORE UPDATE ON workflow_versions
BEGIN SELECT RAISE(ABORT, 'workflow versions are immutable'); END
"""


def _create_version_1(connection: Connection) -> None:
    schema.metadata.create_all(connection)
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql(SQLITE_IMMUTABLE_VERSIONS)


def _add_governance(connection: Connection) -> None:
    """Version 2: human tasks, governance findings and an execution's compensation state."""
    schema.metadata.create_all(connection, checkfirst=True)
    existing = {column["name"] for column in inspect(connection).get_columns("executions")}
    table = schema.executions
    for name in ("compensation_status", "compensation_summary"):
        if name not in existing:
            column_type = table.c[name].type.compile(dialect=connection.dialect)
            connection.exec_driver_sql(f"ALTER TABLE executions ADD COLUMN {name} {column_type}")


def _add_knowledge(connection: Connection) -> None:
    """Version 3: knowledge artifacts (append-only), their derived graph rows and search."""
    create_knowledge(connection)


def _add_apps_and_blueprint_links(connection: Connection) -> None:
    """Version 5: an app's status, and the blueprint (and its version) a workflow came from."""
    for table, names in (
        (schema.apps, ("status",)),
        (schema.workflows, ("blueprint_id", "blueprint_version")),
    ):
        existing = {column["name"] for column in inspect(connection).get_columns(table.name)}
        for name in names:
            if name not in existing:
                _add_column(connection, table, name)


def _add_column(connection: Connection, table: Table, name: str) -> None:
    """``ALTER TABLE … ADD COLUMN`` for a column as the schema describes it."""
    column = table.c[name]
    column_type = column.type.compile(dialect=connection.dialect)
    default = column.server_default
    clause = "" if column.nullable else " NOT NULL"
    if isinstance(default, DefaultClause) and isinstance(default.arg, str):
        clause += f" DEFAULT '{default.arg}'"  # rows already there need a value
    connection.exec_driver_sql(f"ALTER TABLE {table.name} ADD COLUMN {name} {column_type}{clause}")


MIGRATIONS: list[tuple[int, Migration]] = [
    (1, _create_version_1),
    (2, _add_governance),
    (3, _add_knowledge),
    (4, add_version_hashes),
    (5, _add_apps_and_blueprint_links),
    (6, create_library),
    (7, create_work_queue),
    (8, add_version_numbers),
    (9, search_in_batches),
]
"""Each step brings the schema to its version number; append, never edit, a step."""

SCHEMA_VERSION = MIGRATIONS[-1][0]


def current_version(connection: Connection) -> int:
    """The schema version a database is at; 0 for an empty database."""
    if not inspect(connection).has_table(schema.schema_info.name):
        return 0
    version = connection.execute(select(schema.schema_info.c.version)).scalar()
    return int(version or 0)


def migrate(database: MigratedDatabase) -> int:
    """Bring the database to SCHEMA_VERSION in one write transaction; returns the version."""
    with database.write() as connection:
        version = current_version(connection)
        if version > SCHEMA_VERSION:
            raise SchemaTooNewError(
                f"the database {database.url} has schema version {version}; "
                f"this Studio knows versions up to {SCHEMA_VERSION}. Update Studio to open it."
            )
        for target, step in MIGRATIONS:
            if target > version:
                step(connection)
                _set_version(connection, target)
                version = target
    return version


def _set_version(connection: Connection, version: int) -> None:
    table = schema.schema_info
    if connection.execute(select(table.c.id)).first() is None:
        connection.execute(table.insert().values(id=1, version=version))
    else:
        connection.execute(table.update().where(table.c.id == 1).values(version=version))
