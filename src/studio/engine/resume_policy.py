"""What a resumed run does with a node a previous runner left unfinished."""

from typing import Any

from studio.engine.agent_kinds.base import AgentError
from studio.engine.node_runner import error_record
from studio.engine.run_context import RunContext
from studio.model import Node
from studio.model.execution import FAILED, PENDING, RETRYING, RUNNING, WAITING

ON_INTERRUPTED = "onInterrupted"
"""Node constraint: ``retry`` runs an interrupted call again, ``fail`` reports it and stops."""


def is_side_effecting(node: Node) -> bool:
    """Whether running the node again could repeat a change in the outside world."""
    if node.constraints.get("sideEffecting") is True:
        return True
    return node.compensation is not None and node.compensation.side_effecting


def resume_action(node: Node, status: str) -> str | None:
    """The status to move an unfinished node to on resume, or None to leave it.

    Between attempts or waiting for a person nothing is in flight: pending again. A call
    that had started may have run: a side-effecting node fails as interrupted (so nobody's
    ticket is filed twice) unless its ``onInterrupted`` constraint says ``retry``; any other
    node runs again.
    """
    if status in (RETRYING, WAITING):
        return PENDING
    if status != RUNNING:
        return None
    policy = node.constraints.get(ON_INTERRUPTED, "fail" if is_side_effecting(node) else "retry")
    return PENDING if policy == "retry" else FAILED


def interrupted_error(context: RunContext) -> dict[str, Any]:
    """The error recorded for a call interrupted after it started."""
    failure = AgentError(
        "Interrupted",
        "the runner stopped after this call started, so it may have run; check the target, "
        "then re-run the node if it did not",
    )
    return error_record(failure, context.redactor)
