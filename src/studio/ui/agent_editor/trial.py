"""One call of an agent not yet saved, through its kind's own engine code: what the editor's
"Try it" box runs. The kind is the one a run would use; the call passes the checks a node's
call passes (the parameters schema, the output limits and a time limit), without the
governance a run adds around it (approval, circuit breaker, reservation)."""

import asyncio
from functools import cache
from typing import Any

from studio.engine.agent_kinds import AgentCall, AgentError, KindRegistry, default_kind_registry
from studio.engine.dispatch import checked_output
from studio.engine.node_runner import refuse_broken_parameters
from studio.model import AgentDefinition
from studio.model.agent_parameters import merged_parameters

TRY_NODE = "try-it"
TRY_TIMEOUT = 30.0
"""Seconds a try may take before it is stopped as a Timeout."""


@cache
def try_kinds() -> KindRegistry:
    """The kinds a try can call: the built-in and installed ones. ``artifact`` is not among
    them: what lands can never be removed."""
    return default_kind_registry()


async def try_agent(
    definition: AgentDefinition,
    node_input: Any,
    parameters: dict[str, Any],
    kinds: KindRegistry | None = None,
    timeout: float = TRY_TIMEOUT,
) -> Any:
    """The agent's output for ``node_input``, or AgentError as a node's call would raise it."""
    values = merged_parameters(definition.parameters, parameters)
    refuse_broken_parameters(TRY_NODE, definition, values)
    call = AgentCall(
        execution_id=TRY_NODE,
        workflow_id="",
        node_id=TRY_NODE,
        agent=definition,
        input=node_input,
        parameters=values,
        timeout=timeout,
    )
    kind = (kinds or try_kinds()).get(definition.kind)
    try:
        return checked_output(await asyncio.wait_for(kind.run(call), timeout))
    except TimeoutError:
        raise AgentError("Timeout", f"the call did not finish within {timeout:g} s") from None


def failure_text(failure: Exception) -> str:
    """How a failed try reads: the error type and message a run's step would show."""
    if isinstance(failure, AgentError):
        return f"{failure.error_type}: {failure.message}"
    return f"{type(failure).__name__}: {failure}"
