"""Workflows with optimistic locking and an immutable snapshot of every version."""

import uuid
from collections.abc import Container
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, delete, insert, select, update

from studio.model import Problem, Workflow, has_errors
from studio.model.errors import (
    BLUEPRINT_READ_ONLY,
    DELETE_PUBLISHED,
    WORKFLOW_CONFLICT,
    WORKFLOW_NOT_FOUND,
    ConflictError,
    NotAllowedError,
    NotFoundError,
)
from studio.model.identifiers import STORED
from studio.model.publish_rules import publish_problems
from studio.model.workflow import SERVER_FIELDS
from studio.store.database import Database
from studio.store.schema import utc_now, workflow_versions, workflows


@dataclass(frozen=True)
class WorkflowVersionInfo:
    """One immutable snapshot in a workflow's history."""

    version: int
    name: str
    status: str
    created_at: datetime


class WorkflowRepository:
    """Create, read, update, publish and delete workflows; every write bumps the version."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def create(self, workflow: Workflow) -> Workflow:
        """Store a new draft: a new id, status DRAFT, version 1."""
        with self.database.write() as connection:
            return insert_draft(connection, workflow)

    def publish_once(
        self, workflow: Workflow, known_agents: Container[str]
    ) -> tuple[Workflow, list[Problem]]:
        """The published workflow with ``workflow``'s name and definition: the stored one if
        there is one, else a new one stored and published (versions 1 and 2).

        One write transaction, so processes importing the same file at once store it once.
        With publish problems, nothing is stored and ``workflow`` comes back with them."""
        problems = publish_problems(workflow, known_agents, template=workflow.is_blueprint)
        if has_errors(problems):
            return workflow, problems
        with self.database.write() as connection:
            existing = _identical_in(connection, workflow, "PUBLISHED")
            if existing is not None:
                return existing, problems
            draft = insert_draft(connection, workflow)
            published = draft.model_copy(update={"status": "PUBLISHED"})
            return _write_version(connection, published, draft.version), problems

    def get(self, workflow_id: str) -> Workflow:
        """The current definition; raises NotFoundError('Workflow not found')."""
        with self.database.read() as connection:
            return workflow_from_row(fetch_workflow_row(connection, workflow_id))

    def find(self, *, status: str | None = None, blueprints: bool | None = None) -> list[Workflow]:
        """Workflows, most recently updated first, optionally by status or blueprint flag."""
        query = select(workflows).order_by(workflows.c.updated_at.desc())
        if status is not None:
            query = query.where(workflows.c.status == status)
        if blueprints is not None:
            query = query.where(workflows.c.is_blueprint == blueprints)
        with self.database.read() as connection:
            return [workflow_from_row(row) for row in connection.execute(query)]

    def update(self, workflow: Workflow, expected_version: int) -> Workflow:
        """Replace the definition if nobody else wrote since ``expected_version``.

        An edited workflow is a draft again: it must pass publish validation to run.
        """
        if workflow.id is None:
            raise NotFoundError(WORKFLOW_NOT_FOUND)
        with self.database.write() as connection:
            current = workflow_from_row(fetch_workflow_row(connection, workflow.id))
            if current.is_blueprint and current.status == "PUBLISHED":
                raise NotAllowedError(BLUEPRINT_READ_ONLY)
            changes = {
                "status": "DRAFT",
                "created_at": current.created_at,
                "app_id": current.app_id,
                "org_id": current.org_id,
                "blueprint_id": current.blueprint_id,
                "blueprint_version": _blueprint_version(current, workflow),
            }
            return _write_version(connection, workflow.model_copy(update=changes), expected_version)

    def save_blueprint(
        self, workflow: Workflow, known_agents: Container[str]
    ) -> tuple[Workflow, list[Problem]]:
        """Save ``workflow`` to the catalog, published at once: as a new blueprint, or, when a
        published blueprint has its name, as that blueprint's next version (an identical
        definition adds none). One write transaction; with publish problems nothing is
        written and ``workflow`` comes back with them."""
        unlinked = {"app_id": None, "blueprint_id": None, "blueprint_version": None}
        blueprint = workflow.model_copy(update={"is_blueprint": True, **unlinked})
        problems = publish_problems(blueprint, known_agents, template=True)
        if has_errors(problems):
            return workflow, problems
        with self.database.write() as connection:
            current = _published_blueprint_named(connection, blueprint.name)
            if current is None:
                draft = insert_draft(connection, blueprint)
                published = draft.model_copy(update={"status": "PUBLISHED"})
                return _write_version(connection, published, draft.version), problems
            if _definition(current) == _definition(blueprint):
                return current, problems
            kept = {name: getattr(current, name) for name in SERVER_FIELDS}
            next_version = blueprint.model_copy(update=kept)
            return _write_version(connection, next_version, current.version), problems

    def publish(
        self, workflow_id: str, known_agents: Container[str], expected_version: int | None = None
    ) -> tuple[Workflow, list[Problem]]:
        """Validate for publishing; on success the status becomes PUBLISHED (a new version).

        With problems, returns them and leaves the workflow as it was.
        """
        with self.database.write() as connection:
            current = workflow_from_row(fetch_workflow_row(connection, workflow_id))
            problems = publish_problems(current, known_agents, template=current.is_blueprint)
            if has_errors(problems) or current.status == "PUBLISHED":
                return current, problems
            version = expected_version if expected_version is not None else current.version
            published = current.model_copy(update={"status": "PUBLISHED"})
            return _write_version(connection, published, version), problems

    def unpublish(self, workflow_id: str, expected_version: int | None = None) -> Workflow:
        """Return a published workflow to DRAFT."""
        with self.database.write() as connection:
            current = workflow_from_row(fetch_workflow_row(connection, workflow_id))
            if current.status == "DRAFT":
                return current
            if current.is_blueprint:
                raise NotAllowedError(BLUEPRINT_READ_ONLY)
            version = expected_version if expected_version is not None else current.version
            return _write_version(
                connection, current.model_copy(update={"status": "DRAFT"}), version
            )

    def delete(self, workflow_id: str) -> None:
        """Delete a draft workflow with its history and runs; a published one is refused."""
        with self.database.write() as connection:
            current = workflow_from_row(fetch_workflow_row(connection, workflow_id))
            if current.status == "PUBLISHED":
                raise NotAllowedError(DELETE_PUBLISHED)
            connection.execute(delete(workflows).where(workflows.c.id == workflow_id))

    def versions(self, workflow_id: str) -> list[WorkflowVersionInfo]:
        """Every snapshot of a workflow, oldest first."""
        table = workflow_versions
        query = (
            select(table.c.version, table.c.name, table.c.status, table.c.created_at)
            .where(table.c.workflow_id == workflow_id)
            .order_by(table.c.version)
        )
        with self.database.read() as connection:
            fetch_workflow_row(connection, workflow_id)
            return [WorkflowVersionInfo(*row) for row in connection.execute(query)]

    def get_version(self, workflow_id: str, version: int) -> Workflow:
        """The workflow exactly as it was at ``version``."""
        table = workflow_versions
        query = select(table).where(table.c.workflow_id == workflow_id, table.c.version == version)
        with self.database.read() as connection:
            row = connection.execute(query).first()
            if row is None:
                raise NotFoundError(f"{WORKFLOW_NOT_FOUND}: no version {version} of {workflow_id}")
            # The live row's fields the version takes, without its definition to decode.
            live = connection.execute(
                select(*_LIVE_FIELDS_OF_A_VERSION).where(workflows.c.id == workflow_id)
            ).first()
            if live is None:
                raise NotFoundError(WORKFLOW_NOT_FOUND)
        return _workflow_from_data(
            row.definition,
            id=workflow_id,
            status=row.status,
            version=row.version,
            appId=live.app_id,
            orgId=live.org_id,
            blueprintId=live.blueprint_id,
            blueprintVersion=live.blueprint_version,
            createdAt=live.created_at,
            updatedAt=row.created_at,
        )


def insert_draft(connection: Connection, workflow: Workflow) -> Workflow:
    """Insert ``workflow`` as a new draft: a new id, status DRAFT, version 1."""
    now = utc_now()
    stored = workflow.model_copy(
        update={
            "id": str(uuid.uuid4()),
            "status": "DRAFT",
            "version": 1,
            "created_at": now,
            "updated_at": now,
        }
    )
    connection.execute(insert(workflows).values(**_row_values(stored)))
    _snapshot(connection, stored)
    return stored


def _identical_in(
    connection: Connection, workflow: Workflow, status: str | None
) -> Workflow | None:
    """A stored workflow with ``workflow``'s name and definition (and status), if any."""
    query = select(workflows).where(workflows.c.name == workflow.name)
    if status is not None:
        query = query.where(workflows.c.status == status)
    wanted = _definition(workflow)
    for row in connection.execute(query.order_by(workflows.c.updated_at.desc())):
        candidate = workflow_from_row(row)
        if _definition(candidate) == wanted:
            return candidate
    return None


def _blueprint_version(current: Workflow, edited: Workflow) -> int | None:
    """The blueprint version a saved workflow incorporates: the one it says, once a blueprint
    update is taken into it (same blueprint), else the stored one."""
    if edited.blueprint_version is not None and edited.blueprint_id == current.blueprint_id:
        return edited.blueprint_version
    return current.blueprint_version


def _published_blueprint_named(connection: Connection, name: str) -> Workflow | None:
    """The published blueprint with this name, the most recently changed if several."""
    query = (
        select(workflows)
        .where(workflows.c.name == name, workflows.c.is_blueprint.is_(True))
        .where(workflows.c.status == "PUBLISHED")
        .order_by(workflows.c.updated_at.desc())
    )
    row = connection.execute(query).first()
    return None if row is None else workflow_from_row(row)


_LARGEST_VERSION = 2**62
"""Versions stay far inside a 64-bit integer; anything beyond cannot be the current one."""


def _write_version(connection: Connection, workflow: Workflow, expected_version: int) -> Workflow:
    """Write ``workflow`` as version expected+1 if the live row is still at expected."""
    if not 1 <= expected_version < _LARGEST_VERSION:
        raise ConflictError(WORKFLOW_CONFLICT)
    stored = workflow.model_copy(update={"version": expected_version + 1, "updated_at": utc_now()})
    values = _row_values(stored)
    values.pop("id")
    values.pop("created_at")
    result = connection.execute(
        update(workflows)
        .where(workflows.c.id == workflow.id, workflows.c.version == expected_version)
        .values(**values)
    )
    if result.rowcount != 1:
        raise ConflictError(WORKFLOW_CONFLICT)
    _snapshot(connection, stored)
    return stored


def _snapshot(connection: Connection, workflow: Workflow) -> None:
    connection.execute(
        insert(workflow_versions).values(
            workflow_id=workflow.id,
            version=workflow.version,
            name=workflow.name,
            status=workflow.status,
            definition=_definition(workflow),
            created_at=workflow.updated_at,
        )
    )


def _row_values(workflow: Workflow) -> dict[str, Any]:
    return {
        "id": workflow.id,
        "name": workflow.name,
        "status": workflow.status,
        "version": workflow.version,
        "is_blueprint": workflow.is_blueprint,
        "app_id": workflow.app_id,
        "org_id": workflow.org_id,
        "blueprint_id": workflow.blueprint_id,
        "blueprint_version": workflow.blueprint_version,
        "definition": _definition(workflow),
        "created_at": workflow.created_at,
        "updated_at": workflow.updated_at,
    }


def _definition(workflow: Workflow) -> dict[str, Any]:
    return workflow.model_dump(mode="json", by_alias=True, exclude=set(SERVER_FIELDS))


_LIVE_FIELDS_OF_A_VERSION = (
    workflows.c.app_id,
    workflows.c.org_id,
    workflows.c.blueprint_id,
    workflows.c.blueprint_version,
    workflows.c.created_at,
)
"""What a stored version of a workflow takes from the workflow's row."""


def fetch_workflow_row(connection: Connection, workflow_id: str) -> Row:
    """The workflow's row; raises NotFoundError('Workflow not found')."""
    row = connection.execute(select(workflows).where(workflows.c.id == workflow_id)).first()
    if row is None:
        raise NotFoundError(WORKFLOW_NOT_FOUND)
    return row


_SERVER_FIELDS_BY_COLUMN = {
    name: Workflow.model_fields[name].alias or name for name in sorted(SERVER_FIELDS)
}
"""The workflows columns of the fields the store assigns, and each field's name in the data."""


def workflow_from_row(row: Row) -> Workflow:
    """The workflow a row of the workflows table holds."""
    stored = row._mapping
    return _workflow_from_data(
        row.definition,
        **{field: stored[column] for column, field in _SERVER_FIELDS_BY_COLUMN.items()},
    )


def _workflow_from_data(definition: dict[str, Any], **server_fields: Any) -> Workflow:
    return Workflow.model_validate({**definition, **server_fields}, context=STORED)
