"""8 worker processes share one PostgreSQL queue: every item is done exactly once, and no item
is ever leased by two workers at once (see ``tests.fabric.workers.many``)."""

import os
import time
from pathlib import Path

from sqlalchemy import create_engine, make_url, text

from studio.workspace import Workspace
from tests.fabric.workers.many import (
    ITEMS,
    Timings,
    check_exactly_once,
    enqueue_ledger_items,
    run_workers,
    timed,
)


def fresh_database(postgres_url: str, name: str) -> str:
    """A new empty database on the test server, so no other test's items share the queue."""
    engine = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return make_url(postgres_url).set(database=name).render_as_string(hide_password=False)


def test_eight_workers_do_every_item_exactly_once_on_postgres(
    postgres_url: str, studio_data_dir: Path, tmp_path: Path
) -> None:
    url = fresh_database(postgres_url, f"workers_{os.getpid()}")
    timings = Timings()
    workspace = Workspace(database=url)
    started = time.monotonic()
    folder = enqueue_ledger_items(workspace, tmp_path / "ledger", ITEMS)
    timed(timings, "enqueue", started)

    started = time.monotonic()
    run_workers(folder, studio_data_dir, tmp_path, db=url)
    timed(timings, "work", started)

    started = time.monotonic()
    check_exactly_once(workspace, ITEMS)
    timed(timings, "check", started)
    print(timings.describe("PostgreSQL", ITEMS))
    workspace.close()
