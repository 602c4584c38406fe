"""Which agent kinds are installed: the built-ins plus those of the ``studio.agents`` group.

A third-party package adds a kind by declaring an entry point that loads to an AgentKind
subclass::

    [project.entry-points."studio.agents"]
    my-kind = "my_package.kinds:MyKind"

A broken entry point is recorded in ``problems``; it never stops Studio from starting.

A built-in kind's module is imported when the kind is first asked for, not when the registry
is made: a run of echo nodes never loads the HTTP client, the LLM kind or the system keyring.
"""

import inspect
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module
from importlib.metadata import entry_points

from studio.engine.agent_kinds.base import AgentError, AgentKind

ENTRY_POINT_GROUP = "studio.agents"
BUILT_IN_KINDS: Mapping[str, str] = {
    "echo": "studio.engine.agent_kinds.echo:EchoKind",
    "shell": "studio.engine.agent_kinds.shell:ShellKind",
    "python": "studio.engine.agent_kinds.python_function:PythonFunctionKind",
    "http": "studio.engine.agent_kinds.http:HttpKind",
    "transform": "studio.engine.agent_kinds.transform:TransformKind",
    "llm": "studio.engine.agent_kinds.llm:LlmKind",
    "approval": "studio.engine.agent_kinds.approval:ApprovalKind",
}
"""The kinds that ship with Studio: each kind's name and where its class lives, as
``module:Class``."""
# The same rule as AgentDefinition.kind, so every registered kind can be named in a file.
_KIND_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


@dataclass(frozen=True)
class KindLoadProblem:
    """An entry point that did not give a usable agent kind, and why."""

    source: str
    message: str

    def __str__(self) -> str:
        return f"{self.source}: {self.message}"


@dataclass
class KindRegistry:
    """Agent kind classes by name, each instantiated once, when first asked for. A kind
    registered by where its class lives is imported then too."""

    _classes: dict[str, type[AgentKind]] = field(default_factory=dict)
    _locations: dict[str, str] = field(default_factory=dict)
    _instances: dict[str, AgentKind] = field(default_factory=dict)
    problems: list[KindLoadProblem] = field(default_factory=list)
    _loading: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def register(self, kind: type[AgentKind]) -> type[AgentKind]:
        """Add a kind class under its ``name``; returns it, so this works as a decorator."""
        name = _checked_name(kind)
        known = self._classes.get(name)
        if known is not None and known is not kind:
            raise ValueError(
                f"agent kind '{name}' is already provided by {known.__module__}.{known.__name__}"
            )
        location = self._locations.get(name)
        if location is not None and location != _location_of(kind):
            raise ValueError(
                f"agent kind '{name}' is already provided by {location.replace(':', '.')}"
            )
        self._locations.pop(name, None)
        self._classes[name] = kind
        return kind

    def register_location(self, name: str, location: str) -> None:
        """Add the kind ``name`` whose class is at ``location`` (``module:Class``), to be
        imported when the kind is first asked for. Its class must be named ``name``."""
        if name in self:
            raise ValueError(f"agent kind '{name}' is already registered")
        self._locations[name] = location

    def provide(self, instance: AgentKind) -> None:
        """Register a kind that needs something from its host (it is given made, not made
        here), such as the artifact kind and its knowledge store."""
        name = self.register(type(instance)).name
        self._instances[name] = instance

    def get(self, name: str) -> AgentKind:
        """The one instance of the named kind; an unknown name is an UnknownAgentKind error."""
        instance = self._instances.get(name)
        if instance is None:
            kind = self._class_of(name)
            if kind is None:
                raise AgentError("UnknownAgentKind", f"agent kind '{name}' is not installed")
            instance = self._instances[name] = kind()
        return instance

    def names(self) -> list[str]:
        """The names of every registered kind, sorted."""
        return sorted(self._classes.keys() | self._locations.keys())

    def __contains__(self, name: object) -> bool:
        return name in self._classes or name in self._locations

    def _class_of(self, name: str) -> type[AgentKind] | None:
        """The named kind's class, imported now if it was registered by its location.

        Threads asking at once import it once; the name stays known throughout. A module
        that cannot be imported is an UnknownAgentKind error, as a kind never installed."""
        kind = self._classes.get(name)
        if kind is not None or name not in self._locations:
            return kind
        with self._loading:
            location = self._locations.get(name)
            if location is None:  # another thread loaded it meanwhile
                return self._classes.get(name)
            module_name, _, class_name = location.partition(":")
            try:
                kind = getattr(import_module(module_name), class_name)
            except Exception as failure:
                raise AgentError(
                    "UnknownAgentKind",
                    f"agent kind '{name}' could not be loaded: {type(failure).__name__}: {failure}",
                ) from failure
            found = _checked_name(kind)
            if found != name:
                raise TypeError(f"{location} is the agent kind '{found}', not '{name}'")
            self._classes[name] = kind  # before the location goes: never unknown between
            del self._locations[name]
        return kind

    def load_entry_points(self, group: str = ENTRY_POINT_GROUP) -> None:
        """Register the kinds that installed packages declare; failures go to ``problems``."""
        for entry_point in entry_points(group=group):
            source = f"entry point '{entry_point.name} = {entry_point.value}'"
            try:
                self.register(entry_point.load())
            except Exception as failure:  # third-party code may fail any way
                message = f"{type(failure).__name__}: {failure}"
                self.problems.append(KindLoadProblem(source, message))


def default_kind_registry() -> KindRegistry:
    """A registry of the built-in kinds plus those installed through entry points."""
    registry = KindRegistry()
    for name, location in BUILT_IN_KINDS.items():
        registry.register_location(name, location)
    registry.load_entry_points()
    return registry


def _location_of(kind: type[AgentKind]) -> str:
    return f"{kind.__module__}:{kind.__qualname__}"


def _checked_name(kind: object) -> str:
    if not (isinstance(kind, type) and issubclass(kind, AgentKind)):
        raise TypeError(f"{kind!r} is not an AgentKind subclass")
    if inspect.isabstract(kind):
        raise TypeError(f"{kind.__name__} does not implement run()")
    name = getattr(kind, "name", None)
    if not isinstance(name, str) or not _KIND_NAME.match(name):
        raise ValueError(f"{kind.__name__}.name must be a kind name like 'my-kind', not {name!r}")
    return name
