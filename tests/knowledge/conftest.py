"""Fixtures shared by the knowledge tests."""

import pytest

from studio.knowledge.knowledge_history import KnowledgeHistory, read_history
from studio.workspace import Workspace
from tests.knowledge.test_fixture_ingest import FIXTURE


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeHistory:
    """The checkout-redesign corpus ingested into a file of its own, its history read once
    (a module may give the name a history of its own)."""
    folder = tmp_path_factory.mktemp("kg")
    workspace = Workspace(data_dir=folder, database=str(folder / "k.db"))
    try:
        workspace.knowledge.ingest(FIXTURE)
        return read_history(workspace.knowledge)
    finally:
        workspace.close()
