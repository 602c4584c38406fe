"""A circuit breaker per agent: after N consecutive failures calls are refused until a
cool-down passes; then one trial call decides whether the circuit closes again."""

import time
from collections.abc import Callable
from dataclasses import dataclass

from studio.engine.agent_kinds.base import AgentError
from studio.model.governance import CircuitBreakerSettings


@dataclass
class _Circuit:
    failures: int = 0
    opened_at: float | None = None
    trial_in_flight: bool = False


class CircuitBreakerBoard:
    """The circuits of every agent this runner has called."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._circuits: dict[str, _Circuit] = {}

    def check(self, agent_id: str, settings: CircuitBreakerSettings) -> None:
        """Refuse a call with CircuitOpen while the agent's circuit is open."""
        circuit = self._circuits.get(agent_id)
        if circuit is None or circuit.opened_at is None:
            return
        waited = self._clock() - circuit.opened_at
        if waited < settings.cooldown_seconds or circuit.trial_in_flight:
            remaining = max(0.0, settings.cooldown_seconds - waited)
            raise AgentError(
                "CircuitOpen",
                f"the circuit for agent '{agent_id}' is open after {circuit.failures} consecutive "
                f"failures; calls resume in {remaining:.0f} s",
            )

    def begin_call(self, agent_id: str) -> None:
        """The call is about to reach the agent: past a cool-down it is the one trial call.

        Marked only now, so a call held at the approval gate never occupies the trial."""
        circuit = self._circuits.get(agent_id)
        if circuit is not None and circuit.opened_at is not None:
            circuit.trial_in_flight = True

    def end_call_unjudged(self, agent_id: str) -> None:
        """The call ended in a way that says nothing about the agent: free the trial."""
        circuit = self._circuits.get(agent_id)
        if circuit is not None:
            circuit.trial_in_flight = False

    def record_success(self, agent_id: str) -> None:
        """A call succeeded: the circuit closes."""
        self._circuits.pop(agent_id, None)

    def record_failure(self, agent_id: str, settings: CircuitBreakerSettings) -> None:
        """A call failed: count it, and open the circuit at the threshold (or after a trial)."""
        circuit = self._circuits.setdefault(agent_id, _Circuit())
        circuit.failures += 1
        if circuit.trial_in_flight or circuit.failures >= settings.failure_threshold:
            circuit.opened_at = self._clock()
        circuit.trial_in_flight = False

    def is_closed(self, agent_id: str) -> bool:
        """Whether calls to the agent pass freely (no open circuit, no trial in flight)."""
        circuit = self._circuits.get(agent_id)
        return circuit is None or circuit.opened_at is None

    def state_of(self, agent_id: str) -> str:
        """closed, open or half-open (open with its cool-down over is reported as open)."""
        circuit = self._circuits.get(agent_id)
        if circuit is None or circuit.opened_at is None:
            return "closed"
        return "half-open" if circuit.trial_in_flight else "open"
