"""Everything the knowledge view shows across time, read from the store in one go.

The view moves through time — a timeline of landing moments, a compare between two of them —
and a step must redraw at once even for thousands of artifacts, so it does not ask the store
again for each moment. ``read_history`` reads every version whose record and text pass their
checks, and the graph rows derived from them, once; the history then works out in memory which
versions were the heads at any moment, by the rule the store's queries use: a version counts
from its ``created_at`` and stops being the head once a version that supersedes it has been
created. A damaged version is left out and named in ``damaged``, as the store's reads do.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import TypeVar

from studio.knowledge.insight import Gap, Suspect, coverage_gaps, suspect_links
from studio.knowledge.knowledge_base import KnowledgeBase
from studio.knowledge.projection import GraphDiff, Projection, ViewOptions, diff, project
from studio.model.knowledge import (
    ARTIFACT,
    RUN,
    SECTION,
    UNIT,
    ArtifactVersion,
    GraphEdge,
    GraphNode,
)
from studio.store.knowledge_integrity import DamagedVersion

Row = TypeVar("Row", GraphNode, GraphEdge)


@dataclass(frozen=True)
class Moment:
    """A time at which versions were created, with what they were."""

    at: datetime
    versions: tuple[ArtifactVersion, ...]

    @property
    def label(self) -> str:
        """The titles created at this moment, for a tooltip."""
        return "\n".join(f"{v.front.title} ({v.front.kind})" for v in self.versions)


@dataclass(frozen=True, eq=False)
class KnowledgeHistory:
    """Every intact version and its rows; heads, graphs and insights at any moment."""

    versions: tuple[ArtifactVersion, ...] = ()
    """Oldest first by creation time, then by ref."""
    nodes: dict[str, tuple[GraphNode, ...]] = field(default_factory=dict)
    """The graph nodes each version derives, by version ref."""
    edges: dict[str, tuple[GraphEdge, ...]] = field(default_factory=dict)
    damaged: tuple[DamagedVersion, ...] = ()

    @property
    def empty(self) -> bool:
        """Whether nothing has landed (or nothing readable)."""
        return not self.versions

    @cached_property
    def moments(self) -> list[Moment]:
        """The distinct creation times of the versions, oldest first."""
        by_time: dict[datetime, list[ArtifactVersion]] = defaultdict(list)
        for version in self.versions:
            by_time[version.front.created_at].append(version)
        return [Moment(at, tuple(found)) for at, found in sorted(by_time.items())]

    @cached_property
    def _successor(self) -> dict[str, ArtifactVersion]:
        return {v.front.supersedes: v for v in self.versions if v.front.supersedes}

    def versions_by(self, as_of: datetime | None) -> list[ArtifactVersion]:
        """The versions created by a moment (all of them for None)."""
        return [v for v in self.versions if as_of is None or v.front.created_at <= as_of]

    def heads(self, as_of: datetime | None = None) -> list[ArtifactVersion]:
        """The current version of every artifact at a moment (now for None)."""
        return [v for v in self.versions_by(as_of) if not self._superseded(v, as_of)]

    def _superseded(self, version: ArtifactVersion, as_of: datetime | None) -> bool:
        successor = self._successor.get(version.ref)
        return successor is not None and (as_of is None or successor.front.created_at <= as_of)

    def graph(self, options: ViewOptions, as_of: datetime | None = None) -> Projection:
        """The view of the heads at a moment, under the view rules the options pick."""
        heads = self.heads(as_of)
        nodes, edges = self._rows(heads)
        return project(heads, nodes, edges, options)

    def everything(self, options: ViewOptions) -> Projection:
        """One graph of every version's rows, each place shown once: every node the view could
        show at some moment, so positions can be given to all of them before any is drawn."""
        nodes, edges = self._rows(self.versions)
        return project(self.versions, nodes, edges, options)

    def diff(
        self, before: datetime | None, after: datetime | None, options: ViewOptions
    ) -> GraphDiff:
        """What changed in the view between two moments."""
        return diff(self.graph(options, before), self.graph(options, after))

    def gaps(self, as_of: datetime | None = None) -> list[Gap]:
        """Coverage gaps among the heads at a moment."""
        nodes, edges = self._rows(self.heads(as_of))
        return coverage_gaps(nodes, edges)

    def suspects(
        self, as_of: datetime | None = None, among: set[tuple[str, str]] | None = None
    ) -> list[Suspect]:
        """Suspect links among the heads at a moment, judged by the versions created by then;
        with ``among``, only the links between two of those (subject, key) places (the same
        links, found without indexing every other node)."""
        heads = self.heads(as_of)
        nodes, edges = self._rows(heads)
        if among is not None:
            nodes = [n for n in nodes if (n.subject, n.key) in among]
            edges = [
                e
                for e in edges
                if (e.subject, e.source) in among and (e.subject, e.target) in among
            ]
        return suspect_links(self.versions_by(as_of), heads, nodes, edges)

    def version(self, ref: str) -> ArtifactVersion | None:
        """One version by ref."""
        return self._by_ref.get(ref)

    @cached_property
    def _by_ref(self) -> dict[str, ArtifactVersion]:
        return {v.ref: v for v in self.versions}

    def lineage_of(self, subject: str, artifact_id: str) -> list[ArtifactVersion]:
        """Every version of one artifact, oldest first."""
        return [v for v in self.versions if (v.subject, v.artifact_id) == (subject, artifact_id)]

    @cached_property
    def subjects(self) -> list[str]:
        """Every subject, sorted."""
        return sorted({v.subject for v in self.versions})

    @cached_property
    def kinds(self) -> list[str]:
        """Every artifact kind, sorted."""
        return sorted({v.front.kind for v in self.versions})

    @cached_property
    def item_types(self) -> list[str]:
        """Every typed item type (not artifacts, runs, sections or units), sorted."""
        fixed = {ARTIFACT, RUN, SECTION, UNIT}
        return sorted({n.type for rows in self.nodes.values() for n in rows} - fixed)

    def _rows(self, versions: Iterable[ArtifactVersion]) -> tuple[list[GraphNode], list[GraphEdge]]:
        nodes: list[GraphNode] = []
        edges: list[GraphEdge] = []
        for version in versions:
            nodes += self.nodes.get(version.ref, ())
            edges += self.edges.get(version.ref, ())
        return nodes, edges


def read_history(knowledge: KnowledgeBase) -> KnowledgeHistory:
    """Read every version, its text's check and its rows: the whole history, once."""
    repository = knowledge.repository
    damaged: list[DamagedVersion] = []
    stored = repository.all_versions_in_landing_order(damaged)
    intact = set(repository.texts(stored, damaged))
    versions = sorted(
        (v for v in stored if v.ref in intact), key=lambda v: (v.front.created_at, v.ref)
    )
    nodes, edges = repository.graph_rows((v.ref for v in versions), damaged)
    return KnowledgeHistory(
        versions=tuple(versions),
        nodes=_by_version(nodes),
        edges=_by_version(edges),
        damaged=tuple(damaged),
    )


def _by_version(rows: Iterable[Row]) -> dict[str, tuple[Row, ...]]:
    grouped: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        grouped[row.version_ref].append(row)
    return {ref: tuple(found) for ref, found in grouped.items()}
