"""The queue on every backend: a SQLite file, and a database of its own on a throwaway
PostgreSQL server (the server of tests/postgres, started once per session).

``queue`` is a WorkQueue over a fresh database with the test manifest published, a folder
holding the default items' eager source, the workspace's world (sources resolved against that
folder and the knowledge store, closed items filed to the knowledge store of the same
database) and a clock the tests move by hand.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from studio.fabric.queue import QueueWorld, WorkQueue
from studio.store import Database, open_database
from studio.store.knowledge import KnowledgeRepository
from studio.store.work_queue import WorkQueueRepository
from studio.workspace import WorkspaceWorld
from tests.fabric.items import BRIEF, MANIFEST
from tests.fabric.webhook import hook  # noqa: F401  (a local webhook receiver)
from tests.postgres.conftest import postgres_url  # noqa: F401  (the session's server)

BACKENDS = ("sqlite", "postgres")
LEASE_TTL = timedelta(seconds=30)
START = datetime(2026, 9, 12, 10, 0, tzinfo=UTC)
_NUMBERS = itertools.count(1)


@dataclass
class Clock:
    """A clock the test moves: the queue's idea of now."""

    now: datetime = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture(scope="session")
def queue_template(postgres_url: str) -> str:  # noqa: F811
    """A migrated, empty database each PostgreSQL test copies (faster than migrating)."""
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql("CREATE DATABASE fabric_template")
    admin.dispose()
    url = make_url(postgres_url).set(database="fabric_template")
    open_database(url.render_as_string(hide_password=False)).close()
    return "fabric_template"


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where the queue lives: a SQLite file, or a new database on the PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "queue.db")
    server: str = request.getfixturevalue("postgres_url")
    template: str = request.getfixturevalue("queue_template")
    name = f"fabric_{next(_NUMBERS)}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f"CREATE DATABASE {name} TEMPLATE {template}")
    admin.dispose()
    return make_url(server).set(database=name).render_as_string(hide_password=False)


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    opened = open_database(database_url)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The queue's folder: ``file`` sources resolve against it; the brief is there."""
    place = tmp_path / "sources"
    place.mkdir()
    (place / BRIEF).write_text("# Brief\n\nGuests pay by card or wallet.\n", encoding="utf-8")
    return place


@pytest.fixture
def clock() -> Clock:
    return Clock()


def world_of(database: Database, folder: Path) -> WorkspaceWorld:
    return WorkspaceWorld(KnowledgeRepository(database), folder)


def queue_over(
    database: Database, world: QueueWorld, clock: Clock, context_budget: int = 3
) -> WorkQueue:
    return WorkQueue(
        WorkQueueRepository(database),
        world,
        clock=clock,
        lease_ttl=LEASE_TTL,
        context_budget=context_budget,
    )


@pytest.fixture
def queue(database: Database, folder: Path, clock: Clock) -> WorkQueue:
    """The queue with the test manifest published."""
    opened = queue_over(database, world_of(database, folder), clock)
    opened.publish_manifest(MANIFEST)
    return opened
