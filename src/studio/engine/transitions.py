"""Recording a node transition: written to the store first, then announced on the bus."""

from typing import Any

from studio.engine.events import EventBus
from studio.store import ExecutionRepository


class TransitionRecorder:
    """Writes a node's status change and, once stored, publishes its event."""

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
        event = self.executions.set_node_status(
            execution_id, node_id, status, event_type, payload, **fields
        )
        self.bus.publish(event)
        return event is not None
