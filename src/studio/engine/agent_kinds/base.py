"""What an agent kind is: a class that runs one node once and returns its JSON output."""

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from studio.model import AgentDefinition
from studio.model.input_limits import InputLimitError, parse_json_text


@dataclass(frozen=True)
class AgentCall:
    """Everything an agent kind needs to run one node once."""

    execution_id: str
    workflow_id: str
    node_id: str
    agent: AgentDefinition
    input: Any
    parameters: dict[str, Any] = field(default_factory=dict)
    configuration: dict[str, Any] = field(default_factory=dict)
    attempt: int = 0
    timeout: float = 60.0
    secrets: Mapping[str, str] = field(default_factory=dict, repr=False)
    """Credential values resolved for this call only; never stored, logged or exported."""
    approval: dict[str, Any] | None = None
    """The person's decision, for a call that passed an approval gate."""
    workflow_version: int | None = None
    """The published version being run, for provenance."""

    def hide_secrets(self, text: str) -> str:
        """``text`` with this call's credential values replaced, before it is cut or kept:
        a secret cut in half would no longer be recognised later."""
        from studio.engine.credentials import Redactor  # credentials imports nothing of kinds

        return Redactor(self.secrets.values()).redact_text(text) if self.secrets else text

    def template_context(self) -> dict[str, Any]:
        """The names a ``${...}`` substitution may start with."""
        return {
            "input": self.input,
            "parameters": self.parameters,
            "config": self.configuration,
            "credentials": dict(self.secrets),
        }


class AgentError(Exception):
    """A node's work failed; ``error_type`` is what retry policies match against."""

    def __init__(self, error_type: str, message: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.error_type = error_type
        self.message = message
        self.details = details or {}

    def to_data(self) -> dict[str, Any]:
        """The error as stored in a node result: ``{type, message}`` plus any details."""
        data: dict[str, Any] = {"type": self.error_type, "message": self.message}
        if self.details:
            data["details"] = self.details
        return data


class AgentKind(ABC):
    """One way of running an agent (echo, shell, python, http, transform, ...).

    A kind is created once per engine and may be called concurrently. When the engine cancels
    a call (node timeout, workflow timeout, cancel), the coroutine must stop its work, kill any
    process it started and let ``asyncio.CancelledError`` propagate.
    """

    name: ClassVar[str]

    @abstractmethod
    async def run(self, call: AgentCall) -> Any:
        """Run the node and return its output (JSON-compatible), or raise AgentError."""


def output_json(text: str) -> Any:
    """The JSON an agent wrote (ValueError when the text is not JSON). JSON nested deeper than
    the input limits allow is an InvalidOutput error rather than a failure of the parser."""
    try:
        return parse_json_text(text)
    except InputLimitError as failure:
        raise AgentError("InvalidOutput", f"the agent's output breaks a limit: {failure}") from None
