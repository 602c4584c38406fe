"""The floor under bench/queue.py's SQLite rows: the same enqueue → pull → ack cycle with the
sqlite3 module alone, in one process, on a file opened as Studio opens its own (WAL,
synchronous NORMAL). One transaction per enqueue (an INSERT), one per pull (a compare-and-set
UPDATE … RETURNING of the oldest takeable row) and one per ack (an UPDATE guarded by the lease
token): what a queue row costs SQLite before any envelope, gate, work log or filing.
"""

import sqlite3
import time
from pathlib import Path

SCHEMA = """
CREATE TABLE items (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    capability TEXT NOT NULL,
    status TEXT NOT NULL,
    lease_worker TEXT,
    lease_token INTEGER NOT NULL DEFAULT 0,
    lease_expires_at TEXT,
    body TEXT NOT NULL
);
CREATE INDEX ix_items_pull ON items (capability, status, seq);
"""
ENQUEUE = "INSERT INTO items (id, capability, status, body) VALUES (?, ?, 'queued', ?)"
PULL = """
UPDATE items SET status = 'leased', lease_worker = ?, lease_token = lease_token + 1,
    lease_expires_at = ?
WHERE seq = (SELECT min(seq) FROM (
    SELECT * FROM (SELECT seq FROM items WHERE capability = ? AND status = 'queued'
        ORDER BY seq LIMIT 1)
    UNION ALL
    SELECT * FROM (SELECT seq FROM items WHERE capability = ?
        AND status IN ('leased', 'in-build') AND lease_expires_at <= ? ORDER BY seq LIMIT 1)))
RETURNING id, lease_token
"""
"""The oldest takeable row: two index probes (the oldest queued, the oldest expired lease),
so a pull costs the same however many finished items the table holds."""
ACK = """
UPDATE items SET status = 'done', lease_worker = NULL, lease_expires_at = NULL
WHERE id = ? AND lease_token = ? AND status IN ('leased', 'in-build')
"""
CAPABILITY = "design-studio"
NOW, EXPIRES = "2026-12-01T10:00:00Z", "2026-12-01T10:00:30Z"
PULL_VALUES = ("worker", EXPIRES, CAPABILITY, CAPABILITY, NOW)


def floor_seconds(path: Path, texts: list[str]) -> tuple[float, float, float, int]:
    """Seconds to enqueue the texts, seconds (and CPU seconds) to pull and ack them all, and
    how many were acked."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.executescript(SCHEMA)
    began = time.perf_counter()
    for index, text in enumerate(texts):
        _in_transaction(connection, ENQUEUE, (f"item-{index}", CAPABILITY, text))
    enqueued, cpu = time.perf_counter(), time.process_time()
    acked = 0
    while leased := _in_transaction(connection, PULL, PULL_VALUES):
        item_id, token = leased
        _in_transaction(connection, ACK, (item_id, token))
        acked += 1
    drained, cpu = time.perf_counter(), time.process_time() - cpu
    connection.close()
    return enqueued - began, drained - enqueued, cpu, acked


def _in_transaction(connection: sqlite3.Connection, statement: str, values: tuple) -> tuple:
    connection.execute("BEGIN IMMEDIATE")
    row = connection.execute(statement, values).fetchone()
    connection.execute("COMMIT")
    return row
