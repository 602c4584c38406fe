"""What the queue port refuses, and why: the errors every side of the port may meet."""

from studio.model.errors import StudioError
from studio.model.gate_a import GateFailure


class GateARefusedError(StudioError):
    """An item Gate A refuses at enqueue: nothing was stored."""

    def __init__(self, item: str, failures: list[GateFailure]) -> None:
        rules = "; ".join(failure.describe() for failure in failures)
        super().__init__(f"{item} does not pass Gate A: {rules}")
        self.failures = failures


class StaleLeaseError(StudioError):
    """A write under a lease that is no longer the item's: its token is stale."""


class ExitRefusedError(StudioError):
    """An ack with an exit the queue port does not take."""
