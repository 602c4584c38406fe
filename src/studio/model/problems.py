"""Validation findings: what is wrong, how badly, and where."""

from typing import Literal

from pydantic import BaseModel, ConfigDict

Severity = Literal["error", "warning"]


class Problem(BaseModel):
    """One finding about a workflow definition, pointing at a node, an edge or a path."""

    model_config = ConfigDict(frozen=True)

    severity: Severity
    code: str
    message: str
    node_id: str | None = None
    edge_id: str | None = None
    path: str | None = None

    @property
    def is_error(self) -> bool:
        """Whether this finding makes the definition invalid."""
        return self.severity == "error"

    @property
    def place(self) -> str:
        """Where the finding points, in words: a node, an edge, a path or the workflow."""
        if self.node_id is not None:
            return f"node '{self.node_id}'"
        if self.edge_id is not None:
            return f"edge '{self.edge_id}'"
        return self.path or "workflow"

    def describe(self) -> str:
        """One line for a terminal: severity, place, message and code."""
        return f"{self.severity}: {self.place}: {self.message} [{self.code}]"

    def to_data(self) -> dict:
        """JSON-compatible form with camelCase keys, leaving out absent places."""
        data = {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "nodeId": self.node_id,
            "edgeId": self.edge_id,
            "path": self.path,
        }
        return {key: value for key, value in data.items() if value is not None}


def error(code: str, message: str, **place: str | None) -> Problem:
    """An error finding."""
    return Problem(severity="error", code=code, message=message, **place)


def warning(code: str, message: str, **place: str | None) -> Problem:
    """A warning finding."""
    return Problem(severity="warning", code=code, message=message, **place)


def has_errors(problems: list[Problem]) -> bool:
    """Whether any finding is an error."""
    return any(problem.is_error for problem in problems)
