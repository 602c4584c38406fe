"""Apps of one organisation, with optimistic locking, and the blueprint import into an app."""

import uuid
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, Row, delete, insert, select, update

from studio.model import Workflow
from studio.model.apps import App, app_name
from studio.model.blueprint_import import (
    UnmappedPlaceholdersError,
    copy_name,
    placeholder_slots,
    remapped,
)
from studio.model.errors import (
    ACCESS_DENIED,
    APP_CONFLICT,
    APP_NOT_FOUND,
    ONLY_PUBLISHED_IMPORT,
    WORKFLOW_BOUND_ELSEWHERE,
    AccessDeniedError,
    ConflictError,
    NotAllowedError,
    NotFoundError,
)
from studio.store.database import Database
from studio.store.schema import apps, utc_now, workflows
from studio.store.workflows import fetch_workflow_row, insert_draft, workflow_from_row

_LARGEST_VERSION = 2**62
"""Versions stay far inside a 64-bit integer; anything beyond cannot be the current one."""


class AppRepository:
    """Create, read, rename, archive and delete the apps of one organisation; bind workflows
    to them and import blueprints into them. Every change bumps the app's version."""

    def __init__(self, database: Database, org_id: str) -> None:
        self.database = database
        self.org_id = org_id

    def create(self, name: str, description: str = "") -> App:
        """A new active app of this organisation, at version 1."""
        now, app_id = utc_now(), str(uuid.uuid4())
        values = {
            "id": app_id,
            "name": app_name(name),
            "description": description,
            "org_id": self.org_id,
            "status": "ACTIVE",
            "version": 1,
            "created_at": now,
            "updated_at": now,
        }
        with self.database.write() as connection:
            connection.execute(insert(apps).values(**values))
            return self._app(connection, app_id)

    def get(self, app_id: str) -> App:
        """The app; NotFoundError('App not found'), AccessDeniedError('Access denied')."""
        with self.database.read() as connection:
            return self._app(connection, app_id)

    def find(self, *, include_archived: bool = False) -> list[App]:
        """This organisation's apps by name; archived ones only when asked for."""
        query = select(apps.c.id).order_by(apps.c.name, apps.c.created_at)
        query = query.where((apps.c.org_id == self.org_id) | apps.c.org_id.is_(None))
        if not include_archived:
            query = query.where(apps.c.status == "ACTIVE")
        with self.database.read() as connection:
            ids = connection.execute(query).scalars().all()
            return [self._app(connection, app_id) for app_id in ids]

    def rename(
        self, app_id: str, name: str, expected_version: int, description: str | None = None
    ) -> App:
        """A new name (and, if given, a new description)."""
        values: dict[str, Any] = {"name": app_name(name)}
        if description is not None:
            values["description"] = description
        with self.database.write() as connection:
            self._app(connection, app_id)
            return self._changed(connection, app_id, expected_version, values)

    def archive(self, app_id: str, expected_version: int) -> App:
        """Archive the app; its workflows stay bound. An archived app comes back unchanged."""
        with self.database.write() as connection:
            current = self._app(connection, app_id)
            if current.archived:
                return current
            return self._changed(connection, app_id, expected_version, {"status": "ARCHIVED"})

    def delete(self, app_id: str, expected_version: int) -> None:
        """Delete the app; its workflows are unbound, not deleted."""
        with self.database.write() as connection:
            self._app(connection, app_id)
            self._changed(connection, app_id, expected_version, {})
            unbind = update(workflows).where(workflows.c.app_id == app_id).values(app_id=None)
            connection.execute(unbind)
            connection.execute(delete(apps).where(apps.c.id == app_id))

    def bind(self, app_id: str, workflow_id: str, expected_version: int) -> App:
        """Bind a workflow to the app; binding it again to the same app changes nothing."""
        with self.database.write() as connection:
            current = self._app(connection, app_id)
            workflow = self._workflow(connection, workflow_id)
            if workflow.app_id == app_id:
                return current
            _check_version(current, expected_version)
            if workflow.app_id is not None:
                raise NotAllowedError(WORKFLOW_BOUND_ELSEWHERE)
            self._set_app_of(connection, workflow_id, app_id)
            return self._changed(connection, app_id, expected_version, {})

    def unbind(self, app_id: str, workflow_id: str, expected_version: int) -> App:
        """Unbind a workflow from the app; one not bound to it leaves the app unchanged."""
        with self.database.write() as connection:
            current = self._app(connection, app_id)
            workflow = self._workflow(connection, workflow_id)
            if workflow.app_id != app_id:
                return current
            _check_version(current, expected_version)
            self._set_app_of(connection, workflow_id, None)
            return self._changed(connection, app_id, expected_version, {})

    def import_blueprint(
        self,
        blueprint: Workflow,
        app_id: str,
        mapping: Mapping[str, str],
        name: str | None = None,
        keep_placeholders: bool = False,
    ) -> Workflow:
        """Copy a published blueprint into a new draft workflow bound to the app, each
        placeholder slot in ``mapping`` replaced by its agent, in one transaction.

        Refused, with nothing written: a blueprint that is not published, an unknown app, an
        app of another organisation, a mapping key that is no slot, and placeholders left
        unmapped (UnmappedPlaceholdersError) unless ``keep_placeholders``."""
        with self.database.write() as connection:
            source = _stored_version_of(connection, blueprint)
            if not (source.is_blueprint and source.status == "PUBLISHED"):
                raise NotAllowedError(ONLY_PUBLISHED_IMPORT)
            app = self._app(connection, app_id)
            copy = remapped(source, mapping)
            left = placeholder_slots(copy)
            if left and not keep_placeholders:
                raise UnmappedPlaceholdersError(left)
            taken = set(connection.execute(select(workflows.c.name)).scalars())
            chosen = name.strip() if name and name.strip() else copy_name(source.name, taken)
            fields: dict[str, Any] = {"name": chosen, "is_blueprint": False, "app_id": app.id}
            fields |= {"org_id": app.org_id, **_link_to(source)}
            stored = insert_draft(connection, copy.model_copy(update=fields))
            self._changed(connection, app.id, app.version, {})
            return stored

    def _app(self, connection: Connection, app_id: str) -> App:
        """The app as stored, its workflows included, if it is this organisation's."""
        row = connection.execute(select(apps).where(apps.c.id == app_id)).first()
        if row is None:
            raise NotFoundError(APP_NOT_FOUND)
        self._check_org(row.org_id)
        return _app_from_row(connection, row)

    def _workflow(self, connection: Connection, workflow_id: str) -> Workflow:
        """A stored workflow ('Workflow not found'), if it is this organisation's."""
        workflow = workflow_from_row(fetch_workflow_row(connection, workflow_id))
        self._check_org(workflow.org_id)
        return workflow

    def _check_org(self, org_id: str | None) -> None:
        """Access denied for a record of another organisation; one without an org is local."""
        if org_id is not None and org_id != self.org_id:
            raise AccessDeniedError(ACCESS_DENIED)

    def _set_app_of(self, connection: Connection, workflow_id: str, app_id: str | None) -> None:
        statement = update(workflows).where(workflows.c.id == workflow_id)
        connection.execute(statement.values(app_id=app_id))

    def _changed(
        self, connection: Connection, app_id: str, expected_version: int, values: dict[str, Any]
    ) -> App:
        """Write ``values`` as version expected+1 if the app is still at expected."""
        if not 1 <= expected_version < _LARGEST_VERSION:
            raise ConflictError(APP_CONFLICT)
        result = connection.execute(
            update(apps)
            .where(apps.c.id == app_id, apps.c.version == expected_version)
            .values(**values, version=expected_version + 1, updated_at=utc_now())
        )
        if result.rowcount != 1:
            raise ConflictError(APP_CONFLICT)
        return self._app(connection, app_id)


def _check_version(app: App, expected_version: int) -> None:
    """The conflict error when the caller's version is not the stored one."""
    if app.version != expected_version:
        raise ConflictError(APP_CONFLICT)


def _stored_version_of(connection: Connection, blueprint: Workflow) -> Workflow:
    """The stored blueprint as it is now, when it is stored; a seed file's as given."""
    if blueprint.id is None:
        return blueprint
    row = connection.execute(select(workflows).where(workflows.c.id == blueprint.id)).first()
    return blueprint if row is None else workflow_from_row(row)


def _link_to(blueprint: Workflow) -> dict[str, Any]:
    """Where an imported copy came from: the blueprint's id and version (none without an id)."""
    known = blueprint.id is not None
    return {
        "blueprint_id": blueprint.id,
        "blueprint_version": blueprint.version if known else None,
    }


def _app_from_row(connection: Connection, row: Row) -> App:
    bound = (
        select(workflows.c.id)
        .where(workflows.c.app_id == row.id)
        .order_by(workflows.c.created_at, workflows.c.id)
    )
    return App(
        id=row.id,
        name=row.name,
        description=row.description,
        org_id=row.org_id,
        status=row.status,
        workflow_ids=list(connection.execute(bound).scalars()),
        version=row.version,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )
