"""Opening a real SQLite file: pragmas, the write lock, schema versions, paths and URLs."""

import random
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError

from studio.store import database as database_module
from studio.store import migrations
from studio.store.database import BUSY_TIMEOUT_MS, DatabaseError, database_url, open_database
from studio.store.errors import StorageFaultError
from studio.store.migrations import SCHEMA_VERSION, SchemaTooNewError, migrate

TABLES = {
    "schema_info",
    "apps",
    "workflows",
    "workflow_versions",
    "executions",
    "node_results",
    "execution_events",
}


def pragma(database, name: str):
    with database.read() as connection:
        return connection.exec_driver_sql(f"PRAGMA {name}").scalar()


def dump(path: Path) -> list[str]:
    """Everything in the file, schema and rows, read without Studio."""
    with sqlite3.connect(path) as connection:
        return list(connection.iterdump())


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "studio.db"


# --- pragmas -------------------------------------------------------------------------------


def test_every_connection_uses_wal_foreign_keys_and_a_busy_timeout(db_path: Path) -> None:
    database = open_database(db_path)
    try:
        assert pragma(database, "journal_mode") == "wal"
        assert pragma(database, "foreign_keys") == 1
        assert pragma(database, "busy_timeout") == BUSY_TIMEOUT_MS
        assert BUSY_TIMEOUT_MS >= 1000
        assert database.is_sqlite
    finally:
        database.close()
    # WAL is a property of the file: another program opening it sees it too.
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_foreign_keys_are_enforced(db_path: Path) -> None:
    database = open_database(db_path)
    try:
        with pytest.raises(IntegrityError, match="FOREIGN KEY"), database.write() as connection:
            connection.execute(
                text(
                    "INSERT INTO node_results (execution_id, node_id, position, status, "
                    "retry_count) VALUES ('no-such-execution', 'a', 0, 'pending', 0)"
                )
            )
        with database.read() as connection:
            assert connection.execute(text("SELECT count(*) FROM node_results")).scalar() == 0
    finally:
        database.close()


# --- the write lock ------------------------------------------------------------------------


def test_a_write_transaction_takes_the_write_lock_at_begin(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = open_database(db_path)
    monkeypatch.setattr(database_module, "BUSY_TIMEOUT_MS", 50)
    second = open_database(db_path)
    try:
        assert pragma(second, "busy_timeout") == 50
        with first.write():
            # Not one statement ran inside the first transaction, yet the lock is held.
            began = time.monotonic()
            # A lock held past the busy timeout is reported in words, naming the file.
            with (
                pytest.raises(StorageFaultError, match=f"{db_path}: another program has held"),
                second.write() as connection,
            ):
                connection.execute(text("INSERT INTO schema_info (id, version) VALUES (2, 0)"))
            assert time.monotonic() - began < 5
            # Readers are never blocked by a writer (WAL).
            with second.read() as connection:
                assert connection.execute(text("SELECT version FROM schema_info")).scalar() == (
                    SCHEMA_VERSION
                )
        # Once the first commits, the second may write.
        with second.write() as connection:
            connection.execute(
                text(
                    "INSERT INTO apps (id, name, description, version, "
                    "created_at, updated_at) VALUES ('a', 'A', '', 1, 'x', 'x')"
                )
            )
    finally:
        first.close()
        second.close()


def test_a_read_transaction_takes_no_lock(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = open_database(db_path)
    monkeypatch.setattr(database_module, "BUSY_TIMEOUT_MS", 50)
    second = open_database(db_path)
    try:
        with first.read() as reading:
            reading.execute(text("SELECT count(*) FROM workflows")).scalar()
            with second.write() as connection:
                connection.execute(text("UPDATE schema_info SET version = version"))
    finally:
        first.close()
        second.close()


def test_a_second_writer_waits_for_the_first_within_the_busy_timeout(db_path: Path) -> None:
    first, second = open_database(db_path), open_database(db_path)
    holding, release = threading.Event(), threading.Event()

    def hold_the_lock() -> None:
        with first.write() as connection:
            connection.execute(
                text(
                    "INSERT INTO apps (id, name, description, version, created_at, updated_at) "
                    "VALUES ('first', 'First', '', 1, 'x', 'x')"
                )
            )
            holding.set()
            release.wait(10)
            time.sleep(0.3)

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    try:
        assert holding.wait(10)
        began = time.monotonic()
        release.set()
        with second.write() as connection:
            connection.execute(
                text(
                    "INSERT INTO apps (id, name, description, version, created_at, updated_at) "
                    "VALUES ('second', 'Second', '', 1, 'x', 'x')"
                )
            )
            names = connection.execute(text("SELECT id FROM apps ORDER BY id")).scalars().all()
        waited = time.monotonic() - began
    finally:
        release.set()
        holder.join(10)
        first.close()
        second.close()
    assert names == ["first", "second"]
    assert 0.2 <= waited < BUSY_TIMEOUT_MS / 1000


# --- schema versions -----------------------------------------------------------------------


def test_a_new_file_gets_every_table_and_records_the_schema_version(db_path: Path) -> None:
    database = open_database(db_path)
    try:
        with database.read() as connection:
            names = set(
                connection.execute(
                    text("SELECT name FROM sqlite_master WHERE type = 'table'")
                ).scalars()
            )
            rows = connection.execute(text("SELECT id, version FROM schema_info")).all()
            triggers = connection.execute(
                text("SELECT name FROM sqlite_master WHERE type = 'trigger'")
            ).scalars()
            assert set(triggers) == {
                "workflow_versions_immutable",
                "artifact_bodies_no_update",
                "artifact_bodies_no_delete",
                "artifact_versions_no_update",
                "artifact_versions_no_delete",
                "artifact_bodies_no_replace",
                "artifact_versions_no_replace",
                "agent_versions_immutable_update",
                "agent_versions_immutable_delete",
                "agent_bodies_immutable_update",
                "agent_bodies_immutable_delete",
                "work_item_entries_no_update",
                "work_item_entries_no_delete",
                "capability_manifests_no_update",
                "capability_manifests_no_delete",
                "closeout_signatures_no_update",
                "closeout_signatures_no_delete",
            }
        assert names >= TABLES
        assert [tuple(row) for row in rows] == [(1, SCHEMA_VERSION)]
    finally:
        database.close()


def test_opening_a_new_file_waits_for_a_writer_holding_it(db_path: Path) -> None:
    raw = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    raw.execute("CREATE TABLE someone_elses (x)")
    raw.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.3, raw.execute, ("COMMIT",))
    release.start()
    try:
        began = time.monotonic()
        database = open_database(db_path)
        waited = time.monotonic() - began
        try:
            assert pragma(database, "journal_mode") == "wal"
        finally:
            database.close()
        assert waited >= 0.2
    finally:
        release.join(10)
        raw.close()


def test_a_new_connection_reads_at_once_while_another_program_holds_the_write_lock(
    db_path: Path,
) -> None:
    database = open_database(db_path)
    statements: list[str] = []
    event.listen(
        database.engine,
        "connect",
        lambda connection, _record: connection.set_trace_callback(statements.append),
        insert=True,
    )
    database.engine.dispose()  # the next read opens a fresh pooled connection
    raw = sqlite3.connect(db_path, isolation_level=None)
    raw.execute("BEGIN IMMEDIATE")
    try:
        began = time.monotonic()
        assert pragma(database, "journal_mode") == "wal"
        assert time.monotonic() - began < 1.0  # the busy timeout is 10 s
        # The file is in WAL already: the new connection asks no change that waits for locks.
        assert "PRAGMA journal_mode" in statements
        assert not [s for s in statements if s.replace(" ", "").startswith("PRAGMAjournal_mode=")]
    finally:
        raw.execute("ROLLBACK")
        raw.close()
        database.close()


def test_reopening_migrates_nothing(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    open_database(db_path).close()
    before = dump(db_path)
    steps: list[int] = []
    monkeypatch.setattr(
        migrations,
        "MIGRATIONS",
        [(version, lambda _c, v=version: steps.append(v)) for version, _ in migrations.MIGRATIONS],
    )
    database = open_database(db_path)
    try:
        assert migrate(database) == SCHEMA_VERSION
    finally:
        database.close()
    assert steps == []
    assert dump(db_path) == before


def test_a_later_migration_step_runs_once_and_is_recorded(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_database(db_path).close()
    ran: list[str] = []

    def add_notes(connection) -> None:
        ran.append("notes")
        connection.execute(text("CREATE TABLE notes (id INTEGER PRIMARY KEY)"))

    newer = SCHEMA_VERSION + 1
    monkeypatch.setattr(migrations, "MIGRATIONS", [*migrations.MIGRATIONS, (newer, add_notes)])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", newer)
    for _ in range(2):
        open_database(db_path).close()
    assert ran == ["notes"]
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("SELECT version FROM schema_info").fetchall() == [(newer,)]


def test_a_database_from_a_newer_studio_is_refused_and_left_alone(db_path: Path) -> None:
    database = open_database(db_path)
    with database.write() as connection:
        connection.execute(text("UPDATE schema_info SET version = :v"), {"v": SCHEMA_VERSION + 5})
    database.close()
    before = dump(db_path)
    with pytest.raises(SchemaTooNewError) as refused:
        open_database(db_path)
    message = str(refused.value)
    assert f"schema version {SCHEMA_VERSION + 5}" in message
    assert f"up to {SCHEMA_VERSION}" in message
    assert str(db_path) in message
    assert dump(db_path) == before


# --- paths and URLs ------------------------------------------------------------------------


def test_a_plain_path_creates_missing_parent_folders(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "c" / "studio.db"
    database = open_database(path)
    try:
        assert path.is_file()
        assert database.url == f"sqlite:///{path}"
    finally:
        database.close()


def test_a_string_path_is_the_same_as_a_path(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "studio.db"
    open_database(str(path)).close()
    assert path.is_file()


def test_a_relative_path_is_resolved_against_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    database = open_database("relative.db")
    try:
        assert database.url == f"sqlite:///{tmp_path / 'relative.db'}"
    finally:
        database.close()
    assert (tmp_path / "relative.db").is_file()


def test_a_path_under_home_is_expanded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert database_url("~/data/studio.db") == f"sqlite:///{tmp_path / 'data' / 'studio.db'}"


def test_a_sqlite_url_is_used_as_given(tmp_path: Path) -> None:
    path = tmp_path / "from-url" / "deeper" / "studio.db"
    url = f"sqlite:///{path}"
    assert database_url(url) == url
    database = open_database(url)
    try:
        assert database.url == url
        assert pragma(database, "journal_mode") == "wal"
    finally:
        database.close()
    assert path.is_file()
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT version FROM schema_info").fetchall() == [(SCHEMA_VERSION,)]


def test_a_url_and_a_path_open_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    by_path = open_database(path)
    with by_path.write() as connection:
        connection.execute(
            text(
                "INSERT INTO apps (id, name, description, version, created_at, updated_at) "
                "VALUES ('app', 'App', '', 1, 'x', 'x')"
            )
        )
    by_url = open_database(f"sqlite:///{path}")
    try:
        with by_url.read() as connection:
            assert connection.execute(text("SELECT id FROM apps")).scalars().all() == ["app"]
    finally:
        by_path.close()
        by_url.close()


@pytest.mark.parametrize("target", ["://x", "a b://c"])
def test_a_malformed_url_is_a_database_error(target: str) -> None:
    with pytest.raises(DatabaseError, match="is not a database URL or file path"):
        open_database(target)


# --- files that are not databases ----------------------------------------------------------


def test_random_bytes_are_refused_with_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    junk = random.Random(0).randbytes(8192)
    path.write_bytes(junk)
    with pytest.raises(DatabaseError) as refused:
        open_database(path)
    assert str(path) in str(refused.value)
    assert path.read_bytes() == junk


def test_random_bytes_are_refused_and_the_file_is_left_alone(tmp_path: Path) -> None:
    """What happens today: an error (of SQLAlchemy's type) and the file untouched."""
    path = tmp_path / "junk.db"
    junk = random.Random(0).randbytes(8192)
    path.write_bytes(junk)
    with pytest.raises(Exception, match="file is not a database"):
        open_database(path)
    assert path.read_bytes() == junk


@pytest.mark.parametrize("url", ["nosuchdialect://x", "1x://y"])
def test_an_unknown_kind_of_database_url_is_refused_clearly(url: str) -> None:
    with pytest.raises(DatabaseError, match="cannot use"):
        open_database(url)
