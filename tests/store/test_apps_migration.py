"""Schema version 5: a database stored by version 4 gains an app's status and the blueprint
a workflow came from, and keeps what it held."""

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from studio.model import Workflow
from studio.store import AppRepository, WorkflowRepository, migrations, open_database

NEW_COLUMNS = {"apps": {"status"}, "workflows": {"blueprint_id", "blueprint_version"}}


def _version_4_database(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A database as schema version 4 left it, with one app and one workflow bound to it."""
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:4])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 4)
    database = open_database(db_path)
    stored = WorkflowRepository(database).create(Workflow(name="kept"))
    database.close()
    monkeypatch.undo()
    connection = sqlite3.connect(db_path)
    try:
        for table, names in NEW_COLUMNS.items():  # today's tables have them; version 4 had not
            for name in names:
                connection.execute(f"ALTER TABLE {table} DROP COLUMN {name}")
        connection.execute(
            "INSERT INTO apps (id, name, description, org_id, version, created_at, updated_at) "
            "VALUES ('old-app', 'Old app', '', 'local', 3, "
            "'2025-01-10T09:30:00.000000Z', '2025-01-10T09:30:00.000000Z')"
        )
        connection.execute("UPDATE workflows SET app_id = 'old-app' WHERE id = ?", (stored.id,))
        connection.commit()
    finally:
        connection.close()
    return stored.stored_id


def test_a_version_4_database_gains_the_columns_and_keeps_its_rows(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workflow_id = _version_4_database(db_path, monkeypatch)
    database = open_database(db_path)
    try:
        with database.read() as connection:
            version = connection.execute(text("SELECT version FROM schema_info")).scalar()
            assert version == migrations.SCHEMA_VERSION
            for table, names in NEW_COLUMNS.items():
                columns = {column["name"] for column in inspect(connection).get_columns(table)}
                assert names <= columns
        app = AppRepository(database, "local").get("old-app")
        assert (app.status, app.version, app.workflow_ids) == ("ACTIVE", 3, [workflow_id])
        workflow = WorkflowRepository(database).get(workflow_id)
        assert (workflow.name, workflow.blueprint_id, workflow.blueprint_version) == (
            "kept",
            None,
            None,
        )
    finally:
        database.close()
