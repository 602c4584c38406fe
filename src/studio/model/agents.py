"""Agent definitions (YAML files) and the registry that collects them from folders."""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, field_validator

from studio.model.agent_parameters import schema_problem
from studio.model.base import StudioModel
from studio.model.structure import format_path
from studio.model.workflow_files import WorkflowFileError, read_definition

AGENT_FILE_PATTERNS = ("*.yaml", "*.yml", "*.json")


class AgentDefinition(StudioModel):
    """What an agent is: its kind, its JSON-Schema parameters and kind-specific settings."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    kind: str = Field(pattern=r"^[a-z][a-z0-9_-]*$")
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})
    models: list[str] = Field(default_factory=list)
    settings: dict[str, Any] = Field(default_factory=dict)

    @field_validator("parameters")
    @classmethod
    def _parameters_are_an_object_schema(cls, schema: dict[str, Any]) -> dict[str, Any]:
        if schema.get("type", "object") != "object":
            raise ValueError("the parameters schema must have type 'object'")
        if not isinstance(schema.get("properties", {}), dict):
            raise ValueError("the parameters schema's 'properties' must be a mapping")
        problem = schema_problem(schema)
        if problem is not None:
            raise ValueError(f"the parameters schema is not a valid JSON Schema: {problem}")
        return schema


@dataclass(frozen=True)
class AgentLoadProblem:
    """A definition file that could not be loaded, and why."""

    path: Path
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass
class AgentRegistry:
    """The agents Studio knows, by id; a later folder's definition replaces an earlier one's."""

    _definitions: dict[str, AgentDefinition] = field(default_factory=dict)
    _sources: dict[str, Path] = field(default_factory=dict)
    problems: list[AgentLoadProblem] = field(default_factory=list)
    home: Path | None = None
    """The folder where definitions made in the app are written (None: nowhere)."""

    @classmethod
    def from_folders(cls, folders: Iterable[Path], home: Path | None = None) -> "AgentRegistry":
        """Load every definition file in the folders that exist, in order; ``home`` is where
        new definitions go."""
        registry = cls(home=home)
        for folder in folders:
            registry.load_folder(Path(folder))
        return registry

    def load_folder(self, folder: Path) -> None:
        """Add the definitions of one folder; unreadable files go to ``problems``."""
        if not folder.is_dir():
            return
        seen_here: dict[str, Path] = {}
        files = sorted(path for pattern in AGENT_FILE_PATTERNS for path in folder.glob(pattern))
        for path in files:
            definition = self._load_file(path)
            if definition is None:
                continue
            if definition.id in seen_here:
                message = (
                    f"agent id '{definition.id}' is also defined in {seen_here[definition.id].name}"
                )
                self.problems.append(AgentLoadProblem(path, message))
                continue
            seen_here[definition.id] = path
            self.add(definition, path)

    def load_file(self, path: Path) -> AgentDefinition | None:
        """Load one definition file and register it (a file just written, say); a file that
        cannot be loaded goes to ``problems`` and None is returned."""
        definition = self._load_file(path)
        if definition is not None:
            self.add(definition, path)
        return definition

    def add(self, definition: AgentDefinition, source: Path | None = None) -> None:
        """Register a definition, replacing any with the same id."""
        self._definitions[definition.id] = definition
        if source is not None:
            self._sources[definition.id] = source

    def get(self, agent_id: str) -> AgentDefinition | None:
        """The definition with this id, if known."""
        return self._definitions.get(agent_id)

    def source_of(self, agent_id: str) -> Path | None:
        """The file a definition was loaded from."""
        return self._sources.get(agent_id)

    def __contains__(self, agent_id: object) -> bool:
        return agent_id in self._definitions

    def __iter__(self) -> Iterator[AgentDefinition]:
        return iter(sorted(self._definitions.values(), key=lambda definition: definition.id))

    def __len__(self) -> int:
        return len(self._definitions)

    def _load_file(self, path: Path) -> AgentDefinition | None:
        try:
            return AgentDefinition.model_validate(read_definition(path))
        except WorkflowFileError as failure:
            self.problems.append(AgentLoadProblem(path, failure.located_message()))
        except ValidationError as invalid:
            details = "; ".join(f"{place}: {message}" for place, message in invalid_fields(invalid))
            self.problems.append(AgentLoadProblem(path, f"invalid agent definition: {details}"))
        return None


def invalid_fields(invalid: ValidationError) -> list[tuple[str, str]]:
    """Each field a definition gets wrong (``settings.url``) with the validator's words."""
    return [(format_path(tuple(error["loc"])), error["msg"]) for error in invalid.errors()]
