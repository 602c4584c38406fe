"""Opening a database deliberately: SQLite with WAL, foreign keys, a busy timeout and
writes that take the write lock up front; or any other SQLAlchemy URL (PostgreSQL).

Every read and write goes through ``Database.read``/``write``, where a failure of the storage
under the database (full disk, read-only file, damaged file) becomes a StorageFaultError that
names the database and the cause; the transaction it interrupted was rolled back whole."""

import sqlite3
import time
import weakref
from collections.abc import Iterator
from contextlib import AbstractContextManager as ContextManager
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from studio.store import file_health
from studio.store.driver_statements import sqlite_driver
from studio.store.errors import DamagedDatabaseError, DatabaseError, StorageFaultError
from studio.store.file_health import FileSession, FileStamp
from studio.store.held_writer import HeldWriter
from studio.store.hot_statements import pipelined_transaction
from studio.store.migrations import migrate
from studio.store.storage_faults import storage_fault, unwritable_reason

BUSY_TIMEOUT_MS = 10_000
WAL_CHECKPOINT_PAGES = 10_000
"""Pages the WAL gathers before a commit copies them into the file (about 40 MB)."""


class Database:
    """A SQLAlchemy engine plus the two ways Studio talks to it: read and write."""

    def __init__(self, engine: Engine, file: Path | None = None) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        self.file = file
        """The SQLite file, or None for an in-memory database or another server."""
        self._writer = engine.execution_options(studio_begin="IMMEDIATE")
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        """Where ``read_pipelined``/``write_pipelined`` begin and commit transactions
        themselves (not on SQLite)."""
        self._session_end = weakref.finalize(self, _end_session, engine, None)
        self._held = HeldWriter()

    @property
    def url(self) -> str:
        """The database URL, without a password."""
        return self.engine.url.render_as_string(hide_password=True)

    @property
    def location(self) -> str:
        """How messages name the database: its file, or its URL without a password."""
        return str(self.file) if self.file is not None else self.url

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection in a read transaction (SQLite: deferred, so readers never block)."""
        with self._storage_faults("read"), self.engine.begin() as connection:
            yield connection

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A connection in a write transaction, committed on success (SQLite: BEGIN IMMEDIATE).

        Inside ``holding_writer`` on the same thread, the transaction begins on the held
        connection instead of one checked out of the pool for it."""
        held = self._held.free()
        if held is None:
            with self._storage_faults("write to"), self._writer.begin() as connection:
                yield connection
            return
        with self._held, self._storage_faults("write to"), held.begin():
            yield held

    @contextmanager
    def holding_writer(self) -> Iterator[None]:
        """Keep one write connection for this thread while the block runs, so that each of
        its write transactions skips the pool: a step runner writes one a node, and the
        checkout and return cost it as much as SQLite's own BEGIN and COMMIT. Blocks may
        nest, on one thread or several; a connection is held per thread, until its
        outermost block ends."""
        with self._storage_faults("write to"):
            self._held.hold(self._writer)
        try:
            yield
        finally:
            self._held.release()

    def read_pipelined(self) -> ContextManager[Connection]:
        """A read transaction, as ``read``; on PostgreSQL as ``write_pipelined``."""
        return self.read() if self.is_sqlite else self._pipelined("read")

    def write_pipelined(self) -> ContextManager[Connection]:
        """A write transaction, as ``write``; on PostgreSQL a ``pipelined_transaction``:
        its BEGIN goes with its first statements and its COMMIT with its last, so neither
        costs a round trip of its own. What a hot statement sent last returns is read after
        the block."""
        return self.write() if self.is_sqlite else self._pipelined("write to")

    @contextmanager
    def _pipelined(self, doing: str) -> Iterator[Connection]:
        with (
            self._storage_faults(doing),
            self._autocommit.connect() as connection,
            pipelined_transaction(connection),
        ):
            yield connection

    @contextmanager
    def write_if_free(self, wait_ms: int) -> Iterator[Connection | None]:
        """A write transaction, as ``write``, if SQLite's write lock comes free within
        ``wait_ms``; None, with nothing begun, if another writer holds it longer (work that
        may wait for a later turn, so a reader never queues behind a long write)."""
        if not self.is_sqlite:
            with self.write() as connection:
                yield connection
            return
        with self._storage_faults("write to"), self._writer.connect() as connection:
            driver = sqlite_driver(connection)
            driver.execute(f"PRAGMA busy_timeout={wait_ms}")
            try:
                with _begun_unless_busy(connection) as began:
                    yield connection if began else None
            finally:
                driver.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")

    def stamp(self) -> FileStamp | None:
        """What the SQLite file looks like now (None without a file): see ``changed_since``."""
        return None if self.file is None else file_health.file_stamp(self.file)

    def changed_since(self, stamp: FileStamp | None) -> bool:
        """Whether the SQLite file changed since ``stamp`` (a checkpoint, or bytes written by
        something else): what was read before may no longer be what is on disk."""
        return self.file is not None and stamp is not None and self.stamp() != stamp

    def check_integrity(self, doing: str) -> None:
        """Quick-check the file; raise DamagedDatabaseError naming the first problem."""
        assert self.file is not None
        report = _quick_check(self.file, self.location, doing)
        if not report.ok:
            file_health.record_damage(self.file, report.summary())
            raise DamagedDatabaseError(self.location, doing, report.summary())

    def close(self) -> None:
        """Release every pooled connection; a SQLite file is left sealed as cleanly closed."""
        self.engine.dispose()
        self._session_end()

    def _begin_session(self) -> None:
        """Mark the file open by this process until ``close`` (or the process's exit)."""
        assert self.file is not None
        try:
            session = FileSession(self.file)
        except OSError as failure:
            reason = unwritable_reason(self.file) or f"cannot write beside it ({failure})"
            raise StorageFaultError(self.location, "open", reason) from failure
        self._session_end.detach()
        self._session_end = weakref.finalize(self, _end_session, self.engine, session)

    @contextmanager
    def _storage_faults(self, doing: str) -> Iterator[None]:
        """A driver error raised inside that a storage fault lies behind (a full disk, a
        read-only or damaged file) comes out as that StorageFaultError; any other as it is."""
        try:
            yield
        except (DBAPIError, sqlite3.Error) as failure:
            self._raise_storage_fault(failure, doing)
            raise

    def _raise_storage_fault(self, failure: BaseException, doing: str) -> None:
        """Raise the storage fault behind a driver error; return for any other error."""
        fault = storage_fault(failure, self.location, self.file, doing)
        if fault is None:
            return
        if isinstance(fault, DamagedDatabaseError) and self.file is not None:
            file_health.record_damage(self.file, fault.problem)
        raise fault from failure


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
    """Open (and create or migrate) the database at a URL or SQLite file path.

    A SQLite file that cannot be written, or that was not closed cleanly and fails its quick
    check, is refused with a StorageFaultError before anything is written to it."""
    url = database_url(target)
    try:
        parsed = make_url(url)
    except ArgumentError as failure:
        raise DatabaseError(f"'{target}' is not a database URL or file path") from failure
    file = _sqlite_file(parsed)
    if file is not None:
        _prepare_file(file)
    try:
        engine = create_engine(parsed, connect_args=_connect_args(parsed.get_backend_name()))
    except (ArgumentError, NoSuchModuleError, ImportError) as failure:
        raise DatabaseError(
            f"cannot use {parsed.render_as_string(hide_password=True)}: {failure}. "
            "For PostgreSQL install Studio with the postgres extra: pip install 'studio[postgres]'"
        ) from failure
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine)
    database = Database(engine, file)
    try:
        _start(database, migrate_schema)
    except BaseException:
        database.close()
        raise
    return database


def sqlite_file_of(target: str | Path) -> Path | None:
    """The SQLite file a URL or path names; None for an in-memory database or another
    backend."""
    try:
        return _sqlite_file(make_url(database_url(target)))
    except ArgumentError as failure:
        raise DatabaseError(f"'{target}' is not a database URL or file path") from failure


def _sqlite_file(url: URL) -> Path | None:
    database = url.database
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        return None  # a SQLite URI names its own options; taken as it is
    return Path(database)


def _prepare_file(file: Path) -> None:
    """Make the folder, and refuse a file SQLite could not write (it would open it read-only
    and fail only at the first write)."""
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as failure:
        cause = unwritable_reason(file) or f"cannot make its folder ({failure.strerror})"
        raise StorageFaultError(str(file), "open", cause) from failure
    reason = unwritable_reason(file)
    if reason is not None:
        raise StorageFaultError(str(file), "open", reason)


def _start(database: Database, migrate_schema: bool) -> None:
    if database.file is not None:
        dead = file_health.dead_markers(database.file)
        if file_health.needs_check(database.file, dead):
            database.check_integrity("open")
            file_health.record_sound(database.file, dead)
        database._begin_session()
    try:
        if migrate_schema:
            migrate(database)
        else:
            with database.read():
                pass
    except StorageFaultError:
        raise
    except DBAPIError as failure:
        reason = getattr(failure, "orig", None) or failure
        raise DatabaseError(f"cannot open the database {database.url}: {reason}") from failure


def _quick_check(file: Path, location: str, doing: str) -> file_health.IntegrityReport:
    try:
        return file_health.quick_check(file)
    except sqlite3.Error as failure:
        fault = storage_fault(failure, location, file, doing)
        raise fault or StorageFaultError(location, doing, str(failure)) from failure


def _end_session(engine: Engine, session: FileSession | None) -> None:
    engine.dispose()  # first: the last connection to close checkpoints the file
    if session is not None:
        session.close()


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
        # A write to the work queue or the knowledge store touches a few dozen pages; copying
        # them back into the file every 1,000 pages (SQLite's default) made every thirtieth
        # commit wait for a checkpoint and its fsync. Committed pages are as safe in the WAL.
        cursor.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
        cursor.execute("PRAGMA foreign_keys=ON")
        # Every page is checked as it is read, so a write never builds on a damaged page.
        cursor.execute("PRAGMA cell_size_check=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        mode = connection.get_execution_options().get("studio_begin", "DEFERRED")
        # Straight to the driver: this runs for every transaction, so it skips SQLAlchemy's
        # statement machinery.
        sqlite_driver(connection).execute(f"BEGIN {mode}")


def _switch_to_wal(cursor) -> None:
    """Turn on WAL unless the file has it already, waiting like any write would: SQLite's
    busy handler skips this pragma. A connection to a file in WAL (every one but the first)
    only reads the mode, so opening it for a read never waits for another program's lock."""
    cursor.execute("PRAGMA journal_mode")
    if str(cursor.fetchone()[0]).lower() == "wal":
        return
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


@contextmanager
def _begun_unless_busy(connection: Connection) -> Iterator[bool]:
    """Begin (and commit on success) a transaction on ``connection``; False, with nothing
    begun, when the database is locked past the connection's busy timeout."""
    try:
        transaction = connection.begin()
    except (DBAPIError, sqlite3.OperationalError) as failure:
        if not _is_locked(failure):
            raise
        connection.rollback()
        yield False
        return
    with transaction:
        yield True


def _is_locked(failure: DBAPIError | sqlite3.OperationalError) -> bool:
    reason = str(failure.orig if isinstance(failure, DBAPIError) else failure).lower()
    return "locked" in reason or "busy" in reason
