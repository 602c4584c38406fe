"""Agent kinds: the ways a node's work can be done (echo, shell, python, http, transform)."""

from studio.engine.agent_kinds.base import AgentCall, AgentError, AgentKind
from studio.engine.agent_kinds.registry import (
    KindLoadProblem,
    KindRegistry,
    default_kind_registry,
)

__all__ = [
    "AgentCall",
    "AgentError",
    "AgentKind",
    "KindLoadProblem",
    "KindRegistry",
    "default_kind_registry",
]
