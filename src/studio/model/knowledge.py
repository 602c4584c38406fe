"""Knowledge artifacts and the graph derived from them: the shapes every part agrees on.

An artifact is a Markdown file with YAML front matter. Each landing of it is an immutable
ArtifactVersion; a later version of the same subject and id supersedes the earlier one. From
each version's text a deterministic derivation yields graph nodes (the artifact, its
sections, typed items, units of work) and edges, each carrying the version it came from.

Node keys are local to a subject: an artifact is its logical id ("stories"), a typed item
its own id ("ST-1"), a unit "unit:<slug>", a section "<artifact id>#<anchor>".
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

LINK_TYPES = ("PRODUCES", "CONSUMES", "DERIVED_FROM", "RELATES_TO", "DEPENDS_ON", "CITES")
"""The explicit links an artifact may declare to another artifact (the allowlist)."""

ARTIFACT, SECTION, UNIT, RUN = "artifact", "section", "unit", "run"
"""Node types besides the registered item types (requirement, story, …); a run is the
execution that produced an artifact, keyed "run:<execution>"."""

HAS_SECTION, HAS_ITEM, DERIVED_FROM, CITES = "HAS_SECTION", "HAS_ITEM", "DERIVED_FROM", "CITES"
ORDERED = "ORDERED"
"""From a filed work item to the run it ordered."""
WORK_ITEM_KIND = "work-item"
"""The kind a closed work item files to its subject as."""


@dataclass(frozen=True, slots=True)
class Link:
    """An explicit, typed link from one artifact to another (by logical id, same subject)."""

    type: str
    target: str


@dataclass(frozen=True, slots=True)
class FrontMatter:
    """What an artifact says about itself."""

    id: str
    kind: str
    subject: str
    title: str
    produced_by: dict[str, Any]
    created_at: datetime
    supersedes: str | None = None
    links: tuple[Link, ...] = ()


@dataclass(frozen=True, slots=True)
class ArtifactVersion:
    """One landed, immutable version of an artifact."""

    ref: str
    """Backend-relative path: ``<subject>/<kind>/<date>-<id>.md``."""
    front: FrontMatter
    sha256: str
    landed_at: datetime

    @property
    def subject(self) -> str:
        return self.front.subject

    @property
    def artifact_id(self) -> str:
        return self.front.id


@dataclass(frozen=True, slots=True)
class GraphNode:
    """A node derived from one artifact version."""

    key: str
    type: str
    label: str
    subject: str
    version_ref: str
    data: dict[str, Any] = field(default_factory=dict)
    """Type-specific fields: an item's fields, a section's anchor, level and lines, …"""


@dataclass(frozen=True, slots=True)
class GraphEdge:
    """An edge derived from one artifact version (its provenance)."""

    source: str
    type: str
    target: str
    subject: str
    version_ref: str


@dataclass(frozen=True)
class Derivation:
    """Everything one artifact version contributes to the graph."""

    nodes: tuple[GraphNode, ...]
    edges: tuple[GraphEdge, ...]
