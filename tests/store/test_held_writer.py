"""A thread holding a write connection (``Database.holding_writer``): its write transactions
begin on that one connection instead of the pool's, commit and fail exactly as pooled ones,
and the connection goes back to the pool when the outermost block ends or a write on it
fails."""

import threading
from pathlib import Path

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError

from studio.model import Workflow
from studio.store import Database, WorkflowRepository, open_database
from studio.store.driver_statements import sqlite_driver
from studio.store.errors import StorageFaultError
from tests.store.storage_faults import fill, small_disk


@pytest.fixture()
def database(tmp_path: Path):
    opened = open_database(tmp_path / "studio.db")
    with opened.write() as connection:
        connection.execute(text("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)"))
    yield opened
    opened.close()


def write_note(database: Database, note_id: int, body: str) -> object:
    """Insert a note in its own write transaction; the driver connection it ran on."""
    with database.write() as connection:
        connection.execute(
            text("INSERT INTO notes VALUES (:id, :body)"), {"id": note_id, "body": body}
        )
        return sqlite_driver(connection)


def notes(database: Database) -> list[str]:
    with database.read() as connection:
        return [row.body for row in connection.execute(text("SELECT body FROM notes ORDER BY id"))]


def checkouts(database: Database) -> list[int]:
    """A one-item list counting the connections taken out of the database's pool."""
    count = [0]

    def counted(*_arguments: object) -> None:
        count[0] += 1

    event.listen(database.engine, "checkout", counted)
    return count


def test_writes_in_a_holding_block_share_one_connection_and_each_commits(
    database: Database,
) -> None:
    taken = checkouts(database)
    with database.holding_writer():
        first = write_note(database, 1, "one")
        assert notes(database) == ["one"]  # committed: another connection reads it
        second = write_note(database, 2, "two")
    assert first is second
    assert notes(database) == ["one", "two"]
    reads = 2
    assert taken[0] == 1 + reads
    assert database.engine.pool.checkedout() == 0  # the held connection is back in the pool


def test_a_failed_write_stores_nothing_and_the_block_writes_on_through_the_pool(
    database: Database,
) -> None:
    with database.holding_writer():
        write_note(database, 1, "kept")
        assert database.engine.pool.checkedout() == 1
        with pytest.raises(IntegrityError), database.write() as connection:
            connection.execute(text("INSERT INTO notes VALUES (2, 'half')"))
            connection.execute(text("INSERT INTO notes VALUES (1, 'taken id')"))
        assert database.engine.pool.checkedout() == 0  # let go: the pool takes over
        write_note(database, 3, "after")
    assert notes(database) == ["kept", "after"]


def test_a_full_disk_under_a_held_connection_fails_in_words_and_writing_resumes(
    tmp_path: Path,
) -> None:
    with small_disk(tmp_path / "disk") as disk:
        file = disk / "studio.db"
        database = open_database(file)
        workflows = WorkflowRepository(database)
        with database.holding_writer():
            workflows.create(a_workflow("before"))
            filler = fill(disk)
            with pytest.raises(StorageFaultError) as refused:
                workflows.create(a_workflow("x" * 200_000))
            assert str(refused.value) == f"cannot write to the database {file}: the disk is full"
            filler.unlink()
            workflows.create(a_workflow("after"))
        assert sorted(w.name for w in workflows.find()) == ["after", "before"]
        database.close()


def test_nested_blocks_keep_one_connection_and_threads_hold_their_own(
    database: Database,
) -> None:
    seen: dict[str, object] = {}

    def other_thread() -> None:
        with database.holding_writer():
            seen["other"] = write_note(database, 10, "other thread")

    with database.holding_writer():
        seen["outer"] = write_note(database, 1, "outer")
        with database.holding_writer():
            seen["inner"] = write_note(database, 2, "inner")
        seen["after inner"] = write_note(database, 3, "after inner")
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
    assert seen["outer"] is seen["inner"] is seen["after inner"]
    assert seen["other"] is not seen["outer"]
    assert notes(database) == ["outer", "inner", "after inner", "other thread"]
    assert database.engine.pool.checkedout() == 0


def a_workflow(name: str) -> Workflow:
    return Workflow.model_validate({"name": name, "nodes": [{"id": "a", "agentId": "echo"}]})
