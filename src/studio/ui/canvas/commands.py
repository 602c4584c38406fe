"""Undo commands. Each one changes the document only through its methods, and remembers
enough to put everything back exactly (STYLE: commands call model methods)."""

from collections.abc import Iterable, Mapping
from typing import Any

from PySide6.QtGui import QUndoCommand

from studio.model import Edge, Node, Position, Workflow
from studio.model.annotations import Group
from studio.model.document import WorkflowDocument


class DocumentCommand(QUndoCommand):
    """A command on one document."""

    def __init__(self, document: WorkflowDocument, text: str) -> None:
        super().__init__(text)
        self.document = document


class AddElements(DocumentCommand):
    """Add nodes and edges (a new node, a connection, a paste, a duplicate)."""

    def __init__(
        self,
        document: WorkflowDocument,
        nodes: Iterable[Node] = (),
        edges: Iterable[Edge] = (),
        text: str = "Add",
    ) -> None:
        super().__init__(document, text)
        self.nodes, self.edges = list(nodes), list(edges)

    def redo(self) -> None:
        for node in self.nodes:
            self.document.add_node(node)
        for edge in self.edges:
            self.document.add_edge(edge)

    def undo(self) -> None:
        for edge in reversed(self.edges):
            self.document.remove_edge(edge.id)
        for node in reversed(self.nodes):
            self.document.remove_node(node.id)


class RemoveElements(DocumentCommand):
    """Remove nodes with every edge touching them, and edges; the removed nodes leave their
    groups. Undo puts all back in place."""

    def __init__(
        self,
        document: WorkflowDocument,
        node_ids: Iterable[str] = (),
        edge_ids: Iterable[str] = (),
        text: str = "Delete",
    ) -> None:
        super().__init__(document, text)
        self.node_ids, self.edge_ids = list(node_ids), list(edge_ids)
        self._removed_edges: list[tuple[Edge, int]] = []
        self._removed_nodes: list[tuple[Node, int]] = []
        self._released: list[tuple[Group, int]] = []

    def redo(self) -> None:
        touching = [edge.id for edge in self.document.edges_touching(self.node_ids)]
        edge_ids = list(dict.fromkeys([*self.edge_ids, *touching]))
        self._removed_edges = [self.document.remove_edge(edge_id) for edge_id in edge_ids]
        self._released = self.document.release_nodes(self.node_ids)
        self._removed_nodes = [self.document.remove_node(node_id) for node_id in self.node_ids]

    def undo(self) -> None:
        for node, index in reversed(self._removed_nodes):
            self.document.add_node(node, index)
        for edge, index in reversed(self._removed_edges):
            self.document.add_edge(edge, index)
        self.document.restore_groups(self._released)


class MoveNodes(DocumentCommand):
    """Move nodes: a drag, an auto-layout or a nudge, as one step."""

    def __init__(
        self,
        document: WorkflowDocument,
        before: Mapping[str, Position],
        after: Mapping[str, Position],
        text: str = "Move",
    ) -> None:
        super().__init__(document, text)
        self.before, self.after = dict(before), dict(after)

    def redo(self) -> None:
        self.document.move_nodes(self.after)

    def undo(self) -> None:
        self.document.move_nodes(self.before)


class ReplaceNode(DocumentCommand):
    """A change made in the node drawer."""

    def __init__(
        self, document: WorkflowDocument, before: Node, after: Node, text: str = "Edit node"
    ) -> None:
        super().__init__(document, text)
        self.before, self.after = before, after

    def redo(self) -> None:
        self.document.replace_node(self.after)

    def undo(self) -> None:
        self.document.replace_node(self.before)


class ReplaceEdge(DocumentCommand):
    """A change of an edge's condition."""

    def __init__(
        self, document: WorkflowDocument, before: Edge, after: Edge, text: str = "Edit condition"
    ) -> None:
        super().__init__(document, text)
        self.before, self.after = before, after

    def redo(self) -> None:
        self.document.replace_edge(self.after)

    def undo(self) -> None:
        self.document.replace_edge(self.before)


class SetProperties(DocumentCommand):
    """A change of the workflow's own fields (name, configuration, timeout...)."""

    def __init__(
        self, document: WorkflowDocument, changes: Mapping[str, Any], text: str = "Edit workflow"
    ) -> None:
        super().__init__(document, text)
        self.after = dict(changes)
        current = document.properties
        self.before = {name: getattr(current, name) for name in self.after}

    def redo(self) -> None:
        self.document.set_properties(**self.after)

    def undo(self) -> None:
        self.document.set_properties(**self.before)


class ReplaceAll(DocumentCommand):
    """Load, import or clear: the whole workflow at once, the store's fields kept."""

    def __init__(
        self,
        document: WorkflowDocument,
        workflow: Workflow,
        text: str,
        blueprint_version: int | None = None,
    ) -> None:
        """``blueprint_version``: the version of its blueprint the workflow takes in (an
        update applied); None keeps the one it had."""
        super().__init__(document, text)
        kept = document.properties
        self.after = workflow.model_copy(
            update={
                "id": kept.id,
                "status": kept.status,
                "version": kept.version,
                "app_id": kept.app_id,
                "org_id": kept.org_id,
                "blueprint_id": kept.blueprint_id,
                "blueprint_version": blueprint_version or kept.blueprint_version,
                "created_at": kept.created_at,
                "updated_at": kept.updated_at,
            }
        )
        self.before: Workflow | None = None

    def redo(self) -> None:
        self.before = self.document.replace_all(self.after)

    def undo(self) -> None:
        assert self.before is not None
        self.document.replace_all(self.before)
