"""Which runner holds an execution: claims, heartbeats and take-over of a dead runner's work."""

from datetime import datetime

from sqlalchemy import select, update

from studio.model.errors import EXECUTION_NOT_FOUND, NotFoundError
from studio.model.execution import FAILED, PENDING, RUNNING, WAITING
from studio.store.database import Database
from studio.store.schema import executions, utc_now

CLAIMABLE = (PENDING, RUNNING, WAITING, FAILED)
"""Statuses a runner may take over: to drive it, or to finish a failed run's unwind."""


class ExecutionClaims:
    """Claims on executions; part of ExecutionRepository."""

    database: Database

    def claim(
        self, execution_id: str, owner: str, replacing: str | None, stale_before: datetime
    ) -> bool:
        """Become the execution's runner: when it has no owner, its owner is ``replacing``
        (known dead), or its owner's heartbeat is older than ``stale_before``."""
        table = executions
        free = table.c.owner.is_(None) | (table.c.heartbeat_at < stale_before)
        if replacing is not None:
            free = free | (table.c.owner == replacing)
        statement = (
            update(table)
            .where(table.c.id == execution_id, table.c.status.in_(CLAIMABLE), free)
            .values(owner=owner, heartbeat_at=utc_now())
        )
        with self.database.write() as connection:
            return connection.execute(statement).rowcount == 1

    def owner_of(self, execution_id: str) -> tuple[str | None, datetime | None]:
        """The runner that holds the execution and when it last said it was alive."""
        with self.database.read() as connection:
            row = connection.execute(
                select(executions.c.owner, executions.c.heartbeat_at).where(
                    executions.c.id == execution_id
                )
            ).first()
        if row is None:
            raise NotFoundError(EXECUTION_NOT_FOUND)
        return row.owner, row.heartbeat_at

    def heartbeat(self, execution_id: str, owner: str) -> str | None:
        """Renew the claim; returns the execution's status, or None if the claim was lost."""
        with self.database.write() as connection:
            row = connection.execute(
                update(executions)
                .where(executions.c.id == execution_id, executions.c.owner == owner)
                .values(heartbeat_at=utc_now())
                .returning(executions.c.status)
            ).first()
        return row.status if row else None

    def release(self, execution_id: str, owner: str) -> None:
        """Give up the claim."""
        with self.database.write() as connection:
            connection.execute(
                update(executions)
                .where(executions.c.id == execution_id, executions.c.owner == owner)
                .values(owner=None, heartbeat_at=None)
            )
