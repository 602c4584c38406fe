"""The status of the execution a run drives, changed only while its runner holds the claim."""

from typing import Any

from studio.engine.events import EventBus
from studio.store import ExecutionRepository


class ClaimedStatus:
    """An execution's own status, as one runner may change it: a runner that took the
    execution over from a silent one drives it now, and the silent one, should it wake,
    must not settle it under the new runner."""

    def __init__(
        self, executions: ExecutionRepository, execution_id: str, owner: str, bus: EventBus
    ) -> None:
        self.executions, self.execution_id = executions, execution_id
        self.owner, self.bus = owner, bus

    def move(
        self, status: str, event_type: str, payload: dict[str, Any] | None = None, **values: Any
    ) -> bool:
        """Move the execution to ``status`` (``values``: its output and error) and announce
        it; False, with nothing written, when the claim is another runner's or the status
        does not allow it (cancelled meanwhile)."""
        event = self.executions.set_execution_status(
            self.execution_id, status, event_type, payload, owner=self.owner, **values
        )
        self.bus.publish(event)
        return event is not None
