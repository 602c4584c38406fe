"""What the knowledge view draws for the choices a person made: the layers, the filters, the
moment, the focus, the neighbours they expanded, and a second moment to compare with.

The graph is projected at the moment asked, then cut down: a node stays when its layer is on
and it passes the kind and item-type filters, when it is a neighbour of a node the person
expanded ("3 more neighbours hidden" clicked), or when the person went to it (a search result
or a link). Every node counts the neighbours the cut leaves out. Only expanding and revealing
need the projection of every layer; otherwise only the layers shown are projected (the
projection counts the neighbours the hidden layers hold), which is several times cheaper.
A focus keeps only the nodes within ``depth`` steps of the focused one. The same cut applied
at the compare moment gives the difference between the two, so what was added, removed and
changed is told in the view's own terms.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import networkx as nx

from studio.knowledge.insight import MISSING, Gap, Suspect
from studio.knowledge.knowledge_history import KnowledgeHistory
from studio.knowledge.projection import (
    Direction,
    GraphDiff,
    Projection,
    UnknownNodeError,
    ViewOptions,
    diff,
    lineage,
    neighbourhood,
)
from studio.model.knowledge import ARTIFACT

MAX_DEPTH = 3


@dataclass(frozen=True)
class ViewQuery:
    """The choices that decide what the view shows."""

    items: bool = False
    units: bool = False
    sections: bool = False
    subject: str | None = None
    kinds: frozenset[str] | None = None
    """Artifact kinds shown; None: all."""
    item_types: frozenset[str] | None = None
    """Typed item types shown (when items are on); None: all."""
    as_of: datetime | None = None
    """The moment shown; None: now."""
    compare_to: datetime | None = None
    """A second moment to compare with; None: no comparison."""
    focus: str | None = None
    depth: int = 1
    expanded: frozenset[str] = frozenset()
    """Nodes whose hidden neighbours were asked for."""
    revealed: frozenset[str] = frozenset()
    """Nodes shown whatever the layers and filters say (one a search or a link went to)."""

    def options(self) -> ViewOptions:
        """The layers as the projection's options."""
        return ViewOptions(self.items, self.units, self.sections, self.subject)


@dataclass(frozen=True, eq=False)
class GraphView:
    """The graph to draw and what to mark on it."""

    query: ViewQuery
    projection: Projection
    changes: GraphDiff | None = None
    """What changed from ``compare_to`` to ``as_of``, when comparing."""
    compared: Projection | None = None
    """The same cut at ``compare_to``, when comparing: where the removed nodes were."""
    gaps: dict[str, Gap] = field(default_factory=dict)
    """Coverage gaps on the nodes in view, by node id."""
    suspects: dict[tuple[str, str, str], Suspect] = field(default_factory=dict)
    """Suspect links in view, by (source, type, target) as drawn."""
    lost_focus: bool = False
    """The focused node is not in view at this moment (or under these filters)."""

    def lineage(self, node_id: str, direction: Direction) -> set[str]:
        """The nodes on the node's lineage path, itself included."""
        if node_id not in self.projection.graph:
            return set()
        return set(lineage(self.projection, node_id, direction).graph.nodes)


def view_of(history: KnowledgeHistory, query: ViewQuery) -> GraphView:
    """The view the query asks for, from the history read once."""
    projection = cut(history, query, query.as_of)
    focus, lost = query.focus, False
    if focus is not None:
        if focus in projection.graph:
            depth = min(max(query.depth, 1), MAX_DEPTH)
            projection = neighbourhood(projection, focus, depth)
        else:
            lost = True
    changes = compared = None
    if query.compare_to is not None:
        compared = cut(history, query, query.compare_to)
        changes = diff(compared, projection)
    return GraphView(
        query=query,
        projection=projection,
        changes=changes,
        compared=compared,
        gaps=_gaps_in_view(history, query, projection),
        suspects=_suspects_in_view(history, query, projection),
        lost_focus=lost,
    )


def cut(history: KnowledgeHistory, query: ViewQuery, as_of: datetime | None) -> Projection:
    """The projection at a moment with only the nodes the query lets through."""
    if query.expanded or query.revealed:
        return cut_from_every_layer(history, query, as_of)
    shown = history.graph(query.options(), as_of)
    if query.kinds is None and (query.item_types is None or not query.items):
        return shown
    keep = {node for node, attrs in shown.graph.nodes(data=True) if _passes(query, attrs)}
    return _kept(shown.graph, keep)


def cut_from_every_layer(
    history: KnowledgeHistory, query: ViewQuery, as_of: datetime | None
) -> Projection:
    """The cut made from the projection of every layer: what expanding and revealing need,
    since they bring in nodes of layers the query does not show. Without them it gives what
    ``cut`` gives from the query's own layers (the projection counts the neighbours a hidden
    layer holds), at several times the cost."""
    every_layer = ViewOptions(items=True, units=True, sections=True, subject=query.subject)
    whole = history.graph(every_layer, as_of).graph
    keep = {node for node, attrs in whole.nodes(data=True) if _passes(query, attrs)}
    keep |= query.revealed & set(whole.nodes)
    for node in query.expanded & set(whole.nodes):
        keep |= set(whole.successors(node)) | set(whole.predecessors(node)) | {node}
    return _kept(whole, keep)


def _kept(whole: nx.MultiDiGraph, keep: set[str]) -> Projection:
    """The subgraph on ``keep``, each node counting the neighbours left out as hidden."""
    graph = whole.subgraph(keep).copy()
    for node in graph.nodes:
        around = set(whole.successors(node)) | set(whole.predecessors(node))
        graph.nodes[node]["hidden"] = frozenset(around - keep) | _outside(whole, node)
    return Projection(graph)


def node_id(query: ViewQuery, subject: str, key: str) -> str:
    """A node's id in the view: its plain key within one subject, else "<subject>/<key>"."""
    return key if query.subject is not None else f"{subject}/{key}"


def _passes(query: ViewQuery, attrs: dict[str, Any]) -> bool:
    node_type = attrs["type"]
    if not query.options().shows(node_type):
        return False
    if node_type == ARTIFACT:
        return query.kinds is None or attrs["data"].get("kind") in query.kinds
    if node_type in ("run", "unit", "section"):
        return True
    return query.item_types is None or node_type in query.item_types


def _outside(whole: nx.MultiDiGraph, node: str) -> frozenset[str]:
    """Neighbours the whole projection itself left out (edges to another subject's nodes)."""
    return frozenset(whole.nodes[node]["hidden"])


def _gaps_in_view(
    history: KnowledgeHistory, query: ViewQuery, projection: Projection
) -> dict[str, Gap]:
    if not any(attrs["type"] in MISSING for _node, attrs in projection.graph.nodes(data=True)):
        return {}  # no node in view could carry a gap: no need to work them out
    found = {node_id(query, g.subject, g.key): g for g in history.gaps(query.as_of, query.subject)}
    return {node: gap for node, gap in found.items() if node in projection.graph}


def _suspects_in_view(
    history: KnowledgeHistory, query: ViewQuery, projection: Projection
) -> dict[tuple[str, str, str], Suspect]:
    """The suspect links drawn: those whose edge, either way round, is in the view."""
    graph = projection.graph
    found: dict[tuple[str, str, str], Suspect] = {}
    for suspect in history.suspects(query.as_of, query.subject):
        item = node_id(query, suspect.subject, suspect.item)
        target = node_id(query, suspect.subject, suspect.target)
        for source, end in ((item, target), (target, item)):
            if graph.has_edge(source, end, suspect.link):
                found[(source, suspect.link, end)] = suspect
    return found


def resolve_node(history: KnowledgeHistory, query: ViewQuery, name: str) -> str:
    """The node a person named: its id in the view, or a bare key (``REQ-1``) when one
    subject alone has it; UnknownNodeError says why not."""
    every_layer = ViewOptions(items=True, units=True, sections=True, subject=query.subject)
    nodes = history.graph(every_layer, query.as_of).graph.nodes
    if name in nodes:
        return name
    matches = sorted(node for node in nodes if node.rsplit("/", 1)[-1] == name)
    if len(matches) == 1:
        return matches[0]
    moment = "now" if query.as_of is None else f"as of {query.as_of.isoformat()}"
    if matches:
        raise UnknownNodeError(f"{name!r} names several nodes: {', '.join(matches)}")
    raise UnknownNodeError(f"no node {name!r} in the knowledge graph {moment}")
