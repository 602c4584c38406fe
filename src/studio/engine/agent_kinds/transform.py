"""The ``transform`` kind: reshape data with a JSON template, no program involved.

Settings:
    output: a JSON template rendered against ``input``, ``parameters`` and ``config``;
        the rendered value is the node's output.
"""

from typing import Any, ClassVar

from studio.engine.agent_kinds.base import AgentCall, AgentKind
from studio.engine.agent_kinds.settings import rendered, setting


class TransformKind(AgentKind):
    """Renders the ``output`` template and returns it."""

    name: ClassVar[str] = "transform"

    async def run(self, call: AgentCall) -> Any:
        """Return the rendered ``output`` template."""
        return rendered(call, "output", setting(call, "output"))
