"""Agent definitions made in the app: the loader's verdict on one before it is written, and
the YAML file it is written to, laid out as the shipped definitions are."""

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from studio.model.agents import AgentDefinition, invalid_fields
from studio.model.identifiers import identifier_problem
from studio.model.workflow_files import dump_text, write_text_file

AGENT_FILE_SUFFIX = ".yaml"


def definition_problems(data: Mapping[str, Any]) -> dict[str, str]:
    """What the loader would refuse in ``data``, by field (``name``, ``parameters``,
    ``settings.url``), in the loader's words; empty when the definition loads. The id must
    also be one a workflow's node can name."""
    problems: dict[str, str] = {}
    try:
        AgentDefinition.model_validate(dict(data))
    except ValidationError as invalid:
        for place, message in invalid_fields(invalid):
            problems.setdefault(place, message)
    agent_id = data.get("id")
    if "id" not in problems and isinstance(agent_id, str):
        problem = identifier_problem(agent_id, "agent id")
        if problem is not None:
            problems["id"] = problem
    return problems


def agent_file_path(folder: Path, agent_id: str) -> Path:
    """Where the definition of ``agent_id`` is written in ``folder``."""
    return folder / f"{agent_id}{AGENT_FILE_SUFFIX}"


def definition_text(definition: AgentDefinition) -> str:
    """The definition as YAML: id, name and kind first, then what differs from the defaults."""
    data = definition.model_dump(mode="json", exclude_defaults=True)
    return dump_text(data, "yaml")


def write_agent_file(definition: AgentDefinition, folder: Path) -> Path:
    """Write the definition to ``folder`` (made if missing), atomically; the file's path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = agent_file_path(folder, definition.id)
    write_text_file(path, definition_text(definition))
    return path
