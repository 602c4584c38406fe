"""The in-process event bus: the runner announces what it has already written to the store."""

import logging
from collections.abc import Callable

from studio.model.execution import ExecutionEvent

Subscriber = Callable[[ExecutionEvent], None]
log = logging.getLogger(__name__)


class EventBus:
    """Fan events out to subscribers; a failing subscriber is logged and never stops a run."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Add a subscriber; returns a function that removes it again."""
        self._subscribers.append(subscriber)
        return lambda: (
            self._subscribers.remove(subscriber) if subscriber in self._subscribers else None
        )

    def publish(self, event: ExecutionEvent | None) -> None:
        """Deliver an event (None, from a refused transition, is ignored)."""
        if event is None:
            return
        for subscriber in list(self._subscribers):
            try:
                subscriber(event)
            except Exception:
                log.exception("event subscriber failed on %s", event.type)
