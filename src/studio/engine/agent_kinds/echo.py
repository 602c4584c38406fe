"""The ``echo`` kind: returns its input, for trying workflows out and for tests.

Parameters:
    delaySeconds: optional pause before answering, to stand in for slow work.
    prefix: optional text put in front of a string input, or of the ``message`` field of an
        object input whose ``message`` is a string.
"""

import asyncio
from typing import Any, ClassVar

from studio.engine.agent_kinds.base import AgentCall, AgentError, AgentKind
from studio.model.agent_parameters import refusal

PARAMETERS = {
    "type": "object",
    "properties": {"delaySeconds": {"type": "number", "minimum": 0}, "prefix": {"type": "string"}},
}
"""What the kind itself needs of its parameters, whatever an echo agent's schema declares."""


class EchoKind(AgentKind):
    """Answers with the node input, optionally after a delay and with a prefix."""

    name: ClassVar[str] = "echo"

    async def run(self, call: AgentCall) -> Any:
        """Wait ``delaySeconds``, then return the input with ``prefix`` applied."""
        found = refusal(PARAMETERS, call.parameters) if call.parameters else None
        if found is not None:
            raise AgentError("InvalidParameters", found)
        delay = float(call.parameters.get("delaySeconds", 0))
        if delay:
            await asyncio.sleep(delay)
        prefix = call.parameters.get("prefix")
        return call.input if prefix is None else with_prefix(call.input, prefix)


def with_prefix(value: Any, prefix: str) -> Any:
    """The value with the prefix applied where it can be; anything else is left as it is."""
    if isinstance(value, str):
        return prefix + value
    if isinstance(value, dict) and isinstance(value.get("message"), str):
        return {**value, "message": prefix + value["message"]}
    return value
