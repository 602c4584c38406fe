"""The agent library: numbered, immutable versions of agent definitions in namespaces.

Three namespaces hold definitions:

- ``SYSTEM``: the definitions that ship with Studio (resources/agents), read-only. A Studio
  whose built-ins changed records the changed ones as new SYSTEM versions.
- ``default``: the user's own definitions, made in the agent editor or forked from SYSTEM.
  A ``default`` definition shadows the SYSTEM one with the same id.
- ``folder``: definitions read from folders named on the command line (``--agents``) or
  handed to a runner in code. They are not part of the library's catalog; a run that uses
  one records it here, as a version of its own, so that resuming the run finds it again.

What a run pins is {agent id: (namespace, version)}. Large bodies (any string setting longer
than ``BODY_THRESHOLD`` bytes in UTF-8: a system prompt, a script) are stored once, by SHA-256.
"""

import difflib
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from studio.model.agent_files import definition_text
from studio.model.agents import AgentDefinition, AgentRegistry
from studio.model.workflow import Workflow

SYSTEM = "SYSTEM"
DEFAULT = "default"
FOLDER = "folder"
NAMESPACES = (SYSTEM, DEFAULT, FOLDER)
BODY_THRESHOLD = 1024
"""A string setting longer than this many UTF-8 bytes is a body, stored once by SHA-256."""


class AgentPin(NamedTuple):
    """The exact definition a run uses for one agent id."""

    namespace: str
    version: int


AgentPins = dict[str, AgentPin]
"""What a run pins: agent id → (namespace, version)."""


@dataclass(frozen=True)
class AgentVersion:
    """One immutable, numbered version of an agent definition in a namespace."""

    namespace: str
    agent_id: str
    version: int
    definition: AgentDefinition
    created_at: datetime | None = None

    @property
    def pin(self) -> AgentPin:
        """How a run names this version."""
        return AgentPin(self.namespace, self.version)

    def to_data(self) -> dict[str, Any]:
        """The version as JSON data (for ``--json``)."""
        return {
            "namespace": self.namespace,
            "agentId": self.agent_id,
            "version": self.version,
            "createdAt": self.created_at.isoformat() if self.created_at else None,
            "definition": self.definition.model_dump(mode="json"),
        }


def pins_to_data(pins: Mapping[str, AgentPin]) -> dict[str, dict[str, Any]]:
    """Pins as JSON data, as an execution stores them."""
    return {
        agent_id: {"namespace": pin.namespace, "version": pin.version}
        for agent_id, pin in sorted(pins.items())
    }


def pins_from_data(data: Mapping[str, Any]) -> AgentPins:
    """Pins read back from their JSON data."""
    return {
        agent_id: AgentPin(str(value["namespace"]), int(value["version"]))
        for agent_id, value in data.items()
    }


def used_agent_ids(workflow: Workflow) -> list[str]:
    """The ids of the agents a workflow's nodes and compensations call, sorted."""
    ids = {node.agent_id for node in workflow.nodes}
    ids |= {node.compensation.tool for node in workflow.nodes if node.compensation is not None}
    return sorted(ids)


# Bodies -----------------------------------------------------------------------------------


def body_digest(text: str) -> str:
    """The SHA-256 (hex) a body is stored under."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def definition_digest(definition: AgentDefinition) -> str:
    """The SHA-256 of a whole definition in canonical JSON: equal definitions, equal digests."""
    data = definition.model_dump(mode="json")
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def is_body(value: object) -> bool:
    """Whether a setting's value is large enough to be stored as a body."""
    return isinstance(value, str) and len(value.encode("utf-8")) > BODY_THRESHOLD


@dataclass(frozen=True)
class SplitDefinition:
    """A definition as stored: its data without the bodies, the body of each setting key
    that has one, and the SHA-256 each of those is stored under."""

    data: dict[str, Any]
    bodies: dict[str, str] = field(default_factory=dict)

    @property
    def body_refs(self) -> dict[str, str]:
        """Setting key → SHA-256 of its body."""
        return {key: body_digest(text) for key, text in sorted(self.bodies.items())}


def split_bodies(definition: AgentDefinition) -> SplitDefinition:
    """Take the large string settings out of a definition, to be stored by SHA-256."""
    data = definition.model_dump(mode="json")
    settings = data.get("settings", {})
    bodies = {key: value for key, value in settings.items() if is_body(value)}
    data["settings"] = {key: value for key, value in settings.items() if key not in bodies}
    return SplitDefinition(data, bodies)


def joined_definition(data: Mapping[str, Any], bodies: Mapping[str, str]) -> AgentDefinition:
    """The definition again, its bodies (setting key → text) put back in their settings."""
    settings = {**data.get("settings", {}), **bodies}
    return AgentDefinition.model_validate({**data, "settings": settings})


# Shadowing --------------------------------------------------------------------------------


class AgentLibrary:
    """The latest version of each definition per namespace, and which one is current."""

    def __init__(self, latest: Iterable[AgentVersion]) -> None:
        self._latest = {(entry.namespace, entry.agent_id): entry for entry in latest}

    def current(self, agent_id: str) -> AgentVersion | None:
        """The definition in use: the user's (``default``) over the built-in (SYSTEM)."""
        return self._latest.get((DEFAULT, agent_id)) or self._latest.get((SYSTEM, agent_id))

    def shadowed(self, agent_id: str) -> AgentVersion | None:
        """The SYSTEM definition a ``default`` one hides, if it does."""
        if (DEFAULT, agent_id) not in self._latest:
            return None
        return self._latest.get((SYSTEM, agent_id))

    def latest(self, namespace: str, agent_id: str) -> AgentVersion | None:
        """The newest version of one definition in one namespace."""
        return self._latest.get((namespace, agent_id))

    def entries(self) -> list[AgentVersion]:
        """The current definition of every id in the catalog (SYSTEM and default), by id."""
        ids = {agent_id for namespace, agent_id in self._latest if namespace != FOLDER}
        found = (self.current(agent_id) for agent_id in sorted(ids))
        return [entry for entry in found if entry is not None]


def version_diff(old: AgentVersion, new: AgentVersion) -> list[str]:
    """A unified diff of two versions' definitions as YAML (empty when they are equal)."""
    return list(
        difflib.unified_diff(
            definition_text(old.definition).splitlines(),
            definition_text(new.definition).splitlines(),
            fromfile=f"{old.agent_id} {old.namespace} v{old.version}",
            tofile=f"{new.agent_id} {new.namespace} v{new.version}",
            lineterm="",
        )
    )


# The registry the rest of Studio reads ----------------------------------------------------

Keeper = Callable[[AgentDefinition], AgentVersion]
"""Saves a definition made in the app into the library; returns the version it is."""


@dataclass
class LibraryAgents(AgentRegistry):
    """The agents a workspace knows: the library's current definitions, then those of the
    ``--agents`` folders over them. A definition file made in the app and loaded with
    ``load_file`` is saved into the library (``keeper``) as a new ``default`` version."""

    pins: dict[str, AgentPin] = field(default_factory=dict)
    keeper: Keeper | None = None
    """Called with a definition made in the app; returns its stored AgentVersion."""

    @classmethod
    def of_library(
        cls,
        library: AgentLibrary,
        folders: Iterable[Path] = (),
        home: Path | None = None,
        keeper: Keeper | None = None,
    ) -> "LibraryAgents":
        """The library's current definitions, overridden by the folders' in order."""
        registry = cls(home=home, keeper=keeper)
        for entry in library.entries():
            registry.add_version(entry)
        for folder in folders:
            registry.load_folder(Path(folder))
        return registry

    def add_version(self, entry: AgentVersion) -> None:
        """Register a library version as the current definition of its id."""
        self.add(entry.definition)
        self.pins[entry.agent_id] = entry.pin

    def add(self, definition: AgentDefinition, source: Path | None = None) -> None:
        """Register a definition that is not (yet) a library version: it has no pin."""
        super().add(definition, source)
        self.pins.pop(definition.id, None)

    def load_file(self, path: Path) -> AgentDefinition | None:
        """Load a definition file made in the app and keep it in the library as a new
        version (none when it equals the latest); None when it cannot be loaded."""
        definition = self._load_file(path)
        if definition is None:
            return None
        if self.keeper is None:
            self.add(definition, path)
            return definition
        entry = self.keeper(definition)
        self.add_version(entry)
        self._sources[entry.agent_id] = path
        return entry.definition

    def pin_of(self, agent_id: str) -> AgentPin | None:
        """The library version the current definition of ``agent_id`` is, if it is one."""
        return self.pins.get(agent_id)


def pin_hint(agents: AgentRegistry, agent_id: str) -> AgentPin | None:
    """The library version a registry's definition of ``agent_id`` is; None for one read
    from a folder or added in code (a run records it in the ``folder`` namespace)."""
    return agents.pin_of(agent_id) if isinstance(agents, LibraryAgents) else None
