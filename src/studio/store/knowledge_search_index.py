"""The SQLite full-text index of knowledge versions, brought up to date in batches.

FTS5 writes a new segment for every transaction that adds to the index, and for one version
that costs several times what the version's own rows cost; the work queue files a record at
every close, one transaction each. So a landing leaves its versions waiting, and they are
indexed together: by a landing that finds ``SEARCH_BATCH`` or more waiting (one landing in
``SEARCH_LOOK_EVERY`` looks), and by a search, which indexes whatever waits before it looks,
so it always sees every version landed.

The index holds every version up to some ``seq`` and none after it, taken in order; its
row-size table (one row per indexed version, keyed by ``seq``) says up to which. A version's
words are the text stored when it is indexed: one changed behind Studio's back before then is
indexed as changed, and a search finding it by those words reports it damaged, as every read
of it does (hits are checked against the SHA-256 the text was landed under).
"""

import logging
from collections.abc import Sequence

from sqlalchemy import Connection

from studio.store.database import Database
from studio.store.driver_statements import sqlite_driver
from studio.store.knowledge_schema import SEARCH_TABLE

SEARCH_BATCH = 128
"""Versions left waiting before a landing indexes them all."""
SEARCH_LOOK_EVERY = 16
"""Landings number their versions in order; every this many, one looks how many wait."""
SEARCH_WAIT_MS = 250
"""How long a search waits for the write lock to index what waits."""

log = logging.getLogger(__name__)

_INDEXED_THROUGH = f"(SELECT coalesce(max(id), 0) FROM {SEARCH_TABLE}_docsize)"
_WAITING = f"SELECT coalesce((SELECT max(seq) FROM artifact_versions), 0) - {_INDEXED_THROUGH}"
"""How many versions wait to be indexed."""
_INDEX_WAITING = f"""
INSERT INTO {SEARCH_TABLE} (rowid, ref, title, body)
SELECT seq, ref, title, body FROM {SEARCH_TABLE}_content WHERE seq > {_INDEXED_THROUGH}
ORDER BY seq
"""


def index_when_many_wait(connection: Connection, numbers: Sequence[int]) -> None:
    """In a landing's transaction (SQLite), after its versions (numbered ``numbers``, in
    order): index every waiting version once ``SEARCH_BATCH`` of them wait. Only a landing
    that takes a number divisible by ``SEARCH_LOOK_EVERY`` looks how many wait, so at most
    ``SEARCH_BATCH + SEARCH_LOOK_EVERY - 1`` versions are ever left waiting."""
    if numbers[-1] // SEARCH_LOOK_EVERY == (numbers[0] - 1) // SEARCH_LOOK_EVERY:
        return
    driver = sqlite_driver(connection)
    if driver.execute(_WAITING).fetchone()[0] >= SEARCH_BATCH:
        driver.execute(_INDEX_WAITING)


def index_waiting_versions(database: Database) -> None:
    """Index every version still waiting (SQLite); a search calls this before it looks. A
    search never queues behind a long write (a large ingest): when the write lock is not free
    within ``SEARCH_WAIT_MS`` it searches what is indexed, and says so in the log."""
    with database.read() as connection:
        if not sqlite_driver(connection).execute(_WAITING).fetchone()[0]:
            return
    with database.write_if_free(SEARCH_WAIT_MS) as connection:
        if connection is None:
            log.warning("the newest knowledge versions are not searched yet: the database is busy")
            return
        sqlite_driver(connection).execute(_INDEX_WAITING)
