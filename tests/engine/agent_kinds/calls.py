"""Building AgentCall objects for agent kind tests, and running them to the end."""

import asyncio
from typing import Any

from studio.engine.agent_kinds.base import AgentCall, AgentKind
from studio.model import AgentDefinition


def make_call(
    kind: str,
    settings: dict[str, Any] | None = None,
    node_input: Any = None,
    parameters: dict[str, Any] | None = None,
    configuration: dict[str, Any] | None = None,
    timeout: float = 10.0,
) -> AgentCall:
    """A call of a throwaway agent of ``kind`` with the given settings and data."""
    agent = AgentDefinition(
        id=f"test-{kind}", name=f"Test {kind}", kind=kind, settings=settings or {}
    )
    return AgentCall(
        execution_id="execution-1",
        workflow_id="workflow-1",
        node_id="node-1",
        agent=agent,
        input=node_input,
        parameters=parameters or {},
        configuration=configuration or {},
        timeout=timeout,
    )


def run(kind: AgentKind, call: AgentCall) -> Any:
    """Run one call on a fresh event loop and return its output."""
    return asyncio.run(kind.run(call))
