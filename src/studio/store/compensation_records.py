"""What an unwind leaves: ``#comp`` rows, the execution's compensation state, findings."""

from typing import Any

from sqlalchemy import insert, select, update

from studio.model.execution import COMPENSATING, ExecutionEvent
from studio.store.database import Database
from studio.store.event_log import append_event
from studio.store.schema import executions, governance_findings, node_results, utc_now


class CompensationRecords:
    """Compensation and governance records; part of ExecutionRepository."""

    database: Database

    def begin_compensation(
        self, execution_id: str, node_id: str, position: int, payload: dict[str, Any]
    ) -> ExecutionEvent:
        """Reserve a compensation: its ``#comp`` row is written compensating before dispatch."""
        now = utc_now()
        with self.database.write() as connection:
            connection.execute(
                insert(node_results).values(
                    execution_id=execution_id,
                    node_id=node_id,
                    position=position,
                    status=COMPENSATING,
                    input=payload.get("args"),
                    retry_count=0,
                    started_at=now,
                )
            )
            return append_event(
                connection, execution_id, "compensation.started", node_id, payload, now
            )

    def set_compensation_state(
        self,
        execution_id: str,
        status: str,
        summary: dict[str, Any],
        event_type: str,
        payload: dict[str, Any] | None = None,
    ) -> ExecutionEvent:
        """Record the unwind's overall status and summary on the execution."""
        now = utc_now()
        with self.database.write() as connection:
            connection.execute(
                update(executions)
                .where(executions.c.id == execution_id)
                .values(compensation_status=status, compensation_summary=summary)
            )
            return append_event(connection, execution_id, event_type, None, payload or {}, now)

    def record_finding(
        self,
        execution_id: str,
        node_id: str | None,
        failure_class: str,
        action: str,
        message: str,
    ) -> None:
        """A governance finding: a durable note that a person has to look at something."""
        with self.database.write() as connection:
            connection.execute(
                insert(governance_findings).values(
                    execution_id=execution_id,
                    node_id=node_id,
                    failure_class=failure_class,
                    recommended_action=action,
                    message=message,
                    created_at=utc_now(),
                )
            )

    def findings(self, execution_id: str) -> list[dict[str, Any]]:
        """The governance findings of an execution, oldest first."""
        table = governance_findings
        query = select(table).where(table.c.execution_id == execution_id).order_by(table.c.id)
        with self.database.read() as connection:
            return [
                {
                    "nodeId": row.node_id,
                    "failureClass": row.failure_class,
                    "recommendedAction": row.recommended_action,
                    "message": row.message,
                }
                for row in connection.execute(query)
            ]
