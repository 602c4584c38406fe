"""A workflow being edited: every change goes through a method that announces it.

Views never change a workflow themselves; undo commands call these methods, and the canvas
and panels redraw from the events. An event is sent only when something really changed.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from studio.model.annotations import Group, Note
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
    "note_added",
    "note_removed",
    "note_changed",
    "group_added",
    "group_removed",
    "group_changed",
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
        self._notes: dict[str, Note] = {note.id: note for note in self.workflow.notes}
        self._groups: dict[str, Group] = {group.id: group for group in self.workflow.groups}
        self._properties = self.workflow.model_copy(
            update={"nodes": [], "edges": [], "notes": [], "groups": []}
        )

    # Reading --------------------------------------------------------------------------

    def snapshot(self) -> Workflow:
        """The workflow as it is now."""
        return self._properties.model_copy(
            update={
                "nodes": list(self._nodes.values()),
                "edges": list(self._edges.values()),
                "notes": list(self._notes.values()),
                "groups": list(self._groups.values()),
            }
        )

    @property
    def properties(self) -> Workflow:
        """The workflow's own fields (name, configuration, ...), without nodes, edges, notes
        and groups."""
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

    @property
    def notes(self) -> list[Note]:
        """Notes in definition order."""
        return list(self._notes.values())

    @property
    def groups(self) -> list[Group]:
        """Groups in definition order."""
        return list(self._groups.values())

    def note(self, note_id: str) -> Note | None:
        """The note with this id, if any."""
        return self._notes.get(note_id)

    def group(self, group_id: str) -> Group | None:
        """The group with this id, if any."""
        return self._groups.get(group_id)

    def group_of(self, node_id: str) -> Group | None:
        """The group a node belongs to, if any."""
        return next((group for group in self._groups.values() if node_id in group.node_ids), None)

    def unique_annotation_id(self, base: str) -> str:
        """``base-1``, ``base-2``... whichever no note or group uses yet."""
        number = 1
        while f"{base}-{number}" in self._notes or f"{base}-{number}" in self._groups:
            number += 1
        return f"{base}-{number}"

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
        group = self.group_of(node_id)
        if group is not None:
            raise ValueError(f"node '{node_id}' is in group '{group.id}'; take it out first")
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

    def add_note(self, note: Note, index: int | None = None) -> None:
        """Insert a note (at ``index`` in definition order, else at the end)."""
        if note.id in self._notes:
            raise ValueError(f"a note with id '{note.id}' already exists")
        self._notes = _inserted(self._notes, note.id, note, index)
        self._announce("note_added", [note.id])

    def remove_note(self, note_id: str) -> tuple[Note, int]:
        """Remove a note; returns it and where it was."""
        index = list(self._notes).index(note_id)
        note = self._notes.pop(note_id)
        self._announce("note_removed", [note_id])
        return note, index

    def replace_note(self, note: Note) -> None:
        """Put a changed note (text, colour, place, size) in place of the one with its id."""
        if note.id not in self._notes:
            raise KeyError(note.id)
        if self._notes[note.id] != note:
            self._notes[note.id] = note
            self._announce("note_changed", [note.id])

    def add_group(self, group: Group, index: int | None = None) -> None:
        """Insert a group of existing nodes that belong to no other group."""
        if group.id in self._groups:
            raise ValueError(f"a group with id '{group.id}' already exists")
        self._check_members(group)
        self._groups = _inserted(self._groups, group.id, group, index)
        self._announce("group_added", [group.id])

    def remove_group(self, group_id: str) -> tuple[Group, int]:
        """Remove a group (its nodes stay); returns it and where it was."""
        index = list(self._groups).index(group_id)
        group = self._groups.pop(group_id)
        self._announce("group_removed", [group_id])
        return group, index

    def replace_group(self, group: Group) -> None:
        """Put a changed group (name, members, collapsed, colour) in place of its old self."""
        if group.id not in self._groups:
            raise KeyError(group.id)
        self._check_members(group)
        if self._groups[group.id] != group:
            self._groups[group.id] = group
            self._announce("group_changed", [group.id])

    def release_nodes(self, node_ids: Iterable[str]) -> list[tuple[Group, int]]:
        """Take nodes out of their groups, removing a group left empty; returns every group
        changed, as it was and where it was, for ``restore_groups``."""
        leaving, changed = set(node_ids), []
        for index, group in enumerate(self.groups):
            if leaving.isdisjoint(group.node_ids):
                continue
            changed.append((group, index))
            kept = [node_id for node_id in group.node_ids if node_id not in leaving]
            if kept:
                self.replace_group(group.model_copy(update={"node_ids": kept}))
            else:
                self.remove_group(group.id)
        return changed

    def restore_groups(self, changed: list[tuple[Group, int]]) -> None:
        """Put groups back as ``release_nodes`` found them (their nodes must be back first)."""
        for group, index in changed:
            if group.id in self._groups:
                self.replace_group(group)
            else:
                self.add_group(group, index)

    def _check_members(self, group: Group) -> None:
        for node_id in group.node_ids:
            if node_id not in self._nodes:
                raise ValueError(f"group '{group.id}' refers to a missing node '{node_id}'")
            owner = self.group_of(node_id)
            if owner is not None and owner.id != group.id:
                raise ValueError(f"node '{node_id}' is in group '{owner.id}' already")

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
