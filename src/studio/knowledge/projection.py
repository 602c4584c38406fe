"""The knowledge graph as a view shows it: chosen layers of the head versions, as a networkx graph.

A projection takes the versions chosen for one moment (the current heads, or the heads as of a
date) and the rows derived from them, and keeps what the view asks for. Artifacts and their
provenance (run nodes) are always shown; typed items, units and sections only when asked. Rows
of any other version are left out, so superseded and stale rows never appear. An edge with an
end outside the view is dropped, and the node inside the view counts the neighbour it hides, so
a person can be told "3 more neighbours hidden".

A node's id is "<subject>/<key>" so that several subjects can share one graph; a view of one
subject uses the plain key. Each node carries its type, label, subject, the ref of the version
it came from, its fields (``data``) and the ids of its hidden neighbours (``hidden``).

Lineage follows the edges by what they mean rather than by how they are drawn. Upstream of a
node are the things it was built from:

- forward along DERIVED_FROM, DEPENDS_ON, CITES, COVERS, CONSUMES, CONSUMES_CONTRACT,
  FOR_PERSONA and EXPOSES (a unit is built to expose a contract the design defined);
- backward along PRODUCES (a run produced the artifact), IMPLEMENTS (a story is implemented by
  the unit it points to, so the story is upstream of the unit), HAS_ITEM and HAS_SECTION (an item
  or a section comes from its artifact's text).

Downstream is the reverse. RELATES_TO says nothing about direction and is not followed.
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import networkx as nx

from studio.model.knowledge import (
    ARTIFACT,
    CITES,
    DERIVED_FROM,
    HAS_ITEM,
    HAS_SECTION,
    RUN,
    SECTION,
    UNIT,
    ArtifactVersion,
    GraphEdge,
    GraphNode,
)

KIND_PREFIX = "kind:"
"""A CITES target "kind:<kind>" means the current artifact of that kind in the same subject."""

UPSTREAM_FORWARD = frozenset(
    {
        DERIVED_FROM,
        "DEPENDS_ON",
        CITES,
        "COVERS",
        "CONSUMES",
        "CONSUMES_CONTRACT",
        "FOR_PERSONA",
        "EXPOSES",
    }
)
"""Edges whose target is upstream of their source."""
UPSTREAM_BACKWARD = frozenset({"PRODUCES", "IMPLEMENTS", HAS_ITEM, HAS_SECTION})
"""Edges whose source is upstream of their target."""

Direction = Literal["up", "down"]


class UnknownNodeError(KeyError):
    """A node id asked for is not in the projection."""


@dataclass(frozen=True)
class ViewOptions:
    """Which layers a projection shows, and whether it is limited to one subject."""

    items: bool = False
    units: bool = False
    sections: bool = False
    subject: str | None = None
    """Show this subject only, with plain keys as node ids; None: every subject, qualified ids."""

    def shows(self, node_type: str) -> bool:
        """Whether a node of this type is drawn; any unnamed type is a typed item."""
        if node_type in (ARTIFACT, RUN):
            return True
        if node_type == SECTION:
            return self.sections
        if node_type == UNIT:
            return self.units
        return self.items


class ProjectionGraph(nx.MultiDiGraph):
    """A networkx multigraph that frees itself without the cyclic garbage collector.

    networkx keeps a graph's edge and degree views on the graph, and each view refers back to
    it: a cycle, so a dropped graph waits for a collection, and one caught by ``gc.freeze``
    (which keeps a freshly read history out of later collections) is never freed at all.
    Here the views are made on each use, and reference counting frees a graph at once."""

    edges = out_edges = property(lambda self: nx.reportviews.OutMultiEdgeView(self))
    in_edges = property(lambda self: nx.reportviews.InMultiEdgeView(self))
    degree = property(lambda self: nx.reportviews.DiMultiDegreeView(self))
    in_degree = property(lambda self: nx.reportviews.InMultiDegreeView(self))
    out_degree = property(lambda self: nx.reportviews.OutMultiDegreeView(self))


@dataclass(frozen=True, eq=False)
class Projection:
    """A rendered subgraph: what a view draws, with its hidden neighbours counted per node."""

    graph: nx.MultiDiGraph = field(default_factory=ProjectionGraph)

    def hidden_neighbours(self, node_id: str) -> int:
        """How many distinct neighbours of the node the view leaves out."""
        return len(self.graph.nodes[node_id]["hidden"])

    def node_data(self, node_id: str) -> dict[str, Any]:
        """One node as plain data; the node's own fields never override the fixed keys."""
        attrs = self.graph.nodes[node_id]
        fixed = {
            "id": node_id,
            "type": attrs["type"],
            "label": attrs["label"],
            "subject": attrs["subject"],
            "ref": attrs["ref"],
            "hidden_neighbours": len(attrs["hidden"]),
        }
        return fixed | {k: v for k, v in attrs["data"].items() if k not in fixed}

    def edge_keys(self) -> list[tuple[str, str, str]]:
        """Every edge as (source, type, target), sorted."""
        return sorted((u, t, v) for u, v, t in self.graph.edges(keys=True))

    def to_data(self) -> dict[str, list[dict[str, Any]]]:
        """The projection as {nodes: [...], edges: [{source, type, target}]}, sorted."""
        return {
            "nodes": [self.node_data(n) for n in sorted(self.graph.nodes)],
            "edges": [{"source": u, "type": t, "target": v} for u, t, v in self.edge_keys()],
        }


@dataclass(frozen=True)
class NodeChange:
    """A node present at both moments whose type, label, ref or fields differ."""

    id: str
    fields: tuple[str, ...]
    """Which of "type", "label", "ref" and "data" differ."""
    before: dict[str, Any]
    after: dict[str, Any]


@dataclass(frozen=True)
class GraphDiff:
    """What changed between two projections: nodes and edges added, removed, changed."""

    nodes_added: tuple[dict[str, Any], ...] = ()
    nodes_removed: tuple[dict[str, Any], ...] = ()
    nodes_changed: tuple[NodeChange, ...] = ()
    edges_added: tuple[tuple[str, str, str], ...] = ()
    """(source, type, target)"""
    edges_removed: tuple[tuple[str, str, str], ...] = ()

    @property
    def empty(self) -> bool:
        """Whether nothing changed."""
        return not (
            self.nodes_added
            or self.nodes_removed
            or self.nodes_changed
            or self.edges_added
            or self.edges_removed
        )

    def to_data(self) -> dict[str, dict[str, list[dict[str, Any]]]]:
        """The difference as plain data, sorted like the projections."""
        changed = [
            {"id": c.id, "fields": list(c.fields), "before": c.before, "after": c.after}
            for c in self.nodes_changed
        ]
        return {
            "nodes": {
                "added": list(self.nodes_added),
                "removed": list(self.nodes_removed),
                "changed": changed,
            },
            "edges": {
                "added": [_edge_data(e) for e in self.edges_added],
                "removed": [_edge_data(e) for e in self.edges_removed],
            },
        }


def project(
    versions: Iterable[ArtifactVersion],
    nodes: Iterable[GraphNode],
    edges: Iterable[GraphEdge],
    options: ViewOptions | None = None,
) -> Projection:
    """Build the view of the given head versions' rows that the options ask for."""
    options = options or ViewOptions()
    heads = [v for v in versions if options.subject in (None, v.subject)]
    refs = {v.ref for v in heads}
    rows = _rows_by_place(heads, nodes)
    kinds = current_by_kind(heads)
    graph: nx.MultiDiGraph[str] = ProjectionGraph()
    for (subject, key), row in sorted(rows.items()):
        if options.shows(row.type):
            graph.add_node(_node_id(options, subject, key), **_attributes(row))
    for edge in edges:
        target = resolve_target(edge, kinds)
        if edge.version_ref not in refs or target is None:
            continue
        if (edge.subject, edge.source) in rows and (edge.subject, target) in rows:
            source_id = _node_id(options, edge.subject, edge.source)
            _place_edge(graph, source_id, edge.type, _node_id(options, edge.subject, target))
    return Projection(graph)


def current_by_kind(heads: Iterable[ArtifactVersion]) -> dict[tuple[str, str], str]:
    """The artifact id a "kind:<kind>" target means, per (subject, kind).

    When a subject has several current artifacts of one kind, the most recently created wins.
    """
    latest: dict[tuple[str, str], ArtifactVersion] = {}
    for version in sorted(heads, key=lambda v: (v.front.created_at, v.ref)):
        latest[(version.subject, version.front.kind)] = version
    return {place: version.artifact_id for place, version in latest.items()}


def resolve_target(edge: GraphEdge, kinds: dict[tuple[str, str], str]) -> str | None:
    """The key an edge points at, with a "kind:" target resolved; None when nothing matches."""
    if not edge.target.startswith(KIND_PREFIX):
        return edge.target
    return kinds.get((edge.subject, edge.target.removeprefix(KIND_PREFIX)))


def neighbourhood(projection: Projection, node_id: str, depth: int) -> Projection:
    """The nodes within ``depth`` edges of a node, in either direction, and the edges among them."""
    _require(projection, node_id)
    undirected = projection.graph.to_undirected(as_view=True)
    near = nx.single_source_shortest_path_length(undirected, node_id, cutoff=depth)
    return _restrict(projection, set(near))


def lineage(projection: Projection, node_id: str, direction: Direction = "up") -> Projection:
    """What a node was built from ("up") or what was built from it ("down"), with the node."""
    _require(projection, node_id)
    if direction not in ("up", "down"):
        raise ValueError(f"lineage direction must be 'up' or 'down', not {direction!r}")
    reached, frontier = {node_id}, [node_id]
    while frontier:
        step = _lineage_step(projection.graph, frontier.pop(), direction)
        fresh = {n for n in step if n not in reached}
        reached.update(fresh)
        frontier.extend(fresh)
    return _restrict(projection, reached)


def diff(before: Projection, after: Projection) -> GraphDiff:
    """What was added, removed and changed from one projection to the next."""
    old, new = set(before.graph.nodes), set(after.graph.nodes)
    changed = [_change(before, after, n) for n in sorted(old & new)]
    old_edges, new_edges = set(before.edge_keys()), set(after.edge_keys())
    return GraphDiff(
        nodes_added=tuple(after.node_data(n) for n in sorted(new - old)),
        nodes_removed=tuple(before.node_data(n) for n in sorted(old - new)),
        nodes_changed=tuple(c for c in changed if c is not None),
        edges_added=tuple(sorted(new_edges - old_edges)),
        edges_removed=tuple(sorted(old_edges - new_edges)),
    )


def _rows_by_place(
    heads: list[ArtifactVersion], nodes: Iterable[GraphNode]
) -> dict[tuple[str, str], GraphNode]:
    """The heads' node rows by (subject, key).

    A key written by several versions (a run's node) keeps the row of the most recently created
    one, whatever order the rows came in.
    """
    order = {v.ref: (v.front.created_at, v.ref) for v in heads}
    kept = sorted((n for n in nodes if n.version_ref in order), key=lambda n: order[n.version_ref])
    return {(n.subject, n.key): n for n in kept}


def _node_id(options: ViewOptions, subject: str, key: str) -> str:
    return key if options.subject is not None else f"{subject}/{key}"


def _attributes(row: GraphNode) -> dict[str, Any]:
    return {
        "type": row.type,
        "label": row.label,
        "subject": row.subject,
        "ref": row.version_ref,
        "data": dict(row.data),
        "hidden": frozenset(),
    }


def _place_edge(graph: nx.MultiDiGraph, source: str, edge_type: str, target: str) -> None:
    """Draw the edge when both ends are shown, else count the hidden end on the shown one."""
    shown_source, shown_target = source in graph, target in graph
    if shown_source and shown_target:
        graph.add_edge(source, target, key=edge_type)
    elif shown_source:
        graph.nodes[source]["hidden"] |= {target}
    elif shown_target:
        graph.nodes[target]["hidden"] |= {source}


def _require(projection: Projection, node_id: str) -> None:
    if node_id not in projection.graph:
        raise UnknownNodeError(f"no node {node_id!r} in the projection")


def _restrict(projection: Projection, keep: set[str]) -> Projection:
    """The subgraph on ``keep``; neighbours left outside join each node's hidden ones."""
    whole = projection.graph
    graph = whole.subgraph(keep).copy()
    for node in graph.nodes:
        around = set(whole.successors(node)) | set(whole.predecessors(node))
        graph.nodes[node]["hidden"] = whole.nodes[node]["hidden"] | (around - keep)
    return Projection(graph)


def _lineage_step(graph: nx.MultiDiGraph, node: str, direction: Direction) -> Iterator[str]:
    forward, backward = (
        (UPSTREAM_FORWARD, UPSTREAM_BACKWARD)
        if direction == "up"
        else (UPSTREAM_BACKWARD, UPSTREAM_FORWARD)
    )
    yield from (v for _, v, t in graph.out_edges(node, keys=True) if t in forward)
    yield from (u for u, _, t in graph.in_edges(node, keys=True) if t in backward)


def _change(before: Projection, after: Projection, node_id: str) -> NodeChange | None:
    old, new = before.graph.nodes[node_id], after.graph.nodes[node_id]
    fields = tuple(f for f in ("type", "label", "ref", "data") if old[f] != new[f])
    if not fields:
        return None
    return NodeChange(node_id, fields, before.node_data(node_id), after.node_data(node_id))


def _edge_data(edge: tuple[str, str, str]) -> dict[str, str]:
    source, edge_type, target = edge
    return {"source": source, "type": edge_type, "target": target}
