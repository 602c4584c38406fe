"""Apps in a real SQLite file: every case of the App resolver table and the import cases of
the Workflow resolver table, each with its exact text and a check that nothing changed."""

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from studio.model import Edge, Node, Workflow
from studio.model.blueprint_import import UnknownSlotError, UnmappedPlaceholdersError
from studio.model.errors import (
    ACCESS_DENIED,
    APP_CONFLICT,
    APP_NOT_FOUND,
    ONLY_PUBLISHED_IMPORT,
    WORKFLOW_BOUND_ELSEWHERE,
    WORKFLOW_NOT_FOUND,
    AccessDeniedError,
    ConflictError,
    NotAllowedError,
    NotFoundError,
)
from studio.store import AppRepository, Database, WorkflowRepository, open_database

ORG = "local"
ROUTER = Workflow(
    id="conditional-router",
    name="Conditional Router",
    status="PUBLISHED",
    is_blueprint=True,
    nodes=[
        Node(id="classify", agent_id="placeholder-classifier"),
        Node(id="fulfil", agent_id="placeholder-fulfiller"),
    ],
    edges=[Edge(id="classify->fulfil", source="classify", target="fulfil")],
)
MAPPING = {"placeholder-classifier": "demo-echo-agent", "placeholder-fulfiller": "human-approval"}


@pytest.fixture
def database(db_path: Path) -> Iterator[Database]:
    opened = open_database(db_path)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def apps(database: Database) -> AppRepository:
    return AppRepository(database, ORG)


@pytest.fixture
def workflows(database: Database) -> WorkflowRepository:
    return WorkflowRepository(database)


def everything(db_path: Path) -> dict[str, list[tuple]]:
    """Every row of the tables an app operation may write, read past the repositories."""
    connection = sqlite3.connect(db_path)
    try:
        return {
            table: sorted(connection.execute(f"SELECT * FROM {table}").fetchall())
            for table in ("apps", "workflows", "workflow_versions")
        }
    finally:
        connection.close()


def foreign(database: Database, table: str, row_id: str) -> None:
    """Give a row to another organisation, as a team server's data could."""
    with database.write() as connection:
        connection.execute(
            text(f"UPDATE {table} SET org_id = 'elsewhere' WHERE id = :id"), {"id": row_id}
        )


def test_a_new_app_belongs_to_the_org_at_version_1(apps: AppRepository) -> None:
    app = apps.create(" Support ", "tickets")
    assert (app.name, app.description, app.org_id) == ("Support", "tickets", ORG)
    assert app.status == "ACTIVE"
    assert (app.version, app.workflow_ids) == (1, [])
    assert apps.get(app.id) == app


def test_find_lists_active_apps_by_name_and_archived_ones_on_request(apps: AppRepository) -> None:
    zeta, alpha = apps.create("Zeta"), apps.create("Alpha")
    apps.archive(zeta.id, zeta.version)
    assert [app.name for app in apps.find()] == ["Alpha"]
    assert [app.name for app in apps.find(include_archived=True)] == ["Alpha", "Zeta"]
    assert alpha.id in {app.id for app in apps.find()}


def test_find_leaves_out_apps_of_another_org(apps: AppRepository, database: Database) -> None:
    theirs = apps.create("Theirs")
    foreign(database, "apps", theirs.id)
    assert apps.find(include_archived=True) == []


def test_rename_bumps_the_version_and_keeps_the_description_unless_given(
    apps: AppRepository,
) -> None:
    app = apps.create("Old", "kept")
    renamed = apps.rename(app.id, "New", app.version)
    assert (renamed.name, renamed.description, renamed.version) == ("New", "kept", 2)
    described = apps.rename(app.id, "New", renamed.version, description="changed")
    assert (described.description, described.version) == ("changed", 3)


def test_archive_keeps_the_workflows_bound(
    apps: AppRepository, workflows: WorkflowRepository
) -> None:
    app = apps.create("App")
    flow = workflows.create(Workflow(name="flow"))
    bound = apps.bind(app.id, flow.stored_id, app.version)
    archived = apps.archive(app.id, bound.version)
    assert (archived.status, archived.version, archived.workflow_ids) == (
        "ARCHIVED",
        3,
        [flow.id],
    )


def test_delete_unbinds_its_workflows_and_deletes_none(
    apps: AppRepository, workflows: WorkflowRepository
) -> None:
    app = apps.create("App")
    flow = workflows.create(Workflow(name="flow"))
    bound = apps.bind(app.id, flow.stored_id, app.version)
    apps.delete(app.id, bound.version)
    with pytest.raises(NotFoundError, match=f"^{APP_NOT_FOUND}$"):
        apps.get(app.id)
    assert workflows.get(flow.stored_id).app_id is None


def test_bound_workflows_are_listed_oldest_first(
    apps: AppRepository, workflows: WorkflowRepository
) -> None:
    app = apps.create("App")
    first, second = workflows.create(Workflow(name="1")), workflows.create(Workflow(name="2"))
    app = apps.bind(app.id, second.stored_id, app.version)
    app = apps.bind(app.id, first.stored_id, app.version)
    assert (app.workflow_ids, app.version) == ([first.id, second.id], 3)
    assert workflows.get(first.stored_id).app_id == app.id


def test_unbind_removes_the_workflow_and_bumps_the_version(
    apps: AppRepository, workflows: WorkflowRepository
) -> None:
    app = apps.create("App")
    flow = workflows.create(Workflow(name="flow"))
    bound = apps.bind(app.id, flow.stored_id, app.version)
    unbound = apps.unbind(app.id, flow.stored_id, bound.version)
    assert (unbound.workflow_ids, unbound.version) == ([], 3)
    assert workflows.get(flow.stored_id).app_id is None


# --- the App resolver table ------------------------------------------------------------------


@pytest.mark.parametrize(
    "operation",
    ["get", "rename", "archive", "delete", "bind", "unbind"],
)
def test_app_not_found(
    operation: str, apps: AppRepository, workflows: WorkflowRepository, db_path: Path
) -> None:
    flow = workflows.create(Workflow(name="flow"))
    before = everything(db_path)
    calls = {
        "get": lambda: apps.get("missing"),
        "rename": lambda: apps.rename("missing", "x", 1),
        "archive": lambda: apps.archive("missing", 1),
        "delete": lambda: apps.delete("missing", 1),
        "bind": lambda: apps.bind("missing", flow.stored_id, 1),
        "unbind": lambda: apps.unbind("missing", flow.stored_id, 1),
    }
    with pytest.raises(NotFoundError, match=f"^{APP_NOT_FOUND}$"):
        calls[operation]()
    assert everything(db_path) == before


@pytest.mark.parametrize("operation", ["get", "rename", "archive", "delete", "bind"])
def test_access_denied_on_an_app_of_another_org(
    operation: str,
    apps: AppRepository,
    workflows: WorkflowRepository,
    database: Database,
    db_path: Path,
) -> None:
    app = apps.create("Theirs")
    flow = workflows.create(Workflow(name="flow"))
    foreign(database, "apps", app.id)
    before = everything(db_path)
    calls = {
        "get": lambda: apps.get(app.id),
        "rename": lambda: apps.rename(app.id, "mine now", 1),
        "archive": lambda: apps.archive(app.id, 1),
        "delete": lambda: apps.delete(app.id, 1),
        "bind": lambda: apps.bind(app.id, flow.stored_id, 1),
    }
    with pytest.raises(AccessDeniedError, match=f"^{ACCESS_DENIED}$"):
        calls[operation]()
    assert everything(db_path) == before


def test_the_same_org_in_another_repository_is_denied_too(
    apps: AppRepository, database: Database, db_path: Path
) -> None:
    app = apps.create("Ours")
    before = everything(db_path)
    with pytest.raises(AccessDeniedError, match=f"^{ACCESS_DENIED}$"):
        AppRepository(database, "another-org").rename(app.id, "x", app.version)
    assert everything(db_path) == before


@pytest.mark.parametrize("operation", ["rename", "archive", "delete", "bind", "unbind"])
def test_a_stale_version_is_a_conflict_and_writes_nothing(
    operation: str, apps: AppRepository, workflows: WorkflowRepository, db_path: Path
) -> None:
    app = apps.create("App")
    bound_flow = workflows.create(Workflow(name="a"))
    free_flow = workflows.create(Workflow(name="b"))
    app = apps.bind(app.id, bound_flow.stored_id, app.version)  # now at version 2
    before = everything(db_path)
    stale = 1
    calls = {
        "rename": lambda: apps.rename(app.id, "x", stale),
        "archive": lambda: apps.archive(app.id, stale),
        "delete": lambda: apps.delete(app.id, stale),
        "bind": lambda: apps.bind(app.id, free_flow.stored_id, stale),
        "unbind": lambda: apps.unbind(app.id, bound_flow.stored_id, stale),
    }
    with pytest.raises(ConflictError, match=f"^{APP_CONFLICT}$"):
        calls[operation]()
    assert everything(db_path) == before


def test_a_workflow_bound_to_another_app_is_refused(
    apps: AppRepository, workflows: WorkflowRepository, db_path: Path
) -> None:
    first, second = apps.create("First"), apps.create("Second")
    flow = workflows.create(Workflow(name="flow"))
    apps.bind(first.id, flow.stored_id, first.version)
    before = everything(db_path)
    with pytest.raises(NotAllowedError, match=f"^{WORKFLOW_BOUND_ELSEWHERE}$"):
        apps.bind(second.id, flow.stored_id, second.version)
    assert everything(db_path) == before


def test_binding_again_to_the_same_app_returns_it_unchanged(
    apps: AppRepository, workflows: WorkflowRepository, db_path: Path
) -> None:
    app = apps.create("App")
    flow = workflows.create(Workflow(name="flow"))
    bound = apps.bind(app.id, flow.stored_id, app.version)
    before = everything(db_path)
    again = apps.bind(app.id, flow.stored_id, app.version)  # a retry with the older version
    assert again == bound and again.version == 2
    assert everything(db_path) == before


def test_binding_a_workflow_of_another_org_is_denied(
    apps: AppRepository, workflows: WorkflowRepository, database: Database, db_path: Path
) -> None:
    app = apps.create("App")
    flow = workflows.create(Workflow(name="flow"))
    foreign(database, "workflows", flow.stored_id)
    before = everything(db_path)
    with pytest.raises(AccessDeniedError, match=f"^{ACCESS_DENIED}$"):
        apps.bind(app.id, flow.stored_id, app.version)
    assert everything(db_path) == before


def test_binding_an_unknown_workflow_is_workflow_not_found(
    apps: AppRepository, db_path: Path
) -> None:
    app = apps.create("App")
    before = everything(db_path)
    with pytest.raises(NotFoundError, match=f"^{WORKFLOW_NOT_FOUND}$"):
        apps.bind(app.id, "no-such-workflow", app.version)
    assert everything(db_path) == before


def test_unbinding_a_workflow_not_bound_to_the_app_changes_nothing(
    apps: AppRepository, workflows: WorkflowRepository, db_path: Path
) -> None:
    first, second = apps.create("First"), apps.create("Second")
    flow = workflows.create(Workflow(name="flow"))
    apps.bind(first.id, flow.stored_id, first.version)
    before = everything(db_path)
    assert apps.unbind(second.id, flow.stored_id, second.version) == second
    assert everything(db_path) == before


# --- importing a blueprint -------------------------------------------------------------------


def test_import_copies_into_a_new_draft_bound_to_the_app(
    apps: AppRepository, workflows: WorkflowRepository
) -> None:
    app = apps.create("App")
    copy = apps.import_blueprint(ROUTER, app.id, MAPPING)
    assert (copy.name, copy.status, copy.version, copy.is_blueprint) == (
        "Conditional Router (Copy)",
        "DRAFT",
        1,
        False,
    )
    assert copy.id not in (None, ROUTER.id) and copy.app_id == app.id and copy.org_id == ORG
    assert (copy.blueprint_id, copy.blueprint_version) == ("conditional-router", 1)
    assert [node.agent_id for node in copy.nodes] == ["demo-echo-agent", "human-approval"]
    assert workflows.get(copy.stored_id) == copy
    after = apps.get(app.id)
    assert (after.workflow_ids, after.version) == ([copy.id], 2)


def test_a_second_import_is_copy_2_and_a_given_name_is_used(apps: AppRepository) -> None:
    app = apps.create("App")
    apps.import_blueprint(ROUTER, app.id, MAPPING)
    assert apps.import_blueprint(ROUTER, app.id, MAPPING).name == "Conditional Router (Copy 2)"
    assert apps.import_blueprint(ROUTER, app.id, MAPPING, name="Mine").name == "Mine"


def test_a_stored_blueprint_remembers_its_id_and_version(
    apps: AppRepository, workflows: WorkflowRepository
) -> None:
    draft = workflows.create(ROUTER.model_copy(update={"id": None}))
    stored, problems = workflows.publish(draft.stored_id, set())
    assert stored.status == "PUBLISHED", problems
    app = apps.create("App")
    copy = apps.import_blueprint(stored, app.id, MAPPING)
    assert (copy.blueprint_id, copy.blueprint_version) == (stored.id, stored.version)
    assert workflows.get(stored.stored_id) == stored


def test_placeholders_may_be_kept_in_a_draft_on_request(apps: AppRepository) -> None:
    app = apps.create("App")
    copy = apps.import_blueprint(ROUTER, app.id, {}, keep_placeholders=True)
    assert [node.agent_id for node in copy.nodes] == [
        "placeholder-classifier",
        "placeholder-fulfiller",
    ]


def test_import_of_a_draft_blueprint_is_refused(
    apps: AppRepository, workflows: WorkflowRepository, db_path: Path
) -> None:
    draft = workflows.create(ROUTER.model_copy(update={"id": None}))
    app = apps.create("App")
    before = everything(db_path)
    with pytest.raises(NotAllowedError, match=f"^{ONLY_PUBLISHED_IMPORT}$"):
        apps.import_blueprint(draft, app.id, MAPPING)
    with pytest.raises(NotAllowedError, match=f"^{ONLY_PUBLISHED_IMPORT}$"):
        apps.import_blueprint(draft.model_copy(update={"status": "PUBLISHED"}), app.id, MAPPING)
    assert everything(db_path) == before


def test_import_of_a_plain_workflow_is_refused(apps: AppRepository, db_path: Path) -> None:
    app = apps.create("App")
    before = everything(db_path)
    plain = ROUTER.model_copy(update={"is_blueprint": False})
    with pytest.raises(NotAllowedError, match=f"^{ONLY_PUBLISHED_IMPORT}$"):
        apps.import_blueprint(plain, app.id, MAPPING)
    assert everything(db_path) == before


def test_import_into_an_unknown_app_is_app_not_found(apps: AppRepository, db_path: Path) -> None:
    apps.create("App")
    before = everything(db_path)
    with pytest.raises(NotFoundError, match=f"^{APP_NOT_FOUND}$"):
        apps.import_blueprint(ROUTER, "missing", MAPPING)
    assert everything(db_path) == before


def test_import_into_an_app_of_another_org_is_denied(
    apps: AppRepository, database: Database, db_path: Path
) -> None:
    app = apps.create("Theirs")
    foreign(database, "apps", app.id)
    before = everything(db_path)
    with pytest.raises(AccessDeniedError, match=f"^{ACCESS_DENIED}$"):
        apps.import_blueprint(ROUTER, app.id, MAPPING)
    assert everything(db_path) == before


def test_import_with_placeholders_left_lists_them_and_writes_nothing(
    apps: AppRepository, db_path: Path
) -> None:
    app = apps.create("App")
    before = everything(db_path)
    partial = {"placeholder-classifier": "demo-echo-agent"}
    with pytest.raises(UnmappedPlaceholdersError, match="placeholder-fulfiller") as raised:
        apps.import_blueprint(ROUTER, app.id, partial)
    assert raised.value.slots == ["placeholder-fulfiller"]
    assert everything(db_path) == before


def test_import_with_a_mapping_for_no_slot_names_it_and_writes_nothing(
    apps: AppRepository, db_path: Path
) -> None:
    app = apps.create("App")
    before = everything(db_path)
    with pytest.raises(UnknownSlotError, match="'placeholder-nobody'"):
        apps.import_blueprint(ROUTER, app.id, MAPPING | {"placeholder-nobody": "x"})
    assert everything(db_path) == before
