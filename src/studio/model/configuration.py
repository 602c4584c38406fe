"""Workflow-level and node-level configuration, including compensation settings."""

from typing import Any, Literal

from pydantic import Field

from studio.model.base import StudioModel
from studio.model.governance import GovernanceSettings

CompensationTriggerMode = Literal["on_terminal_failure"]
CompensationFailureMode = Literal["stop"]


class CompensationTrigger(StudioModel):
    """When an unwind starts: on a terminal failure, once enough nodes completed."""

    mode: CompensationTriggerMode = "on_terminal_failure"
    min_completed_nodes: int = Field(default=1, ge=0)


class CompensationSettings(StudioModel):
    """The workflow-level opt-in to compensation and how an unwind behaves."""

    enabled: bool = False
    trigger: CompensationTrigger = Field(default_factory=CompensationTrigger)
    on_failure: CompensationFailureMode = "stop"


class WorkflowConfiguration(StudioModel):
    """Settings passed to every node of a workflow as its execution context."""

    integrations: dict[str, dict[str, Any]] = Field(default_factory=dict)
    credentials: dict[str, str] = Field(default_factory=dict)
    agent_properties: dict[str, dict[str, Any]] = Field(default_factory=dict)
    parameters: dict[str, Any] = Field(default_factory=dict)
    compensation: CompensationSettings | None = None
    governance: GovernanceSettings | None = None
    system_prompt_addition: str | None = None
    model_override: str | None = None


class NodeConfiguration(StudioModel):
    """Per-node settings; they merge over the workflow configuration key by key."""

    system_prompt_addition: str | None = None
    model_override: str | None = None
    parameters: dict[str, Any] = Field(default_factory=dict)
