"""Fixtures the store's tests share: a SQLite file and a knowledge repository on it."""

from pathlib import Path

import pytest

from studio.store import open_database
from studio.store.knowledge import KnowledgeRepository


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "studio.db"


@pytest.fixture
def store(db_path: Path):
    database = open_database(db_path)
    try:
        yield KnowledgeRepository(database)
    finally:
        database.close()
