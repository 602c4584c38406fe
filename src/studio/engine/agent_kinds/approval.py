"""The ``approval`` kind: a node whose whole job is a person's decision.

The dispatch seam holds the call until someone approves it (``studio approve`` or the
Approvals panel); a rejection fails the node. Once approved the node passes its input on
unchanged, so a gate can be put anywhere in a pipeline. The decision itself is kept in the
human task and the event history.
"""

from typing import Any

from studio.engine.agent_kinds.base import AgentCall, AgentKind


class ApprovalKind(AgentKind):
    """A gate that only a person can open."""

    name = "approval"

    async def run(self, call: AgentCall) -> Any:
        """Pass the input on; the seam has already checked the decision."""
        return call.input
