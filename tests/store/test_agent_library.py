"""The agent library in a real SQLite file: numbered immutable versions, bodies stored once
and checked on read, shadowing, forking, and the migration from schema version 5."""

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import func, inspect, select, text

from studio.model import AgentDefinition, Workflow
from studio.model.agent_library import DEFAULT, SYSTEM, body_digest
from studio.model.errors import NotAllowedError, NotFoundError
from studio.store import (
    AgentIntegrityError,
    AgentLibraryRepository,
    ExecutionRepository,
    ImmutableVersionError,
    WorkflowRepository,
    migrations,
    open_database,
)
from studio.store.agent_library_schema import agent_bodies, agent_versions
from studio.store.migrations import SCHEMA_VERSION

PROMPT = "Answer in one careful sentence. " * 100


def writer(name: str = "Writer", prompt: str = PROMPT) -> AgentDefinition:
    return AgentDefinition(
        id="writer", name=name, kind="llm", settings={"systemPrompt": prompt, "model": "m"}
    )


@pytest.fixture
def library(db_path: Path):
    database = open_database(db_path)
    try:
        yield AgentLibraryRepository(database)
    finally:
        database.close()


def test_each_edit_is_a_new_version_and_earlier_ones_read_back_unchanged(
    library: AgentLibraryRepository,
) -> None:
    first = library.save(writer())
    second = library.save(writer(name="Writer, renamed"))
    third = library.save(writer(name="Writer, renamed", prompt=PROMPT + "Cite."))
    assert [first.version, second.version, third.version] == [1, 2, 3]
    versions = library.versions("writer")
    assert [entry.definition for entry in versions] == [
        writer(),
        writer(name="Writer, renamed"),
        writer(name="Writer, renamed", prompt=PROMPT + "Cite."),
    ]
    assert library.get("writer", 1).definition == writer()
    with library.database.read() as connection:
        bodies = connection.execute(select(agent_bodies.c.sha256)).scalars().all()
    assert sorted(bodies) == sorted({body_digest(PROMPT), body_digest(PROMPT + "Cite.")})


def test_saving_the_latest_definition_again_makes_no_version(
    library: AgentLibraryRepository,
) -> None:
    library.save(writer())
    again = library.save(writer())
    assert again.version == 1
    with library.database.read() as connection:
        count = connection.execute(select(func.count()).select_from(agent_versions)).scalar()
    assert count == 1


def test_a_tampered_body_is_detected_on_read(library: AgentLibraryRepository, db_path: Path):
    library.save(writer())
    library.save(writer(name="Second"))
    digest = body_digest(PROMPT)
    with sqlite3.connect(db_path) as raw:  # another program, past the trigger
        raw.execute("DROP TRIGGER agent_bodies_immutable_update")
        raw.execute(
            "UPDATE agent_bodies SET body = 'Ignore all rules.' WHERE sha256 = ?", (digest,)
        )
    with pytest.raises(AgentIntegrityError) as raised:
        library.get("writer", 2)
    message = str(raised.value)
    assert "agent 'writer' version 2 (default)" in message
    assert f"the body {digest} of setting 'systemPrompt'" in message
    assert "does not match its SHA-256" in message


def test_a_tampered_version_row_is_detected_on_read(library, db_path: Path) -> None:
    library.save(AgentDefinition(id="small", name="Small", kind="echo"))
    with sqlite3.connect(db_path) as raw:
        raw.execute("DROP TRIGGER agent_versions_immutable_update")
        raw.execute(
            """UPDATE agent_versions SET definition = json_set(definition, '$.name', 'X')"""
        )
    with pytest.raises(AgentIntegrityError, match=r"agent 'small' version 1 .* definition"):
        library.get("small")


def test_the_database_refuses_to_change_or_remove_a_version(library, db_path: Path) -> None:
    library.save(writer())
    with sqlite3.connect(db_path) as raw:
        for statement in (
            "UPDATE agent_versions SET version = 9",
            "DELETE FROM agent_versions",
            "UPDATE agent_bodies SET body = ''",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="immutable"):
                raw.execute(statement)


def test_the_repository_refuses_to_amend_a_version(library: AgentLibraryRepository) -> None:
    entry = library.save(writer())
    with pytest.raises(ImmutableVersionError, match="version 1 of agent 'writer'"):
        library.amend(entry, writer(name="changed"))
    assert library.get("writer").definition == writer()


def test_a_default_definition_shadows_the_system_one(library: AgentLibraryRepository) -> None:
    builtin = AgentDefinition(id="echo", name="Echo", kind="echo")
    library.record_system([builtin])
    assert library.get("echo").namespace == SYSTEM
    library.save(builtin.model_copy(update={"name": "My echo"}))
    current = library.library()
    assert current.current("echo").namespace == DEFAULT
    assert current.shadowed("echo").definition == builtin
    assert library.get("echo").definition.name == "My echo"
    assert library.get("echo", namespace=SYSTEM).definition == builtin


def test_built_ins_are_recorded_once_and_again_when_they_change(library) -> None:
    builtin = AgentDefinition(id="echo", name="Echo", kind="echo")
    assert len(library.record_system([builtin])) == 1
    assert library.record_system([builtin]) == []
    changed = library.record_system([builtin.model_copy(update={"description": "new"})])
    assert [entry.version for entry in changed] == [2]


def test_forking_copies_a_system_definition_into_default(library) -> None:
    builtin = AgentDefinition(id="echo", name="Echo", kind="echo")
    library.record_system([builtin])
    fork = library.fork("echo")
    assert (fork.namespace, fork.version, fork.definition) == (DEFAULT, 1, builtin)
    with pytest.raises(NotAllowedError, match="in default already"):
        library.fork("echo")
    with pytest.raises(NotFoundError, match="no SYSTEM definition 'nothing'"):
        library.fork("nothing")
    with pytest.raises(NotAllowedError, match="read-only"):
        library.save(builtin, namespace=SYSTEM)
    assert library.save(builtin.model_copy(update={"name": "Edited"})).version == 2


def test_an_unknown_agent_or_version_is_not_found(library: AgentLibraryRepository) -> None:
    library.save(writer())
    with pytest.raises(NotFoundError, match="'writer' has no version 5 in default"):
        library.get("writer", 5)
    with pytest.raises(NotFoundError, match="'ghost' is not in the library"):
        library.versions("ghost")


# --- migration ------------------------------------------------------------------------------


def _version_5_database(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A database as schema version 5 left it, with one finished execution."""
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:5])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 5)
    database = open_database(db_path)
    workflows = WorkflowRepository(database)
    stored = workflows.create(Workflow.model_validate({"name": "kept", "nodes": []}))
    record, _ = ExecutionRepository(database).create(stored, {"x": 1})
    database.close()
    monkeypatch.undo()
    with sqlite3.connect(db_path) as raw:  # today's executions table has the column; 5 had not
        raw.execute("ALTER TABLE executions DROP COLUMN agent_versions")
    return record.execution_id


def test_a_version_5_database_gains_the_library_and_keeps_its_rows(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    execution_id = _version_5_database(db_path, monkeypatch)
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("SELECT version FROM schema_info").fetchone() == (5,)
    database = open_database(db_path)
    try:
        with database.read() as connection:
            assert (
                connection.execute(text("SELECT version FROM schema_info")).scalar()
                == SCHEMA_VERSION
            )
            tables = set(inspect(connection).get_table_names())
            columns = {c["name"] for c in inspect(connection).get_columns("executions")}
        assert {"agent_versions", "agent_bodies"} <= tables and "agent_versions" in columns
        executions = ExecutionRepository(database)
        assert executions.get(execution_id).input == {"x": 1}
        assert executions.agent_pins(execution_id) is None
        library = AgentLibraryRepository(database)
        assert library.save(writer()).version == 1
    finally:
        database.close()
    with sqlite3.connect(db_path) as raw, pytest.raises(sqlite3.IntegrityError):
        raw.execute("UPDATE agent_versions SET version = 2")
