"""Executions, their per-node results and their ordered event history.

Every state change is one write transaction that updates the record only if it is still in
an allowed from-state and appends an event with the next sequence number (no gaps).
"""

import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import (
    Connection,
    and_,
    func,
    insert,
    literal,
    select,
    update,
)

from studio.model import Workflow
from studio.model.agent_library import AgentPins, pins_from_data, pins_to_data
from studio.model.errors import EXECUTION_NOT_FOUND, NotFoundError
from studio.model.execution import (
    CANCELLED,
    COMPENSATION_SUFFIX,
    EXECUTION_TERMINAL,
    EXECUTION_TRANSITIONS,
    NODE_TERMINAL,
    PENDING,
    RUNNING,
    ExecutionEvent,
    ExecutionRecord,
    NodeResult,
)
from studio.store.agent_library import AgentChoice, pin_agents
from studio.store.compensation_records import CompensationRecords
from studio.store.database import Database
from studio.store.event_log import append_event
from studio.store.execution_claims import ExecutionClaims
from studio.store.execution_rows import (
    announce_reused,
    created_record,
    execution_event,
    execution_record,
    initial_row,
    insert_node_rows,
    node_results_of,
)
from studio.store.node_transitions import NodeTransition, apply_node_transitions
from studio.store.schema import (
    UtcTimestamp,
    execution_events,
    executions,
    node_results,
    utc_now,
)

_UNSET: Any = object()


class ExecutionRepository(ExecutionClaims, CompensationRecords):
    """Reads and writes execution records; the step runner is its main writer."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def create(
        self,
        workflow: Workflow,
        execution_input: Any,
        reused: Mapping[str, NodeResult] | None = None,
        origin: dict[str, Any] | None = None,
        agents: Mapping[str, AgentChoice] | None = None,
    ) -> tuple[ExecutionRecord, ExecutionEvent]:
        """A pending execution of the workflow's current version, every node pending.

        ``reused`` carries results of an earlier execution taken over as they are (for "run
        from here"); each is recorded with a ``node.reused`` or ``node.skipped`` event.
        ``origin`` is added to the creation event (which execution and node it re-runs).
        ``agents`` are the definitions the run uses, pinned in the same transaction.
        """
        execution_id, now = str(uuid.uuid4()), utc_now()
        reused = reused or {}
        with self.database.write() as connection:
            pins = None if agents is None else pins_to_data(pin_agents(connection, agents))
            execution_row = {
                "id": execution_id,
                "workflow_id": workflow.id,
                "workflow_version": workflow.version,
                "status": PENDING,
                "input": execution_input,
                "created_at": now,
                "agent_versions": pins,
            }
            connection.execute(insert(executions).values(execution_row))
            rows = [
                initial_row(execution_id, index, node.id, reused.get(node.id))
                for index, node in enumerate(workflow.nodes)
            ]
            insert_node_rows(connection, rows)
            payload = {"workflowId": workflow.id, "workflowVersion": workflow.version}
            event = append_event(
                connection, execution_id, "execution.created", None, payload | (origin or {}), now
            )
            for node in workflow.nodes:
                if node.id in reused:
                    announce_reused(connection, execution_id, reused[node.id], origin, now)
        return created_record(execution_row, rows), event

    def get(self, execution_id: str) -> ExecutionRecord:
        """The execution with every node result; raises NotFoundError('Execution not found')."""
        with self.database.read() as connection:
            row = connection.execute(
                select(executions).where(executions.c.id == execution_id)
            ).first()
            if row is None:
                raise NotFoundError(EXECUTION_NOT_FOUND)
            results = node_results_of(connection, execution_id)
        return execution_record(row, node_results={result.node_id: result for result in results})

    def status(self, execution_id: str) -> str:
        """The execution's status alone; raises NotFoundError('Execution not found')."""
        query = select(executions.c.status).where(executions.c.id == execution_id)
        with self.database.read() as connection:
            status = connection.execute(query).scalar()
        if status is None:
            raise NotFoundError(EXECUTION_NOT_FOUND)
        return str(status)

    def agent_pins(self, execution_id: str) -> AgentPins | None:
        """The agent versions the execution pinned; None for one stored before pinning."""
        query = select(executions.c.agent_versions).where(executions.c.id == execution_id)
        with self.database.read() as connection:
            data = connection.execute(query).scalar()
        return None if data is None else pins_from_data(data)

    def find(
        self,
        *,
        workflow_id: str | None = None,
        status: str | None = None,
        execution_id: str | None = None,
        id_prefix: str | None = None,
        limit: int = 200,
    ) -> list[ExecutionRecord]:
        """Executions, newest first, without node results; ``id_prefix``: those whose id
        starts with it (a short id a person typed)."""
        query = select(executions).order_by(executions.c.created_at.desc()).limit(limit)
        if execution_id is not None:
            query = query.where(executions.c.id == execution_id)
        if id_prefix is not None:
            query = query.where(executions.c.id.startswith(id_prefix, autoescape=True))
        if workflow_id is not None:
            query = query.where(executions.c.workflow_id == workflow_id)
        if status is not None:
            query = query.where(executions.c.status == status)
        with self.database.read() as connection:
            return [execution_record(row) for row in connection.execute(query)]

    def count(self, *, workflow_id: str | None = None) -> int:
        """How many executions there are (of one workflow, if given)."""
        query = select(func.count()).select_from(executions)
        if workflow_id is not None:
            query = query.where(executions.c.workflow_id == workflow_id)
        with self.database.read() as connection:
            return int(connection.execute(query).scalar_one())

    def node_output(self, execution_id: str, node_id: str) -> Any:
        """One node's recorded output (None if it has none), without reading the others."""
        query = select(node_results.c.output).where(
            node_results.c.execution_id == execution_id, node_results.c.node_id == node_id
        )
        with self.database.read() as connection:
            return connection.execute(query).scalar()

    def node_ids(self, execution_id: str) -> list[str]:
        """The ids of the execution's nodes in workflow order (compensations not included)."""
        query = (
            select(node_results.c.node_id)
            .where(node_results.c.execution_id == execution_id)
            .order_by(node_results.c.position)
        )
        with self.database.read() as connection:
            ids = [row.node_id for row in connection.execute(query)]
        return [node_id for node_id in ids if not node_id.endswith(COMPENSATION_SUFFIX)]

    def events(self, execution_id: str, after_seq: int = 0) -> list[ExecutionEvent]:
        """The execution's history in order, after a sequence number."""
        table = execution_events
        query = (
            select(table)
            .where(table.c.execution_id == execution_id, table.c.seq > after_seq)
            .order_by(table.c.seq)
        )
        with self.database.read() as connection:
            return [execution_event(row) for row in connection.execute(query)]

    def set_execution_status(
        self,
        execution_id: str,
        status: str,
        event_type: str,
        payload: dict[str, Any] | None = None,
        *,
        output: Any = _UNSET,
        error: Any = _UNSET,
        owner: str | None = None,
    ) -> ExecutionEvent | None:
        """Move the execution to ``status`` if its current status allows (and, with ``owner``,
        while that runner holds its claim); None when refused."""
        now = utc_now()
        values: dict[str, Any] = {"status": status}
        if status == RUNNING:
            values["started_at"] = func.coalesce(
                executions.c.started_at, literal(now, UtcTimestamp)
            )
        if status in EXECUTION_TERMINAL:
            values["completed_at"] = now
        if output is not _UNSET:
            values["output"] = output
        if error is not _UNSET:
            values["error"] = error
        allowed = EXECUTION_TRANSITIONS[status]
        statement = (
            update(executions)
            .where(executions.c.id == execution_id, executions.c.status.in_(allowed))
            .values(**values)
        )
        if owner is not None:
            statement = statement.where(executions.c.owner == owner)
        with self.database.write() as connection:
            if connection.execute(statement).rowcount != 1:
                return None
            return append_event(connection, execution_id, event_type, None, payload or {}, now)

    def set_node_status(
        self,
        execution_id: str,
        node_id: str,
        status: str,
        event_type: str,
        payload: dict[str, Any] | None = None,
        **fields: Any,
    ) -> ExecutionEvent | None:
        """Move one node to ``status`` if its current status allows; None when refused.

        ``fields`` may set input, output, error, retry_count, started_at, completed_at and
        next_retry_at.
        """
        transition = NodeTransition(node_id, status, event_type, payload or {}, fields)
        return self.record_transitions(execution_id, [transition])[0]

    def record_transitions(
        self, execution_id: str, transitions: Sequence[NodeTransition]
    ) -> list[ExecutionEvent | None]:
        """Apply the transitions in order in one write transaction (one commit); for each, its
        event, or None where its current status did not allow it or a transition it requires
        was refused (see ``NodeTransition.requires``)."""
        if not transitions:
            return []
        now = utc_now()
        with self.database.write() as connection:
            return apply_node_transitions(connection, execution_id, transitions, now)

    def note(
        self, execution_id: str, event_type: str, node_id: str | None, payload: dict[str, Any]
    ) -> ExecutionEvent:
        """Append an event that changes no state, such as an escalation or a decision."""
        with self.database.write() as connection:
            return append_event(connection, execution_id, event_type, node_id, payload, utc_now())

    def cancel(self, execution_id: str) -> tuple[ExecutionRecord, list[ExecutionEvent]]:
        """Cancel a pending or running execution and its unfinished nodes.

        A finished execution is returned unchanged, with no events.
        """
        now = utc_now()
        events: list[ExecutionEvent] = []
        with self.database.write() as connection:
            changed = connection.execute(
                update(executions)
                .where(
                    executions.c.id == execution_id,
                    executions.c.status.in_(EXECUTION_TRANSITIONS[CANCELLED]),
                )
                .values(
                    status=CANCELLED,
                    completed_at=now,
                    error={"type": "Cancelled", "message": "the execution was cancelled"},
                )
            ).rowcount
            if changed:
                for node_id in _unfinished_nodes(connection, execution_id):
                    connection.execute(
                        update(node_results)
                        .where(
                            node_results.c.execution_id == execution_id,
                            node_results.c.node_id == node_id,
                        )
                        .values(
                            status=CANCELLED,
                            completed_at=now,
                            error={"type": "Cancelled", "message": "the execution was cancelled"},
                        )
                    )
                    events.append(
                        append_event(connection, execution_id, "node.cancelled", node_id, {}, now)
                    )
                events.append(
                    append_event(connection, execution_id, "execution.cancelled", None, {}, now)
                )
        return self.get(execution_id), events


def _unfinished_nodes(connection: Connection, execution_id: str) -> Iterable[str]:
    query = (
        select(node_results.c.node_id)
        .where(
            and_(
                node_results.c.execution_id == execution_id,
                node_results.c.status.not_in(NODE_TERMINAL),
            )
        )
        .order_by(node_results.c.position)
    )
    return [row.node_id for row in connection.execute(query)]
