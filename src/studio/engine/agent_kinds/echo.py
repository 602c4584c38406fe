"""The ``echo`` kind: returns its input, for trying workflows out and for tests.

Parameters:
    delaySeconds: optional pause before answering, to stand in for slow work.
    prefix: optional text put in front of a string input, or of the ``message`` field of an
        object input whose ``message`` is a string.
"""

import asyncio
from typing import Any, ClassVar

from studio.engine.agent_kinds.base import AgentCall, AgentError, AgentKind


class EchoKind(AgentKind):
    """Answers with the node input, optionally after a delay and with a prefix."""

    name: ClassVar[str] = "echo"

    async def run(self, call: AgentCall) -> Any:
        """Wait ``delaySeconds``, then return the input with ``prefix`` applied."""
        delay = _delay(call.parameters.get("delaySeconds", 0))
        if delay:
            await asyncio.sleep(delay)
        prefix = call.parameters.get("prefix")
        if prefix is None:
            return call.input
        if not isinstance(prefix, str):
            raise AgentError("InvalidParameters", "parameter 'prefix' must be a string")
        return with_prefix(call.input, prefix)


def with_prefix(value: Any, prefix: str) -> Any:
    """The value with the prefix applied where it can be; anything else is left as it is."""
    if isinstance(value, str):
        return prefix + value
    if isinstance(value, dict) and isinstance(value.get("message"), str):
        return {**value, "message": prefix + value["message"]}
    return value


def _delay(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise AgentError("InvalidParameters", "parameter 'delaySeconds' must be a number >= 0")
    return float(value)
