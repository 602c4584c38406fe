"""The workflow repository on a real SQLite file: CRUD, optimistic locking (P5), publishing,
deleting, immutable versions and read-only blueprints."""

import itertools
import sqlite3
import threading
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from studio.model import Workflow
from studio.model.errors import (
    BLUEPRINT_READ_ONLY,
    DELETE_PUBLISHED,
    WORKFLOW_CONFLICT,
    WORKFLOW_NOT_FOUND,
    ConflictError,
    NotAllowedError,
    NotFoundError,
)
from studio.store import ExecutionRepository, WorkflowRepository, open_database

AGENTS = frozenset({"echo"})
CONFLICT = "Conflict: workflow was modified concurrently. Please retry."


def definition(*node_ids: str, name: str = "pipeline", agent: str = "echo") -> Workflow:
    """A chain of nodes as a workflow that has never been stored."""
    data: dict[str, Any] = {
        "name": name,
        "nodes": [{"id": node_id, "agentId": agent} for node_id in node_ids],
        "edges": [{"source": a, "target": b} for a, b in itertools.pairwise(node_ids)],
    }
    return Workflow.model_validate(data)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "studio.db"


@pytest.fixture
def repo(db_path: Path):
    database = open_database(db_path)
    yield WorkflowRepository(database)
    database.close()


def renamed(workflow: Workflow, name: str) -> Workflow:
    return workflow.model_copy(update={"name": name})


# --- create and get ------------------------------------------------------------------------


def test_create_assigns_a_new_uuid_draft_version_1_and_timestamps(
    repo: WorkflowRepository,
) -> None:
    before = datetime.now(UTC)
    draft = definition("a", "b").model_copy(update={"id": "chosen-by-caller", "version": 7})
    created = repo.create(draft)
    after = datetime.now(UTC)
    assert created.id != "chosen-by-caller"
    assert uuid.UUID(created.id).version == 4
    assert created.status == "DRAFT"
    assert created.version == 1
    assert created.is_blueprint is False
    assert before <= created.created_at <= after
    assert created.updated_at == created.created_at
    assert created.created_at.tzinfo is not None
    assert repo.get(created.id) == created
    assert repo.create(draft).id != created.id


def test_create_stores_version_1_as_the_first_snapshot(repo: WorkflowRepository) -> None:
    created = repo.create(definition("a", "b"))
    assert [v.version for v in repo.versions(created.id)] == [1]
    assert repo.get_version(created.id, 1) == created


def test_get_of_an_unknown_id_is_workflow_not_found(repo: WorkflowRepository) -> None:
    with pytest.raises(NotFoundError) as missing:
        repo.get("no-such-workflow")
    assert str(missing.value) == WORKFLOW_NOT_FOUND == "Workflow not found"


def test_every_operation_on_an_unknown_id_is_workflow_not_found(repo: WorkflowRepository) -> None:
    ghost = definition("a").model_copy(update={"id": "ghost"})
    operations = [
        lambda: repo.update(ghost, 1),
        lambda: repo.update(definition("a"), 1),  # never stored: no id at all
        lambda: repo.publish("ghost", AGENTS),
        lambda: repo.unpublish("ghost"),
        lambda: repo.delete("ghost"),
        lambda: repo.versions("ghost"),
    ]
    for operation in operations:
        with pytest.raises(NotFoundError, match=f"^{WORKFLOW_NOT_FOUND}$"):
            operation()
    with pytest.raises(NotFoundError, match=f"^{WORKFLOW_NOT_FOUND}"):
        repo.get_version("ghost", 1)


def test_find_filters_by_status_and_blueprint_flag(repo: WorkflowRepository) -> None:
    draft = repo.create(definition("a", "b", name="draft"))
    published, _ = repo.publish(repo.create(definition("a", "b", name="pub")).id, AGENTS)
    blueprint = repo.create(
        definition("a", "b", name="bp").model_copy(update={"is_blueprint": True})
    )
    assert {w.id for w in repo.find()} == {draft.id, published.id, blueprint.id}
    assert [w.id for w in repo.find(status="PUBLISHED")] == [published.id]
    assert [w.id for w in repo.find(blueprints=True)] == [blueprint.id]
    assert {w.id for w in repo.find(status="DRAFT", blueprints=False)} == {draft.id}


# --- update and versions -------------------------------------------------------------------


def test_update_with_the_current_version_bumps_it_and_keeps_the_old_definition(
    repo: WorkflowRepository,
) -> None:
    original = repo.create(definition("a", "b", name="first"))
    edited = original.model_copy(
        update={"name": "second", "nodes": [*original.nodes, definition("c").nodes[0]]}
    )
    updated = repo.update(edited, expected_version=1)
    assert updated.version == 2
    assert updated.name == "second"
    assert [node.id for node in updated.nodes] == ["a", "b", "c"]
    assert updated.created_at == original.created_at
    assert updated.updated_at > original.updated_at
    assert repo.get(original.id) == updated
    assert repo.get_version(original.id, 1) == original
    assert repo.get_version(original.id, 2) == updated
    assert [(v.version, v.name) for v in repo.versions(original.id)] == [
        (1, "first"),
        (2, "second"),
    ]


def test_update_ignores_server_fields_the_caller_tries_to_change(
    repo: WorkflowRepository,
) -> None:
    original = repo.create(definition("a", "b"))
    sneaky = original.model_copy(
        update={
            "status": "PUBLISHED",
            "version": 40,
            "created_at": datetime(2000, 1, 1, tzinfo=UTC),
            "org_id": "someone-else",
        }
    )
    updated = repo.update(sneaky, expected_version=1)
    assert updated.status == "DRAFT"
    assert updated.version == 2
    assert updated.created_at == original.created_at
    assert updated.org_id is None


def test_an_edited_published_workflow_is_a_draft_again(repo: WorkflowRepository) -> None:
    published, _ = repo.publish(repo.create(definition("a", "b")).id, AGENTS)
    assert published.status == "PUBLISHED"
    edited = repo.update(renamed(published, "edited"), published.version)
    assert edited.status == "DRAFT"
    assert edited.version == published.version + 1


def test_get_version_of_a_version_that_does_not_exist(repo: WorkflowRepository) -> None:
    created = repo.create(definition("a"))
    with pytest.raises(NotFoundError, match="no version 2"):
        repo.get_version(created.id, 2)


def test_a_stale_update_fails_with_the_conflict_message_and_changes_nothing(
    repo: WorkflowRepository,
) -> None:
    original = repo.create(definition("a", "b"))
    current = repo.update(renamed(original, "v2"), 1)
    with pytest.raises(ConflictError) as conflict:
        repo.update(renamed(original, "lost edit"), 1)
    assert str(conflict.value) == CONFLICT == WORKFLOW_CONFLICT
    assert repo.get(original.id) == current
    assert [v.version for v in repo.versions(original.id)] == [1, 2]


def test_p5_an_update_with_any_other_expected_version_is_a_conflict(db_path: Path) -> None:
    """P5: whatever the expected version, unless it is the current one, nothing is written."""
    database = open_database(db_path)
    repo = WorkflowRepository(database)
    workflow_id = repo.create(definition("a", "b")).id
    examples = {"count": 0}

    @settings(
        max_examples=150,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        database=None,
    )
    @given(
        bumps=st.integers(min_value=0, max_value=2),
        expected=st.one_of(
            st.integers(min_value=-(2**62), max_value=2**62),
            st.integers(min_value=-3, max_value=3).map(lambda offset: ("offset", offset)),
        ),
        name=st.text(max_size=20),
    )
    def check(bumps: int, expected: Any, name: str) -> None:
        examples["count"] += 1
        for _ in range(bumps):  # move the live version on, so staleness comes in all sizes
            live = repo.get(workflow_id)
            repo.update(renamed(live, f"bump {live.version}"), live.version)
        before = repo.get(workflow_id)
        history = repo.versions(workflow_id)
        if isinstance(expected, tuple):
            expected = before.version + expected[1]
        if expected == before.version:
            expected += 1
        with pytest.raises(ConflictError) as conflict:
            repo.update(renamed(before, name), expected)
        assert str(conflict.value) == CONFLICT
        assert repo.get(workflow_id) == before
        assert repo.versions(workflow_id) == history

    try:
        check()
    finally:
        database.close()
    assert examples["count"] >= 100


def test_two_writers_on_two_connections_racing_exactly_one_wins(db_path: Path) -> None:
    setup = open_database(db_path)
    original = WorkflowRepository(setup).create(definition("a", "b"))
    setup.close()
    rounds = 10
    barrier = threading.Barrier(2)
    outcomes: dict[str, list[Any]] = {"left": [], "right": []}

    def writer(label: str) -> None:
        database = open_database(db_path)
        repo = WorkflowRepository(database)
        try:
            for round_number in range(rounds):
                barrier.wait(10)
                expected = 1 + round_number  # both read the same version in each round
                try:
                    won = repo.update(renamed(original, f"{label} {round_number}"), expected)
                    outcomes[label].append(won.version)
                except ConflictError as conflict:
                    outcomes[label].append(str(conflict))
                barrier.wait(10)
        finally:
            database.close()

    threads = [threading.Thread(target=writer, args=(label,)) for label in outcomes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    for round_number in range(rounds):
        results = [outcomes["left"][round_number], outcomes["right"][round_number]]
        assert sorted(results, key=str) == sorted([round_number + 2, CONFLICT], key=str), results
    check = open_database(db_path)
    try:
        repo = WorkflowRepository(check)
        final = repo.get(original.id)
        assert final.version == rounds + 1
        assert [v.version for v in repo.versions(original.id)] == list(range(1, rounds + 2))
    finally:
        check.close()


# --- publish, unpublish, delete ------------------------------------------------------------


def test_publish_with_problems_returns_them_and_changes_nothing(
    repo: WorkflowRepository,
) -> None:
    created = repo.create(definition("a", "b", agent="placeholder-writer"))
    returned, problems = repo.publish(created.id, AGENTS)
    assert {problem.code for problem in problems} == {"agent.placeholder"}
    assert {problem.node_id for problem in problems} == {"a", "b"}
    assert returned == created
    assert repo.get(created.id) == created
    assert [v.version for v in repo.versions(created.id)] == [1]


def test_publish_refuses_unknown_agents_and_disconnected_nodes(repo: WorkflowRepository) -> None:
    data = definition("a", "b", agent="nobody").model_copy(update={"edges": []})
    created = repo.create(data)
    _, problems = repo.publish(created.id, AGENTS)
    codes = {problem.code for problem in problems}
    assert {"agent.unknown", "graph.disconnected"} <= codes
    assert repo.get(created.id).status == "DRAFT"


def test_publish_succeeds_to_published_with_the_next_version(repo: WorkflowRepository) -> None:
    created = repo.create(definition("a", "b"))
    published, problems = repo.publish(created.id, AGENTS)
    assert problems == []
    assert published.status == "PUBLISHED"
    assert published.version == 2
    assert repo.get(created.id) == published
    assert repo.get_version(created.id, 1).status == "DRAFT"
    assert repo.get_version(created.id, 2).status == "PUBLISHED"


def test_publish_with_a_stale_expected_version_is_a_conflict(repo: WorkflowRepository) -> None:
    created = repo.create(definition("a", "b"))
    repo.update(renamed(created, "moved on"), 1)
    with pytest.raises(ConflictError, match=f"^{CONFLICT}$"):
        repo.publish(created.id, AGENTS, expected_version=1)
    assert repo.get(created.id).status == "DRAFT"


def test_publishing_a_published_workflow_again_changes_nothing(repo: WorkflowRepository) -> None:
    published, _ = repo.publish(repo.create(definition("a", "b")).id, AGENTS)
    again, problems = repo.publish(published.id, AGENTS)
    assert problems == []
    assert again == published


def test_a_published_workflow_cannot_be_deleted(repo: WorkflowRepository) -> None:
    published, _ = repo.publish(repo.create(definition("a", "b")).id, AGENTS)
    with pytest.raises(NotAllowedError) as refused:
        repo.delete(published.id)
    assert str(refused.value) == DELETE_PUBLISHED
    assert str(refused.value) == "Cannot delete a published workflow. Unpublish it first."
    assert repo.get(published.id) == published


def test_unpublish_then_delete_removes_the_workflow_and_its_history(
    repo: WorkflowRepository, db_path: Path
) -> None:
    published, _ = repo.publish(repo.create(definition("a", "b")).id, AGENTS)
    draft = repo.unpublish(published.id)
    assert draft.status == "DRAFT"
    assert draft.version == published.version + 1
    assert repo.unpublish(published.id) == draft  # a draft stays as it is
    repo.delete(published.id)
    with pytest.raises(NotFoundError, match=WORKFLOW_NOT_FOUND):
        repo.get(published.id)
    with sqlite3.connect(db_path) as raw:
        left = raw.execute(
            "SELECT count(*) FROM workflow_versions WHERE workflow_id = ?", (published.id,)
        ).fetchone()
    assert left == (0,)


def test_deleting_a_draft_also_deletes_its_executions(repo: WorkflowRepository) -> None:
    published, _ = repo.publish(repo.create(definition("a", "b")).id, AGENTS)
    executions = ExecutionRepository(repo.database)
    record, _ = executions.create(published, {"x": 1})
    repo.unpublish(published.id)
    repo.delete(published.id)
    with pytest.raises(NotFoundError, match="Execution not found"):
        executions.get(record.execution_id)


# --- immutable versions and read-only blueprints -------------------------------------------


def test_version_rows_are_immutable_in_the_database(repo: WorkflowRepository) -> None:
    created = repo.create(definition("a", "b"))
    with (
        pytest.raises(IntegrityError, match="workflow versions are immutable"),
        repo.database.write() as connection,
    ):
        connection.execute(
            text("UPDATE workflow_versions SET name = 'rewritten' WHERE workflow_id = :id"),
            {"id": created.id},
        )
    assert repo.get_version(created.id, 1) == created


def test_a_second_snapshot_of_the_same_version_is_refused(repo: WorkflowRepository) -> None:
    created = repo.create(definition("a"))
    with pytest.raises(IntegrityError), repo.database.write() as connection:
        connection.execute(
            text(
                "INSERT INTO workflow_versions (workflow_id, version, name, status, definition, "
                "created_at) VALUES (:id, 1, 'again', 'DRAFT', '{}', 'x')"
            ),
            {"id": created.id},
        )
    assert repo.get_version(created.id, 1) == created


def test_a_published_blueprint_refuses_update(repo: WorkflowRepository) -> None:
    blueprint = repo.create(definition("a", "b").model_copy(update={"is_blueprint": True}))
    assert blueprint.is_blueprint
    draft_edit = repo.update(renamed(blueprint, "still a draft"), 1)  # drafts may change
    published, _ = repo.publish(blueprint.id, AGENTS)
    assert published.version == draft_edit.version + 1
    with pytest.raises(NotAllowedError) as refused:
        repo.update(renamed(published, "changed"), published.version)
    assert str(refused.value) == BLUEPRINT_READ_ONLY
    assert repo.get(blueprint.id) == published


# --- publish_once --------------------------------------------------------------------------


def test_publish_once_reuses_the_published_copy_with_the_same_name_and_definition(
    repo: WorkflowRepository,
) -> None:
    draft = repo.create(definition("a", "b", name="same"))
    published, problems = repo.publish_once(definition("a", "b", name="same"), AGENTS)
    assert problems == []
    assert (published.status, published.version) == ("PUBLISHED", 2)
    assert published.id != draft.id  # a draft is not a published copy
    again, _ = repo.publish_once(definition("a", "b", name="same"), AGENTS)
    # Server fields do not matter: the stored copy itself is identical to the candidate.
    itself, _ = repo.publish_once(published, AGENTS)
    assert again == itself == published
    assert len(repo.find(status="PUBLISHED")) == 1


def test_publish_once_stores_a_new_copy_for_another_name_or_definition(
    repo: WorkflowRepository,
) -> None:
    first, _ = repo.publish_once(definition("a", "b", name="same"), AGENTS)
    described = definition("a", "b", name="same").model_copy(update={"description": "more"})
    others = [
        definition("a", "b", name="other"),
        definition("a", "c", name="same"),
        definition("a", "b", name="same", agent="other"),
        described,
    ]
    ids = {repo.publish_once(other, AGENTS | {"other"})[0].id for other in others}
    assert first.id not in ids and len(ids) == len(others)


def test_publish_once_stores_nothing_when_publishing_is_refused(
    repo: WorkflowRepository,
) -> None:
    workflow, problems = repo.publish_once(definition("a", "b", agent="unknown"), AGENTS)
    assert any(problem.is_error for problem in problems)
    assert workflow.id is None
    assert repo.find() == []


@pytest.mark.parametrize("expected", [2**63 - 1, 2**63, -(2**63) - 1])
def test_p5_holds_for_expected_versions_beyond_64_bits(
    repo: WorkflowRepository, expected: int
) -> None:
    created = repo.create(definition("a"))
    with pytest.raises(ConflictError, match=f"^{CONFLICT}$"):
        repo.update(renamed(created, "x"), expected)


def test_a_workflow_stored_before_the_id_pattern_still_loads_and_cannot_be_published(
    repo: WorkflowRepository, db_path: Path
) -> None:
    """Older Studios accepted any node id; what they stored must open, and say what to fix."""
    stored = repo.create(definition("a", "b"))
    with sqlite3.connect(db_path) as connection:
        (text_,) = connection.execute(
            "SELECT definition FROM workflows WHERE id = ?", (stored.id,)
        ).fetchone()
        old = text_.replace('"id": "b"', '"id": "b#comp"').replace('"b"', '"b#comp"')
        connection.execute("UPDATE workflows SET definition = ? WHERE id = ?", (old, stored.id))

    loaded = repo.get(stored.id)
    published, problems = repo.publish(stored.id, AGENTS)

    assert [node.id for node in loaded.nodes] == ["a", "b#comp"]
    assert [node.id for node in repo.find()[0].nodes] == ["a", "b#comp"]
    assert published.status == "DRAFT"
    assert [(p.code, p.path) for p in problems if p.is_error] == [
        ("structure.identifier", "nodes[1].id")
    ]
    assert "'b#comp' is not a valid node id" in problems[0].message
