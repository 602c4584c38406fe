"""The registry of typed items an artifact may carry in fenced ```yaml <type>``` blocks.

A type declares its fields, which of them are required, which field is its id and which its
label, and which fields are relationships that become graph edges. Lint and derivation read
only the registry, so registering a type is all it takes to validate and extract it.
"""

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from studio.model.knowledge import UNIT

RESERVED_FIELDS = ("section", "line")
"""Names derivation adds to an item's data (the section it sits in, its fence line)."""


@dataclass(frozen=True)
class Relation:
    """A relationship field: the edge type it becomes and which way that edge points."""

    edge: str
    reverse: bool = False
    """Whether the edge runs from the target to the item (``ST-2 IMPLEMENTS unit:x``)."""
    target_prefix: str = ""
    """Prefix that turns a value into a node key (``"unit:"`` when the target is a unit)."""

    def edge_for(self, item_key: str, value: str) -> tuple[str, str, str]:
        """The (source, type, target) edge this field's ``value`` gives the item."""
        target = f"{self.target_prefix}{value}"
        if self.reverse:
            return target, self.edge, item_key
        return item_key, self.edge, target


@dataclass(frozen=True)
class ItemType:
    """One registered item type: its fields, what is required, its id and its relationships."""

    name: str
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()
    relations: Mapping[str, Relation] = field(default_factory=dict, hash=False)
    id_field: str = "id"
    label_field: str = "title"
    key_prefix: str = ""
    """Prefix of the node key (``"unit:"`` for units, keyed by slug)."""

    def __post_init__(self) -> None:
        clashes = [name for name in self.fields if name in RESERVED_FIELDS]
        if clashes:
            raise ValueError(f"item type '{self.name}' uses reserved field names {clashes}")
        for name in (self.id_field, self.label_field):
            if name not in self.required:
                raise ValueError(f"item type '{self.name}' must require its field '{name}'")
        object.__setattr__(self, "relations", MappingProxyType(dict(self.relations)))

    @property
    def fields(self) -> tuple[str, ...]:
        """Every field an item of this type may have, required ones first."""
        extra = [name for name in (*self.optional, *self.relations) if name not in self.required]
        return (*self.required, *dict.fromkeys(extra))

    def key(self, item: Mapping[str, Any]) -> str:
        """The graph node key of an item of this type."""
        return f"{self.key_prefix}{item[self.id_field]}"

    def edges(self, item: Mapping[str, Any]) -> Iterator[tuple[str, str, str]]:
        """The (source, type, target) relationship edges an item declares, in field order."""
        key = self.key(item)
        for name, relation in self.relations.items():
            for value in relation_values(item.get(name)):
                yield relation.edge_for(key, value)


def relation_values(value: object) -> tuple[str, ...]:
    """A relationship field's targets: a single string or a list of strings."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list | tuple):
        return tuple(value)  # lint has checked it is a list of strings
    raise TypeError(f"a relationship is a string or a list of strings, not {value!r}")


class ItemTypeRegistry:
    """The item types an artifact may use, by name."""

    def __init__(self, types: Iterable[ItemType]) -> None:
        self._types = {item_type.name: item_type for item_type in types}

    def get(self, name: str) -> ItemType | None:
        """The registered type called ``name``, or None."""
        return self._types.get(name)

    def names(self) -> tuple[str, ...]:
        """The registered type names, in registration order."""
        return tuple(self._types)

    def with_type(self, item_type: ItemType) -> "ItemTypeRegistry":
        """A registry with ``item_type`` added (or replacing the type of the same name)."""
        return ItemTypeRegistry([*self._types.values(), item_type])

    def __contains__(self, name: object) -> bool:
        return name in self._types

    def __iter__(self) -> Iterator[ItemType]:
        return iter(self._types.values())


_COVERS = Relation("COVERS")
_DEPENDS_ON = Relation("DEPENDS_ON")

DEFAULT_REGISTRY = ItemTypeRegistry(
    [
        ItemType(
            "requirement",
            required=("id", "title"),
            optional=("text", "priority", "status", "rationale", "acceptance"),
            relations={"depends_on": _DEPENDS_ON},
        ),
        ItemType(
            "story",
            required=("id", "title"),
            optional=("text", "priority", "acceptance"),
            relations={
                "persona": Relation("FOR_PERSONA"),
                "covers": _COVERS,
                "depends_on": _DEPENDS_ON,
            },
        ),
        ItemType(
            "persona",
            required=("id", "name"),
            optional=("title", "goal", "description", "needs"),
            label_field="name",
        ),
        ItemType(
            "component",
            required=("id", "name"),
            optional=("title", "description", "responsibility"),
            relations={"depends_on": _DEPENDS_ON},
            label_field="name",
        ),
        ItemType(
            "decision",
            required=("id", "title"),
            optional=("status", "context", "rationale", "consequences"),
            relations={"covers": _COVERS, "depends_on": _DEPENDS_ON},
        ),
        ItemType(
            "contract",
            required=("id", "title"),
            optional=("text", "version", "format", "description"),
            relations={"covers": _COVERS, "depends_on": _DEPENDS_ON},
        ),
        ItemType(
            "story-map-entry",
            required=("id", "title"),
            optional=("activity", "step", "release", "rank"),
            relations={"covers": _COVERS},
        ),
        ItemType(
            UNIT,
            required=("slug", "title"),
            optional=("description",),
            relations={
                "implements": Relation("IMPLEMENTS", reverse=True),
                "depends_on": Relation("DEPENDS_ON", target_prefix="unit:"),
                "exposes": Relation("EXPOSES"),
                "consumes_contract": Relation("CONSUMES_CONTRACT"),
            },
            id_field="slug",
            key_prefix="unit:",
        ),
    ]
)
"""The item types of the seed's derived item layer."""

DEFAULT = DEFAULT_REGISTRY
"""Short name for the default registry, used as the default argument of lint and derive."""
