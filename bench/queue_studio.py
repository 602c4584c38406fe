"""Studio's half of bench/queue.py: the Fabric work queue over a workspace database (a SQLite
file or a PostgreSQL URL). ``prepare`` publishes the design-studio manifest (the one in the
work fixtures) and ``enqueue_items`` enqueues orders for a ``design`` artifact one at a time.
Run as a program, this file is one worker process: it opens the queue, says ``ready``, waits
for ``go`` on stdin, pulls and acks ``advance`` (each ack leasing the next item, as a
worker's does) until a pull finds nothing, and says
``done COUNT CPU_SECONDS``. With ``--profile FILE`` the pull/ack loop runs under cProfile and
its stats go to FILE.

    .venv/bin/python -P bench/queue_studio.py DATA_DIR DATABASE WORKER_NAME [--profile FILE]

(``-P``: this folder must not come first on sys.path, where bench/queue.py would stand in for
the standard library's ``queue`` module.)
"""

import argparse
import sys
import time
from pathlib import Path

from studio.fabric.queue import Scope, WorkQueue
from studio.workspace import Workspace

CAPABILITY = "design-studio"
MANIFEST = """\
---
id: design-studio
kind: capability-manifest
subject: design-studio
title: Design studio — what it offers
created_at: 2026-09-01T08:00:00Z
produced_by: {capability: design-studio}
---

# Design studio

## design

**Status:** live

A design artifact for one subject: components with the requirements they cover.

- Payload: at least one `artifact` source of kind `requirements`, resolved at enqueue.
- Exemplars: a previous design of the same subject, when there is one (on-demand).
- Order shape: what to design, the scope, and what done looks like.

## design-review

**Status:** planned

A review of an existing design against its requirements.
"""
"""The design-studio capability manifest of the work fixtures: ``design`` live."""


def item_text(index: int) -> str:
    """An order for a design whose only context source is an on-demand URL (it passes Gate A
    without resolving anything)."""
    return f"""\
---
id: bench-{index:06d}
artifact: design
capability: {CAPABILITY}
subject: checkout-redesign
status: queued
lease: null
requested_by: bench
created_at: 2026-09-12T09:00:00Z
context:
  - {{id: brief, type: url, ref: "https://example.com/brief", when: on-demand}}
---

## Order

Design number {index} of the one-page checkout: the payment and address steps only. Done when
a design artifact lands with one component per requirement.

## Resolved-context snapshot

## Work log

## Artifacts
"""


def open_queue(data_dir: Path, database: str) -> WorkQueue:
    """The workspace's work queue over ``database``."""
    return Workspace(data_dir=data_dir, database=database).work_queue


def prepare(data_dir: Path, database: str) -> None:
    """Create the schema and publish the manifest, so Gate A's rule 2 passes."""
    open_queue(data_dir, database).publish_manifest(MANIFEST)


def enqueue_items(data_dir: Path, database: str, count: int) -> float:
    """Seconds to enqueue ``count`` items one at a time (Gate A, then one transaction each);
    the texts are written before the clock starts."""
    queue = open_queue(data_dir, database)
    queue.manifest(CAPABILITY)  # opens the database before the clock starts
    texts = [item_text(index) for index in range(count)]
    began = time.perf_counter()
    for text in texts:
        queue.enqueue(text, by="bench")
    return time.perf_counter() - began


def count_by_status(data_dir: Path, database: str) -> dict[str, int]:
    """Items by status, as the queue lists them."""
    counts: dict[str, int] = {}
    for item in open_queue(data_dir, database).list():
        counts[item.status] = counts.get(item.status, 0) + 1
    return counts


def drain(queue: WorkQueue, worker: str) -> int:
    """Pull, then ack ``advance`` until a pull finds nothing, each ack leasing the next item
    in its transaction as ``studio worker`` does; the number of items acked."""
    scope = Scope(capability=CAPABILITY)
    acked = 0
    pulled = queue.pull(worker, scope)
    while pulled is not None:
        _, pulled = queue.ack_and_pull(pulled.item.id, "advance", pulled.token, worker, scope)
        acked += 1
    return acked


def work(data_dir: Path, database: str, worker: str, profile: Path | None) -> None:
    """One worker process's life: open, report ready, wait for go, drain, report the count."""
    queue = open_queue(data_dir, database)
    queue.manifest(CAPABILITY)  # opens the database before the clock starts
    print("ready", flush=True)
    sys.stdin.readline()
    began = time.process_time()
    if profile is None:
        acked = drain(queue, worker)
    else:
        import cProfile

        profiler = cProfile.Profile()
        acked = profiler.runcall(drain, queue, worker)
        profiler.dump_stats(profile)
    print(f"done {acked} {time.process_time() - began:.6f}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("database")
    parser.add_argument("worker")
    parser.add_argument("--profile", type=Path)
    options = parser.parse_args()
    work(options.data_dir, options.database, options.worker, options.profile)
