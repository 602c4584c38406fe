"""Workflows: a directed acyclic graph of agent nodes joined by (conditional) edges."""

from datetime import datetime
from typing import Annotated, Any, Literal, get_args

from pydantic import Field, Strict, model_validator

from studio.model.annotations import Group, Note
from studio.model.base import StudioModel
from studio.model.configuration import NodeConfiguration, WorkflowConfiguration
from studio.model.geometry import Position
from studio.model.identifiers import Identifier

WorkflowStatus = Literal["DRAFT", "PUBLISHED"]
ConditionOperator = Literal["equals", "notEquals", "contains", "greaterThan", "lessThan", "exists"]
CONDITION_OPERATORS: tuple[ConditionOperator, ...] = get_args(ConditionOperator)
Timestamp = Annotated[datetime, Strict(False)]
NonEmptyId = Annotated[str, Field(min_length=1)]


class RetryPolicy(StudioModel):
    """How a failed node is retried: exponential backoff with full jitter."""

    max_retries: int = Field(default=3, ge=0)
    backoff_base: float = Field(default=1.0, ge=0)
    backoff_max: float = Field(default=30.0, ge=0)
    retryable_errors: list[str] = Field(default_factory=list)


class Compensation(StudioModel):
    """How to undo a node's side effect: a tool called with templated arguments."""

    tool: NonEmptyId
    args: dict[str, Any] = Field(default_factory=dict)
    side_effecting: bool = True


class EdgeCondition(StudioModel):
    """A test on the source node's output that decides whether the edge carries on."""

    field: NonEmptyId
    operator: ConditionOperator
    value: Any = None


class Node(StudioModel):
    """One agent invocation in a workflow."""

    id: Identifier
    agent_id: NonEmptyId
    type: str = "agent"
    name: str = ""
    position: Position = Field(default_factory=Position)
    retry_policy: RetryPolicy | None = None
    timeout: float | None = Field(default=None, gt=0)
    constraints: dict[str, Any] = Field(default_factory=dict)
    requires_approval: bool = False
    configuration: NodeConfiguration = Field(default_factory=NodeConfiguration)
    compensation: Compensation | None = None
    sample_data: Any = None
    """An output pinned from a run, for previewing templates that read this node's output;
    the engine never reads it."""

    @property
    def label(self) -> str:
        """The name a person sees: the node's name, or its id when it has none."""
        return self.name or self.id


class Edge(StudioModel):
    """A directed connection from one node's output to another node's input."""

    id: NonEmptyId
    source: NonEmptyId
    target: NonEmptyId
    condition: EdgeCondition | None = None

    @model_validator(mode="before")
    @classmethod
    def _default_id(cls, data: Any) -> Any:
        """An edge without an id is named after its ends, as files often omit it."""
        if isinstance(data, dict) and "id" not in data:
            source, target = data.get("source"), data.get("target")
            if isinstance(source, str) and isinstance(target, str):
                return {"id": f"{source}->{target}", **data}
        return data


class Workflow(StudioModel):
    """A workflow or, with ``is_blueprint``, a reusable blueprint."""

    id: Identifier | None = None
    status: WorkflowStatus = "DRAFT"
    version: int = Field(default=1, ge=1)
    app_id: str | None = None
    org_id: str | None = None
    blueprint_id: str | None = None
    """The blueprint this workflow was imported from (a stored id or a seed file's slug)."""
    blueprint_version: int | None = None
    """The version of that blueprint it was copied from."""
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    name: str = "Untitled workflow"
    description: str = ""
    category: str = ""
    is_blueprint: bool = False
    timeout: float | None = Field(default=None, gt=0)
    configuration: WorkflowConfiguration = Field(default_factory=WorkflowConfiguration)
    nodes: list[Node] = Field(default_factory=list)
    edges: list[Edge] = Field(default_factory=list)
    notes: list[Note] = Field(default_factory=list)
    groups: list[Group] = Field(default_factory=list)

    def node(self, node_id: str) -> Node | None:
        """The node with this id, if there is one."""
        return next((node for node in self.nodes if node.id == node_id), None)

    def group_of(self, node_id: str) -> Group | None:
        """The group a node belongs to, if any."""
        return next((group for group in self.groups if node_id in group.node_ids), None)

    @property
    def stored_id(self) -> str:
        """The id the store gave this workflow (one read from the store always has one)."""
        if self.id is None:
            raise ValueError(f"workflow '{self.name}' has not been stored yet")
        return self.id


SERVER_FIELDS: frozenset[str] = frozenset(
    {
        "id",
        "status",
        "version",
        "app_id",
        "org_id",
        "blueprint_id",
        "blueprint_version",
        "created_at",
        "updated_at",
    }
)
"""Fields the store assigns; an exported definition leaves them out."""
