"""The scene mirrors a WorkflowDocument: it adds, moves, updates and removes items as the
document announces changes, and never changes the document itself."""

from collections.abc import Callable, Iterable

import shiboken6
from PySide6.QtCore import QLineF, QObject, QRect, QRectF
from PySide6.QtGui import QBrush, QPainter, QPen
from PySide6.QtWidgets import QGraphicsScene

from studio.model import AgentRegistry, Edge, Node
from studio.model.document import DocumentEvent, WorkflowDocument
from studio.ui.canvas.annotation_layer import AnnotationLayer
from studio.ui.canvas.items import DETAIL_THRESHOLD, MARK_THRESHOLD, EdgeItem, NodeItem
from studio.ui.canvas.style import GRID, canvas_colors


class WorkflowScene(QGraphicsScene):
    """Items for every node and edge of one document."""

    def __init__(
        self, document: WorkflowDocument, agents: AgentRegistry, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.document, self.agents = document, agents
        self.colors = canvas_colors()
        self.show_grid = True
        self.node_items: dict[str, NodeItem] = {}
        self.edge_items: dict[str, EdgeItem] = {}
        self.detail, self.marks = True, True
        """Whether nodes are drawn in detail, and ports and arrowheads at all (zoom level)."""
        self._styled_selection: set[NodeItem | EdgeItem] = set()
        self.selectionChanged.connect(self._restyle_selection)
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.annotations = AnnotationLayer(self, document, self.node_items, self.edge_items)
        self._handlers: dict[str, Callable[[tuple[str, ...]], None]] = {
            "node_added": self._add_nodes,
            "node_removed": self._remove_nodes,
            "node_changed": self._update_nodes,
            "nodes_moved": self._move_nodes,
            "edge_added": self._add_edges,
            "edge_removed": self._remove_edges,
            "edge_changed": self._update_edges,
            "note_added": self.annotations.add_notes,
            "note_removed": self.annotations.remove_notes,
            "note_changed": self.annotations.update_notes,
            "group_added": self.annotations.add_groups,
            "group_removed": self.annotations.remove_groups,
            "group_changed": self.annotations.update_groups,
            "reset": lambda _ids: self.rebuild(),
            "workflow_changed": lambda _ids: None,
        }
        self._unsubscribe = document.subscribe(self._on_event)
        self.rebuild()

    def rebuild(self) -> None:
        """Draw the whole document again (after a load, import or clear)."""
        for item in list(self.edge_items.values()):
            item.detach()
        self.clear()
        self.node_items.clear()
        self.edge_items.clear()
        self._styled_selection.clear()
        self._add_nodes(tuple(node.id for node in self.document.nodes))
        self._add_edges(tuple(edge.id for edge in self.document.edges))
        self.annotations.rebuild()

    def apply_colors(self) -> None:
        """Repaint every item in the current palette's colours (after a theme change)."""
        self.colors = canvas_colors()
        for item in self.node_items.values():
            item.colors = self.colors
            item.apply_look()
            item.update()
        for edge in self.edge_items.values():
            edge.colors = self.colors
            edge.apply_colors()
        self.annotations.apply_colors()
        self.update()

    def follow_zoom(self, zoom: float) -> None:
        """Draw for a view at ``zoom``: plain boxes below ``DETAIL_THRESHOLD``, no ports or
        arrowheads below ``MARK_THRESHOLD``. Items change only when a threshold is crossed."""
        detail, marks = zoom >= DETAIL_THRESHOLD, zoom >= MARK_THRESHOLD
        if detail != self.detail:
            self.detail = detail
            for node in self.node_items.values():
                node.show_detail(detail)
        if marks != self.marks:
            self.marks = marks
            for node in self.node_items.values():
                node.show_ports(marks)
            for edge in self.edge_items.values():
                edge.show_arrow(marks)

    def detach(self) -> None:
        """Stop listening to the document."""
        self._unsubscribe()

    def selected_node_ids(self) -> list[str]:
        """Ids of the selected nodes, in definition order."""
        selected = {item.node_id for item in self.selectedItems() if isinstance(item, NodeItem)}
        return [node.id for node in self.document.nodes if node.id in selected]

    def selected_edge_ids(self) -> list[str]:
        """Ids of the selected edges."""
        return [item.edge_id for item in self.selectedItems() if isinstance(item, EdgeItem)]

    def select_only(self, node_ids: Iterable[str] = (), edge_ids: Iterable[str] = ()) -> None:
        """Select exactly these nodes and edges."""
        self.clearSelection()
        for node_id in node_ids:
            if node_id in self.node_items:
                self.node_items[node_id].setSelected(True)
        for edge_id in edge_ids:
            if edge_id in self.edge_items:
                self.edge_items[edge_id].setSelected(True)

    def drawBackground(self, painter: QPainter, exposed: QRectF | QRect) -> None:
        rect = QRectF(exposed)
        painter.fillRect(rect, QBrush(self.colors.background))
        scale = painter.worldTransform().m11()
        if not self.show_grid or scale < 0.5:
            return
        painter.setPen(QPen(self.colors.grid, 0))
        left = int(rect.left() // GRID) * GRID
        top = int(rect.top() // GRID) * GRID
        x = left
        while x < rect.right():
            painter.drawLine(QLineF(x, rect.top(), x, rect.bottom()))
            x += GRID
        y = top
        while y < rect.bottom():
            painter.drawLine(QLineF(rect.left(), y, rect.right(), y))
            y += GRID

    def _restyle_selection(self) -> None:
        """Give the items whose selection changed their selected (or plain) outline."""
        selected = {item for item in self.selectedItems() if isinstance(item, (NodeItem, EdgeItem))}
        changed = selected.symmetric_difference(self._styled_selection)
        self._styled_selection = selected
        for item in changed:
            if not shiboken6.isValid(item) or item.scene() is not self:
                continue  # removed with its selection
            if isinstance(item, EdgeItem):
                item.apply_colors()
            else:
                item.apply_look()

    def _on_event(self, event: DocumentEvent) -> None:
        self._handlers[event.kind](event.ids)

    def _kind_of(self, agent_id: str) -> str | None:
        agent = self.agents.get(agent_id)
        return agent.kind if agent else None

    def _node(self, node_id: str) -> Node:
        node = self.document.node(node_id)
        if node is None:
            raise KeyError(f"the document announced node {node_id!r}, which it does not hold")
        return node

    def _edge(self, edge_id: str) -> Edge:
        edge = self.document.edge(edge_id)
        if edge is None:
            raise KeyError(f"the document announced edge {edge_id!r}, which it does not hold")
        return edge

    def _add_nodes(self, ids: tuple[str, ...]) -> None:
        for node_id in ids:
            node = self._node(node_id)
            item = NodeItem(node, self._kind_of(node.agent_id), self.colors)
            if not self.detail:  # a new node is drawn in detail, with its ports
                item.show_detail(False)
            if not self.marks:
                item.show_ports(False)
            self.node_items[node_id] = item
            self.addItem(item)
        self.annotations.refresh_groups_for(ids)

    def _remove_nodes(self, ids: tuple[str, ...]) -> None:
        for node_id in ids:
            self.removeItem(self.node_items.pop(node_id))
        self.annotations.refresh_groups_for(ids)

    def _update_nodes(self, ids: tuple[str, ...]) -> None:
        for node_id in ids:
            node = self._node(node_id)
            self.node_items[node_id].update_from(node, self._kind_of(node.agent_id))
        self.annotations.refresh_groups_for(ids)

    def _move_nodes(self, ids: tuple[str, ...]) -> None:
        for node_id in ids:
            position = self._node(node_id).position
            self.node_items[node_id].move_to(position.x, position.y)
        self.annotations.refresh_groups_for(ids)

    def _add_edges(self, ids: tuple[str, ...]) -> None:
        for edge_id in ids:
            edge = self._edge(edge_id)
            item = EdgeItem(
                edge, self.node_items[edge.source], self.node_items[edge.target], self.colors
            )
            if not self.marks:  # a new edge has its arrowhead
                item.show_arrow(False)
            self.edge_items[edge_id] = item
            self.addItem(item)
        self.annotations.settle_edges(self.edge_items[edge_id] for edge_id in ids)

    def _remove_edges(self, ids: tuple[str, ...]) -> None:
        for edge_id in ids:
            item = self.edge_items.pop(edge_id)
            item.detach()
            self.removeItem(item)

    def _update_edges(self, ids: tuple[str, ...]) -> None:
        for edge_id in ids:
            self.edge_items[edge_id].update_from(self._edge(edge_id))
