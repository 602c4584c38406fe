"""Studio's data: workflows, configuration, agents, validation and file formats. No Qt, no SQL."""

from studio.model.agents import AgentDefinition, AgentRegistry
from studio.model.blueprints import Blueprint, load_blueprint_folder
from studio.model.configuration import (
    CompensationSettings,
    CompensationTrigger,
    NodeConfiguration,
    WorkflowConfiguration,
)
from studio.model.problems import Problem, has_errors
from studio.model.structure import DefinitionError, parse_workflow
from studio.model.validation import validate_definition
from studio.model.workflow import (
    CONDITION_OPERATORS,
    SERVER_FIELDS,
    Compensation,
    Edge,
    EdgeCondition,
    Node,
    Position,
    RetryPolicy,
    Workflow,
)
from studio.model.workflow_files import (
    WorkflowFileError,
    export_data,
    export_text,
    import_text,
    load_workflow,
    read_definition,
    write_workflow,
)

__all__ = [
    "CONDITION_OPERATORS",
    "SERVER_FIELDS",
    "AgentDefinition",
    "AgentRegistry",
    "Blueprint",
    "Compensation",
    "CompensationSettings",
    "CompensationTrigger",
    "DefinitionError",
    "Edge",
    "EdgeCondition",
    "Node",
    "NodeConfiguration",
    "Position",
    "Problem",
    "RetryPolicy",
    "Workflow",
    "WorkflowConfiguration",
    "WorkflowFileError",
    "export_data",
    "export_text",
    "has_errors",
    "import_text",
    "load_blueprint_folder",
    "load_workflow",
    "parse_workflow",
    "read_definition",
    "validate_definition",
    "write_workflow",
]
