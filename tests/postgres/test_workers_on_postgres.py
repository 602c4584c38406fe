"""8 worker processes share one PostgreSQL queue: every item is done exactly once, and no item
is ever leased by two workers at once (see ``tests.fabric.workers.many``)."""

import os
from pathlib import Path

from sqlalchemy import create_engine, make_url, text

from studio.workspace import Workspace
from tests.fabric.workers.many import work_and_check


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
    workspace = Workspace(database=url)
    work_and_check(workspace, studio_data_dir, tmp_path, "PostgreSQL", db=url)
    workspace.close()
