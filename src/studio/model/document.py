"""A workflow being edited: every change goes through a method that announces it.

Views never change a workflow themselves; undo commands call these methods, and the canvas
and panels redraw from the events. An event is sent only when something really changed.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from studio.model.graph import would_close_cycle
from studio.model.identifiers import free_id
from studio.model.workflow import Edge, Node, Position, Workflow

EventKind = Literal[
    "node_added",
    "node_removed",
    "node_changed",
    "nodes_moved",
    "edge_added",
    "edge_removed",
    "edge_changed",
    "workflow_changed",
    "reset",
]


@dataclass(frozen=True)
class DocumentEvent:
    """What changed: the kind of change and the ids it concerns."""

    kind: EventKind
    ids: tuple[str, ...] = ()


Listener = Callable[[DocumentEvent], None]
WORKFLOW_PROPERTIES = ("name", "description", "category", "timeout", "configuration")


@dataclass
class WorkflowDocument:
    """The nodes, edges and properties of one workflow under edit."""

    workflow: Workflow
    _listeners: list[Listener] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._nodes: dict[str, Node] = {node.id: node for node in self.workflow.nodes}
        self._edges: dict[str, Edge] = {edge.id: edge for edge in self.workflow.edges}
        self._properties = self.workflow.model_copy(update={"nodes": [], "edges": []})

    # Reading --------------------------------------------------------------------------

    def snapshot(self) -> Workflow:
        """The workflow as it is now."""
        return self._properties.model_copy(
            update={"nodes": list(self._nodes.values()), "edges": list(self._edges.values())}
        )

    @property
    def properties(self) -> Workflow:
        """The workflow's own fields (name, configuration, ...), without nodes and edges."""
        return self._properties

    @property
    def nodes(self) -> list[Node]:
        """Nodes in definition order."""
        return list(self._nodes.values())

    @property
    def edges(self) -> list[Edge]:
        """Edges in definition order."""
        return list(self._edges.values())

    def node(self, node_id: str) -> Node | None:
        """The node with this id, if any."""
        return self._nodes.get(node_id)

    def edge(self, edge_id: str) -> Edge | None:
        """The edge with this id, if any."""
        return self._edges.get(edge_id)

    def edges_touching(self, node_ids: Iterable[str]) -> list[Edge]:
        """Edges that start or end at any of the nodes."""
        wanted = set(node_ids)
        return [
            edge for edge in self._edges.values() if edge.source in wanted or edge.target in wanted
        ]

    def would_close_cycle(self, source: str, target: str) -> bool:
        """Whether an edge source → target would make the workflow cyclic."""
        links = [(edge.source, edge.target) for edge in self._edges.values()]
        return would_close_cycle(links, source, target)

    def unique_node_id(self, base: str) -> str:
        """``base``, or ``base-2``, ``base-3``... whichever is free, cut to the id length."""
        return free_id(base, self._nodes)

    def unique_edge_id(self, source: str, target: str) -> str:
        """An id for a new edge between two nodes."""
        base = f"{source}->{target}"
        candidate, number = base, 2
        while candidate in self._edges:
            candidate, number = f"{base}#{number}", number + 1
        return candidate

    # Listening ------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` on every change; returns a function that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _announce(self, kind: EventKind, ids: Iterable[str] = ()) -> None:
        event = DocumentEvent(kind, tuple(ids))
        for listener in list(self._listeners):
            listener(event)

    # Changing -------------------------------------------------------------------------

    def add_node(self, node: Node, index: int | None = None) -> None:
        """Insert a node (at ``index`` in definition order, else at the end)."""
        if node.id in self._nodes:
            raise ValueError(f"a node with id '{node.id}' already exists")
        self._nodes = _inserted(self._nodes, node.id, node, index)
        self._announce("node_added", [node.id])

    def remove_node(self, node_id: str) -> tuple[Node, int]:
        """Remove a node that no edge touches; returns it and where it was."""
        if self.edges_touching([node_id]):
            raise ValueError(f"node '{node_id}' still has edges; remove them first")
        index = list(self._nodes).index(node_id)
        node = self._nodes.pop(node_id)
        self._announce("node_removed", [node_id])
        return node, index

    def replace_node(self, node: Node) -> None:
        """Put a changed node in place of the one with the same id."""
        if node.id not in self._nodes:
            raise KeyError(node.id)
        if self._nodes[node.id] == node:
            return
        self._nodes[node.id] = node
        self._announce("node_changed", [node.id])

    def move_nodes(self, positions: Mapping[str, Position]) -> None:
        """Move nodes; only those whose position really changes are announced."""
        unknown = [node_id for node_id in positions if node_id not in self._nodes]
        if unknown:
            raise KeyError(f"no such node: {', '.join(unknown)}")
        checked = {
            node_id: Position.model_validate(p) if not isinstance(p, Position) else p
            for node_id, p in positions.items()
        }
        moved = []
        for node_id, position in checked.items():
            node = self._nodes[node_id]
            if node.position != position:
                self._nodes[node_id] = node.model_copy(update={"position": position})
                moved.append(node_id)
        if moved:
            self._announce("nodes_moved", moved)

    def add_edge(self, edge: Edge, index: int | None = None) -> None:
        """Insert an edge between two existing nodes."""
        if edge.id in self._edges:
            raise ValueError(f"an edge with id '{edge.id}' already exists")
        for end in (edge.source, edge.target):
            if end not in self._nodes:
                raise ValueError(f"edge '{edge.id}' refers to a missing node '{end}'")
        self._edges = _inserted(self._edges, edge.id, edge, index)
        self._announce("edge_added", [edge.id])

    def remove_edge(self, edge_id: str) -> tuple[Edge, int]:
        """Remove an edge; returns it and where it was."""
        index = list(self._edges).index(edge_id)
        edge = self._edges.pop(edge_id)
        self._announce("edge_removed", [edge_id])
        return edge, index

    def replace_edge(self, edge: Edge) -> None:
        """Put a changed edge (its condition) in place of the one with the same id."""
        if edge.id not in self._edges:
            raise KeyError(edge.id)
        for end in (edge.source, edge.target):
            if end not in self._nodes:
                raise ValueError(f"edge '{edge.id}' refers to a missing node '{end}'")
        if self._edges[edge.id] == edge:
            return
        self._edges[edge.id] = edge
        self._announce("edge_changed", [edge.id])

    def set_properties(self, **changes: Any) -> None:
        """Change workflow fields (name, description, category, timeout, configuration)."""
        unknown = set(changes) - set(WORKFLOW_PROPERTIES)
        if unknown:
            raise KeyError(", ".join(sorted(unknown)))
        changed = {
            name: value
            for name, value in changes.items()
            if getattr(self._properties, name) != value
        }
        if not changed:
            return
        # Validated like a file would be: a bad value is refused and changes nothing.
        updated = Workflow.model_validate({**dict(self._properties), **changed})
        self._properties = updated
        self._announce("workflow_changed", sorted(changed))

    def replace_all(self, workflow: Workflow) -> Workflow:
        """Replace everything (load, import, clear); returns what was there before."""
        before = self.snapshot()
        self.workflow = workflow
        self.__post_init__()
        self._announce("reset")
        return before


def _inserted(items: dict[str, Any], key: str, value: Any, index: int | None) -> dict[str, Any]:
    if index is None or index >= len(items):
        return {**items, key: value}
    pairs = list(items.items())
    pairs.insert(index, (key, value))
    return dict(pairs)
