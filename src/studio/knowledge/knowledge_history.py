"""Everything the knowledge view shows across time, read from the store in one go.

The view moves through time — a timeline of landing moments, a compare between two of them —
and a step must redraw at once even for thousands of artifacts, so it does not ask the store
again for each moment. ``read_history`` reads every version whose record and text pass their
checks, and the graph rows derived from them, once; the history then works out in memory which
versions were the heads at any moment, by the rule the store's queries use: a version counts
from its ``created_at`` and stops being the head once a version that supersedes it has been
created. A damaged version is left out and named in ``damaged``, as the store's reads do.
"""

import threading
from bisect import bisect_right
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Generic, TypeVar

import networkx as nx

from studio.knowledge.collection_pause import collection_paused, keep_out_of_collections
from studio.knowledge.insight import Gap, Suspect, coverage_gaps, suspect_links
from studio.knowledge.knowledge_base import KnowledgeBase
from studio.knowledge.projection import (
    GraphDiff,
    Projection,
    ProjectionGraph,
    ViewOptions,
    current_by_kind,
    diff,
    project,
)
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

Kept = TypeVar("Kept")


@dataclass(frozen=True)
class Moment:
    """A time at which versions were created, with what they were."""

    at: datetime
    versions: tuple[ArtifactVersion, ...]

    @cached_property
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
    _projected: "_Kept[Projection]" = field(default_factory=lambda: _Kept(), init=False, repr=False)
    """Each subject's projection, by the options and its heads."""
    _suspected: "_Kept[tuple[Suspect, ...]]" = field(
        default_factory=lambda: _Kept(), init=False, repr=False
    )
    """Each subject's suspect links, by its versions created by then."""
    _gapped: "_Kept[tuple[Gap, ...]]" = field(
        default_factory=lambda: _Kept(), init=False, repr=False
    )
    """Each subject's coverage gaps, by its versions created by then."""

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
        """The view of the heads at a moment, under the view rules the options pick.

        A projection is the union of one per subject (rows, kinds and edges never cross a
        subject), and a moment changes the heads of few subjects: each subject's projection
        is kept for the versions created by then (which decide its heads), so the next moment
        projects only the subjects that changed and joins the rest as they were."""
        parts = [
            self._subject_graph(options, subject, created)
            for subject, created in self._each_subject(as_of, options.subject)
        ]
        return parts[0] if len(parts) == 1 else _union(parts)

    def _subject_graph(self, options: ViewOptions, subject: str, created: int) -> Projection:
        """The projection of one subject's heads among its first ``created`` versions
        (shared: never change it)."""

        def make() -> Projection:
            heads = self._subject_heads(subject, created)
            nodes, edges = self._rows(heads)
            return project(heads, nodes, edges, options)

        key = (options, subject, created)
        return self._projected.get_or_make(key, make, self._kept_size)

    def diff(
        self, before: datetime | None, after: datetime | None, options: ViewOptions
    ) -> GraphDiff:
        """What changed in the view between two moments."""
        return diff(self.graph(options, before), self.graph(options, after))

    def gaps(self, as_of: datetime | None = None, subject: str | None = None) -> list[Gap]:
        """Coverage gaps among the heads at a moment (of one subject, or of all)."""
        found: list[Gap] = []
        for one, created in self._each_subject(as_of, subject):  # each subject's are kept
            found += self._subject_gaps(one, created)
        return found

    def _subject_gaps(self, subject: str, created: int) -> tuple[Gap, ...]:
        """The coverage gaps of one subject by the time its first ``created`` versions were."""

        def make() -> tuple[Gap, ...]:
            return tuple(coverage_gaps(*self._rows(self._subject_heads(subject, created))))

        return self._gapped.get_or_make((subject, created), make, self._kept_size)

    def suspects(self, as_of: datetime | None = None, subject: str | None = None) -> list[Suspect]:
        """Suspect links among the heads at a moment (of one subject, or of all), judged by
        the versions created by then."""
        found: list[Suspect] = []
        for one, created in self._each_subject(as_of, subject):  # each subject's are kept
            found += self._subject_suspects(one, created)
        return found

    def _subject_suspects(self, subject: str, created: int) -> tuple[Suspect, ...]:
        """The suspect links of one subject by the time its first ``created`` versions were."""

        def make() -> tuple[Suspect, ...]:
            heads = self._subject_heads(subject, created)
            nodes, edges = self._rows(heads)
            versions = self._by_subject[subject][0][:created]
            return tuple(suspect_links(versions, heads, nodes, edges))

        return self._suspected.get_or_make((subject, created), make, self._kept_size)

    @cached_property
    def _by_subject(self) -> dict[str, tuple[tuple[ArtifactVersion, ...], list[datetime]]]:
        """Each subject's versions in history order, with their creation times to bisect."""
        grouped: dict[str, list[ArtifactVersion]] = defaultdict(list)
        for version in self.versions:
            grouped[version.subject].append(version)
        return {
            subject: (tuple(versions), [v.front.created_at for v in versions])
            for subject, versions in grouped.items()
        }

    def _each_subject(
        self, as_of: datetime | None, subject: str | None
    ) -> Iterator[tuple[str, int]]:
        """Each subject (or the one named) that has versions by the moment, with how many."""
        for one in self.subjects if subject is None else [subject]:
            if created := self._created_count(one, as_of):
                yield one, created

    def _created_count(self, subject: str, as_of: datetime | None) -> int:
        """How many of the subject's versions were created by the moment (all for None)."""
        versions, times = self._by_subject.get(subject, ((), []))
        return len(versions) if as_of is None else bisect_right(times, as_of)

    def _subject_heads(self, subject: str, created: int) -> list[ArtifactVersion]:
        """The heads among the subject's first ``created`` versions: those whose successor
        is not among them."""
        versions = self._by_subject[subject][0][:created]
        inside = {v.ref for v in versions}
        return [v for v in versions if self._successor_ref.get(v.ref) not in inside]

    @cached_property
    def _successor_ref(self) -> dict[str, str]:
        return {ref: successor.ref for ref, successor in self._successor.items()}

    @cached_property
    def _kept_size(self) -> int:
        """How many single-subject projections (and suspect and gap lists) are kept: those of every
        subject for two layer choices, or one and a few moments, no more (each holds its
        nodes, and every object held makes each full garbage collection longer)."""
        return 2 * len(self.subjects) + 8

    def work_out_lookups(self) -> None:
        """Work out what a view asks for first (moments, subjects, kinds, item types, heads)
        now, on the thread that read the history, rather than when the window first shows it."""
        _ = (self.moments, self.subjects, self.kinds, self.item_types, self._by_ref)
        _ = (self._by_subject, self._successor_ref)
        _ = [moment.label for moment in self.moments]
        _ = self.current_kinds
        self.heads()

    @cached_property
    def current_kinds(self) -> dict[tuple[str, str], str]:
        """The artifact a "[[kind]]" citation means now, per (subject, kind)."""
        return current_by_kind(self.heads())

    def dismantle(self) -> None:
        """Let go of the rows a version at a time, then of the rest: freeing a history of
        5,000 artifacts in one go holds the interpreter (and any window waiting for it) for
        40 ms, while this lets another thread in between pieces. Only for a history no one
        uses any more: it is empty after."""
        held = vars(self)
        while held:
            _name, value = held.popitem()
            if isinstance(value, tuple):
                value = list(value)  # the tuple goes; the list lets its items go one by one
            _take_apart(value)
            del value

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
    with collection_paused():
        history = _read_history(knowledge)
        keep_out_of_collections()  # before collection resumes, or its first pass walks it all
    return history


def _read_history(knowledge: KnowledgeBase) -> KnowledgeHistory:
    repository = knowledge.repository
    damaged: list[DamagedVersion] = []
    stored = repository.all_versions_in_landing_order(damaged)
    intact = set(repository.texts(stored, damaged))
    versions = sorted(
        (v for v in stored if v.ref in intact), key=lambda v: (v.front.created_at, v.ref)
    )
    rows = repository.graph_rows_by_version((v.ref for v in versions), damaged)
    history = KnowledgeHistory(
        versions=tuple(versions),
        nodes={ref: nodes for ref, (nodes, _edges) in rows.items()},
        edges={ref: edges for ref, (_nodes, edges) in rows.items()},
        damaged=tuple(damaged),
    )
    history.work_out_lookups()
    return history


class _Kept(Generic[Kept]):
    """What was worked out for single subjects, by what it was made from; the least recently
    used is forgotten first. Shared by threads (the view's worker, the store's)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: OrderedDict[Hashable, Kept] = OrderedDict()

    def get_or_make(self, key: Hashable, make: Callable[[], Kept], size: int) -> Kept:
        """What was kept under ``key``, or what ``make`` gives (then kept, with at most
        ``size`` others)."""
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        made = make()
        with self._lock:
            self._kept[key] = made
            while len(self._kept) > size:
                self._kept.popitem(last=False)
        return made

    def forget_all(self) -> None:
        """Let go of everything kept, the least recently used first, one at a time."""
        with self._lock:
            while self._kept:
                self._kept.popitem(last=False)


def _take_apart(value: object) -> None:
    """Let go of a container's contents one at a time, so that freeing what they alone held
    is spread over many steps another thread can come between."""
    if isinstance(value, _Kept):
        value.forget_all()
    elif isinstance(value, dict):
        while value:
            value.popitem()
    elif isinstance(value, list):
        while value:
            value.pop()


def _union(parts: list[Projection]) -> Projection:
    """One projection of several subjects' (their node ids never clash), in the order one
    projection of them all would have: it shares each part's node and adjacency dicts (the
    dict-of-dicts networkx documents as a graph's data) rather than copying them, so joining
    5,000 artifacts costs a few dict updates and makes no new object per node. Like the
    parts, it is shared: it is frozen, and a view that changes it works on a copy."""
    graph: nx.MultiDiGraph[str] = ProjectionGraph()
    joined = vars(graph)
    for part in parts:
        theirs = vars(part.graph)
        for table in ("_node", "_succ", "_pred"):  # a directed graph's _adj is its _succ
            joined[table].update(theirs[table])
    return Projection(nx.freeze(graph))
