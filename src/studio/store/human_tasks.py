"""Human tasks: a node waiting for a person's approval, and the decision once made.

A decision may be recorded before the run reaches the node (pre-approval); the node then
passes its approval gate at once.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select, update

from studio.model.errors import NotFoundError
from studio.model.execution import ExecutionEvent
from studio.store.database import Database
from studio.store.event_log import append_event
from studio.store.row_records import RecordReader
from studio.store.schema import executions, human_tasks, utc_now

PENDING, APPROVED, REJECTED = "pending", "approved", "rejected"
DECIDED_EVENT = "approval.decided"


@dataclass(frozen=True)
class HumanTask:
    """Who must decide what, since when, and what they decided."""

    execution_id: str
    node_id: str
    status: str
    title: str
    input: Any
    created_at: datetime
    decided_at: datetime | None
    decided_by: str | None
    comment: str | None

    @property
    def is_decided(self) -> bool:
        """Whether a person approved or rejected it."""
        return self.status in (APPROVED, REJECTED)

    def to_data(self) -> dict[str, Any]:
        """JSON-compatible form."""
        return {
            "executionId": self.execution_id,
            "nodeId": self.node_id,
            "status": self.status,
            "title": self.title,
            "input": self.input,
            "createdAt": _iso(self.created_at),
            "decidedAt": _iso(self.decided_at),
            "decidedBy": self.decided_by,
            "comment": self.comment,
        }


human_task = RecordReader(HumanTask)
"""A human_tasks row as a task."""


class HumanTaskRepository:
    """Approval requests and decisions."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def get(self, execution_id: str, node_id: str) -> HumanTask | None:
        """The task of one node of one execution, if any."""
        query = select(human_tasks).where(
            human_tasks.c.execution_id == execution_id, human_tasks.c.node_id == node_id
        )
        with self.database.read() as connection:
            row = connection.execute(query).first()
        return human_task(row) if row else None

    def request(self, execution_id: str, node_id: str, title: str, task_input: Any) -> HumanTask:
        """Ask for a decision; an existing task (pending or decided) is returned as it is."""
        with self.database.write() as connection:
            existing = connection.execute(
                select(human_tasks).where(
                    human_tasks.c.execution_id == execution_id, human_tasks.c.node_id == node_id
                )
            ).first()
            if existing is not None:
                return human_task(existing)
            connection.execute(
                insert(human_tasks).values(
                    execution_id=execution_id,
                    node_id=node_id,
                    status=PENDING,
                    title=title,
                    input=task_input,
                    created_at=utc_now(),
                )
            )
        task = self.get(execution_id, node_id)
        assert task is not None
        return task

    def decide(
        self, execution_id: str, node_id: str, *, approved: bool, by: str, comment: str | None
    ) -> tuple[HumanTask, ExecutionEvent | None]:
        """Record a decision, creating the task when the run has not reached the node yet.

        A decision already made is not overwritten: the first decision stands. Returns the task
        and the ``approval.decided`` event written with the decision, in the same transaction;
        the event is None when the node was decided already, so deciding twice logs it once.
        """
        now = utc_now()
        status = APPROVED if approved else REJECTED
        decision = {"status": status, "decided_at": now, "decided_by": by, "comment": comment}
        with self.database.write() as connection:
            if (
                connection.execute(
                    select(executions.c.id).where(executions.c.id == execution_id)
                ).first()
                is None
            ):
                raise NotFoundError("Execution not found")
            recorded = _record_decision(connection, execution_id, node_id, decision)
            event = None
            if recorded:
                payload = {"decision": status, "by": by, "comment": comment}
                event = append_event(connection, execution_id, DECIDED_EVENT, node_id, payload, now)
        task = self.get(execution_id, node_id)
        assert task is not None
        return task, event

    def waiting(self) -> list[HumanTask]:
        """Every task still waiting for a decision, oldest first."""
        query = (
            select(human_tasks)
            .where(human_tasks.c.status == PENDING)
            .order_by(human_tasks.c.created_at)
        )
        with self.database.read() as connection:
            return [human_task(row) for row in connection.execute(query)]

    def for_execution(self, execution_id: str) -> list[HumanTask]:
        """Every task of one execution."""
        query = (
            select(human_tasks)
            .where(human_tasks.c.execution_id == execution_id)
            .order_by(human_tasks.c.created_at)
        )
        with self.database.read() as connection:
            return [human_task(row) for row in connection.execute(query)]


def _record_decision(
    connection: Connection, execution_id: str, node_id: str, decision: dict[str, Any]
) -> bool:
    """Decide a pending task, or file a decided one when there is none; False when the node
    was decided already."""
    this_task = (human_tasks.c.execution_id == execution_id) & (human_tasks.c.node_id == node_id)
    changed = connection.execute(
        update(human_tasks).where(this_task, human_tasks.c.status == PENDING).values(decision)
    ).rowcount
    if changed:
        return True
    if connection.execute(select(human_tasks.c.node_id).where(this_task)).first() is not None:
        return False
    connection.execute(
        insert(human_tasks).values(
            execution_id=execution_id,
            node_id=node_id,
            title="decided before the run reached the node",
            created_at=decision["decided_at"],
            **decision,
        )
    )
    return True


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None
