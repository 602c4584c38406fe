"""Opening a database deliberately: SQLite with WAL, foreign keys, a busy timeout and
writes that take the write lock up front; or any other SQLAlchemy URL (PostgreSQL)."""

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlalchemy.exc import DatabaseError as DriverDatabaseError

from studio.store.errors import DatabaseError
from studio.store.migrations import migrate

BUSY_TIMEOUT_MS = 10_000


class Database:
    """A SQLAlchemy engine plus the two ways Studio talks to it: read and write."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        self._writer = engine.execution_options(studio_begin="IMMEDIATE")

    @property
    def url(self) -> str:
        """The database URL, without a password."""
        return self.engine.url.render_as_string(hide_password=True)

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection in a read transaction (SQLite: deferred, so readers never block)."""
        with self.engine.begin() as connection:
            yield connection

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A connection in a write transaction, committed on success (SQLite: BEGIN IMMEDIATE)."""
        with self._writer.begin() as connection:
            yield connection

    def close(self) -> None:
        """Release every pooled connection."""
        self.engine.dispose()


def database_url(target: str | Path) -> str:
    """A SQLAlchemy URL for a URL or a plain file path (which means a SQLite file)."""
    text = str(target)
    if text.startswith(("postgresql://", "postgres://")):
        # psycopg 3 is the driver Studio ships with (the ``postgres`` extra).
        return "postgresql+psycopg://" + text.split("://", 1)[1]
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser().resolve()}"


def open_database(target: str | Path, *, migrate_schema: bool = True) -> Database:
    """Open (and create or migrate) the database at a URL or SQLite file path."""
    url = database_url(target)
    try:
        parsed = make_url(url)
    except ArgumentError as failure:
        raise DatabaseError(f"'{target}' is not a database URL or file path") from failure
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    try:
        engine = create_engine(parsed, connect_args=_connect_args(parsed.get_backend_name()))
    except (ArgumentError, NoSuchModuleError, ImportError) as failure:
        raise DatabaseError(
            f"cannot use {parsed.render_as_string(hide_password=True)}: {failure}. "
            "For PostgreSQL install Studio with the postgres extra: pip install 'studio[postgres]'"
        ) from failure
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine)
    database = Database(engine)
    try:
        if migrate_schema:
            migrate(database)
        else:
            database.engine.connect().close()
    except DriverDatabaseError as failure:
        database.close()
        reason = getattr(failure, "orig", None) or failure
        raise DatabaseError(f"cannot open the database {database.url}: {reason}") from failure
    return database


def _connect_args(backend: str) -> dict:
    if backend == "sqlite":
        # The engine runs node work in worker threads too; SQLAlchemy pools per thread.
        return {"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
    return {}


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        # Leave transaction control to SQLAlchemy's begin event below, not to pysqlite.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        _switch_to_wal(cursor)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        mode = connection.get_execution_options().get("studio_begin", "DEFERRED")
        # Straight to the driver: this runs for every transaction, so it skips SQLAlchemy's
        # statement machinery.
        connection.connection.driver_connection.execute(f"BEGIN {mode}")


def _switch_to_wal(cursor) -> None:
    """Turn on WAL, waiting like any write would: SQLite's busy handler skips this pragma."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    pause = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as failure:
            if "locked" not in str(failure) or time.monotonic() + pause > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)
