"""Recording node transitions: written to the store first, then announced on the bus."""

from collections.abc import Sequence
from typing import Any

from studio.engine.events import EventBus
from studio.model.execution import ExecutionEvent
from studio.store import ExecutionRepository
from studio.store.node_transitions import NodeTransition


class TransitionRecorder:
    """Writes nodes' status changes and, once stored, publishes their events."""

    def __init__(self, executions: ExecutionRepository, bus: EventBus) -> None:
        self.executions, self.bus = executions, bus

    def record(
        self,
        execution_id: str,
        node_id: str,
        status: str,
        event_type: str,
        payload: dict[str, Any],
        **fields: Any,
    ) -> bool:
        """Move the node to ``status``; False when its current status does not allow it."""
        transition = NodeTransition(node_id, status, event_type, payload, fields)
        return self.record_transition(execution_id, transition)

    def record_transition(self, execution_id: str, transition: NodeTransition) -> bool:
        """Record one transition; False when the node's current status does not allow it."""
        return self.record_together(execution_id, [transition])[0] is not None

    def record_together(
        self, execution_id: str, transitions: Sequence[NodeTransition]
    ) -> list[ExecutionEvent | None]:
        """Record the transitions in order in one commit, then publish their events; for
        each, its event, or None where the node's status did not allow it."""
        events = self.executions.record_transitions(execution_id, transitions)
        for event in events:
            self.bus.publish(event)
        return events
