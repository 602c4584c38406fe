"""Versions landed one at a time are indexed for search in batches, and a search always finds
every version landed, whether its batch was indexed yet or not."""

import sqlite3
import time

from sqlalchemy import text

from studio.store.knowledge import KnowledgeRepository
from studio.store.knowledge_search_index import SEARCH_BATCH, SEARCH_LOOK_EVERY
from tests.store.test_knowledge_store import JAN, artifact


def _indexed_through(store: KnowledgeRepository) -> int:
    with store.database.read() as connection:
        found = connection.execute(text("SELECT max(id) FROM artifact_search_docsize"))
        return found.scalar() or 0


def _index_agrees_with_the_text(store: KnowledgeRepository) -> None:
    """FTS5's own check of the index against the stored versions and texts; it raises if a
    version is missing from the index or indexed with other words."""
    with store.database.write() as connection:
        connection.exec_driver_sql(
            "INSERT INTO artifact_search (artifact_search, rank) VALUES ('integrity-check', 1)"
        )


def test_a_search_finds_versions_landed_one_at_a_time(store: KnowledgeRepository) -> None:
    landed = SEARCH_BATCH + 3
    for number in range(landed):
        store.add_version(*artifact(f"note-{number}", f"# Note\n\nmarker{number} text\n", JAN))
    # The landing that made a full batch wait indexed it; the three after it wait.
    assert _indexed_through(store) == SEARCH_BATCH
    for number in (0, SEARCH_BATCH - 1, SEARCH_BATCH, landed - 1):
        hits = store.search(f"marker{number}")
        assert [version.front.id for version, _ in hits] == [f"note-{number}"]
    assert _indexed_through(store) == landed
    _index_agrees_with_the_text(store)


def test_landings_after_a_search_leave_at_most_a_batch_and_a_look_waiting(
    store: KnowledgeRepository,
) -> None:
    """A search indexed through version 3, so a full batch waits from version 131 on; only
    every SEARCH_LOOK_EVERY-th landing looks, and the first to look after that indexes."""
    for number in range(3):
        store.add_version(*artifact(f"early-{number}", "# Early\n\nearly words\n", JAN))
    assert store.search("early") and _indexed_through(store) == 3
    looked_at = (3 + SEARCH_BATCH + SEARCH_LOOK_EVERY - 1) // SEARCH_LOOK_EVERY * SEARCH_LOOK_EVERY
    most_waiting = 0
    for number in range(3, looked_at + 2):
        store.add_version(*artifact(f"note-{number}", f"# Note\n\nmarker{number} text\n", JAN))
        most_waiting = max(most_waiting, number + 1 - _indexed_through(store))

    assert _indexed_through(store) == looked_at
    assert SEARCH_BATCH <= most_waiting < SEARCH_BATCH + SEARCH_LOOK_EVERY
    assert store.search(f"marker{looked_at + 1}")  # indexes the rest: the index is whole
    _index_agrees_with_the_text(store)


def test_a_search_with_nothing_waiting_indexes_nothing(store: KnowledgeRepository) -> None:
    store.add_version(*artifact("only", "# Only\n\nsolitary words\n", JAN))
    assert store.search("solitary")
    assert _indexed_through(store) == 1
    assert store.search("solitary")
    assert store.search("absent") == []
    _index_agrees_with_the_text(store)


def test_a_search_does_not_wait_behind_a_long_write(store: KnowledgeRepository) -> None:
    """Another program holds the write lock: the search answers from what is indexed at
    once, and finds the rest once the lock is free."""
    store.add_version(*artifact("early", "# Early\n\nindexed words\n", JAN))
    assert store.search("indexed")
    store.add_version(*artifact("late", "# Late\n\nwaiting words\n", JAN))
    assert store.database.file is not None
    writer = sqlite3.connect(store.database.file, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    try:
        began = time.monotonic()
        assert [version.front.id for version, _ in store.search("words")] == ["early"]
        assert time.monotonic() - began < 5  # not the ten seconds a write would wait
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert sorted(version.front.id for version, _ in store.search("words")) == ["early", "late"]
