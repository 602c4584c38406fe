"""The scene mirrors one projection at a time: shown again with another projection, it keeps the
items of the nodes still present where they are, adds the new ones and removes the gone ones,
so the picture never flickers or jumps when a filter or the date changes."""

import math
from collections.abc import Iterable, Mapping
from typing import Any

from PySide6.QtCore import QObject, QPointF, QRectF
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QGraphicsScene

from studio.knowledge.projection import Projection
from studio.ui.canvas.style import canvas_colors
from studio.ui.knowledge.graph_items import EdgeItem, EdgeKey, NodeItem, node_caption
from studio.ui.knowledge.node_look import NodeLook, look_for

Position = tuple[float, float]
BULK = 100
"""Adding or removing more nodes than this at once is done without the spatial index, rebuilt
after: removing an item from the index costs time in proportion to the items indexed."""
MARGIN = 200.0
"""Room around the nodes, so the view can centre a node near the edge."""
SPARE_GAP = 80.0
SPARE_STEP = (240.0, 110.0)


class GraphScene(QGraphicsScene):
    """Items for every node and edge of the projection shown."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.colors = canvas_colors()
        self.nodes: dict[str, NodeItem] = {}
        self.edges: dict[EdgeKey, EdgeItem] = {}
        self.ghosts: dict[str, NodeItem] = {}
        """Removed nodes drawn where they were, while two moments are compared."""
        self.bounds = QRectF()
        """The box around every node, as of the last show."""
        self.detail = True
        """Whether text and arrowheads are drawn (False when zoomed out)."""
        # BSP: the picture is static between shows, and lookups (paint, hover) are frequent.
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.setBackgroundBrush(QBrush(self.colors.background))

    def show(self, projection: Projection, positions: Mapping[str, Position]) -> None:
        """Draw ``projection`` with nodes in the slots at ``positions``, reusing what it can."""
        graph = projection.graph
        gone = [node_id for node_id in self.nodes if node_id not in graph]
        fresh = [node_id for node_id in graph.nodes if node_id not in self.nodes]
        bulk = len(fresh) + len(gone) > BULK
        if bulk:
            self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self._remove_nodes(gone)
        spare = self._spare_places(fresh, positions)
        for node_id, attrs in graph.nodes(data=True):
            place = positions.get(node_id) or spare.get(node_id)
            self._show_node(node_id, attrs, place)
        self._sync_edges(projection)
        if bulk:
            self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.bounds = self.nodes_rect()
        self.setSceneRect(self.bounds.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN))

    def drawn_rect(self) -> QRectF:
        """The box around every node and ghost."""
        bounds = self.bounds
        for ghost in self.ghosts.values():
            bounds = bounds.united(ghost.scene_rect())
        return bounds

    def clear_graph(self) -> None:
        """Remove every node and edge."""
        self._remove_nodes(list(self.nodes))

    def nodes_rect(self) -> QRectF:
        """The box around every node."""
        rects = [item.scene_rect() for item in self.nodes.values()]
        if not rects:
            return QRectF()
        left = min(r.left() for r in rects)
        top = min(r.top() for r in rects)
        right = max(r.right() for r in rects)
        bottom = max(r.bottom() for r in rects)
        return QRectF(left, top, right - left, bottom - top)

    def set_detail(self, detail: bool) -> None:
        """Draw text and arrowheads (close up) or leave them out (zoomed out)."""
        if detail == self.detail:
            return
        self.detail = detail
        for node in [*self.nodes.values(), *self.ghosts.values()]:
            node.set_detail(detail)
        for edge in self.edges.values():
            edge.arrow.setVisible(detail)

    def apply_colors(self) -> None:
        """Repaint every item in the current palette's colours (after a theme change)."""
        self.colors = canvas_colors()
        self.setBackgroundBrush(QBrush(self.colors.background))
        for node in [*self.nodes.values(), *self.ghosts.values()]:
            node.apply_colors(self.colors)
            if node.chip is not None and node.chip.count:
                node.chip.show_count(node.chip.count, self.colors)

    def make_node(self, node_id: str, look: NodeLook, ghost: bool = False) -> NodeItem:
        """A node item in this scene, drawn at the current level of detail."""
        item = NodeItem(node_id, look, self.colors, ghost)
        item.set_detail(self.detail)
        self.addItem(item)
        return item

    # Nodes --------------------------------------------------------------------------------

    def _show_node(self, node_id: str, attrs: dict[str, Any], place: Position | None) -> None:
        look = look_for(attrs["type"], (attrs.get("data") or {}).get("kind"))
        item = self.nodes.get(node_id)
        if item is not None and item.look != look:
            self._remove_nodes([node_id])
            item = None
        if item is None:
            item = self.nodes[node_id] = self.make_node(node_id, look)
        shown = (attrs["label"], node_caption(node_id, attrs), len(attrs.get("hidden") or ()))
        if item.shown != shown:
            item.shown = shown
            label, caption, hidden = shown
            item.show_data(label, caption, _tooltip(node_id, label, caption, hidden))
            item.set_hidden_count(hidden, self.detail)
        if place is not None:
            item.place_at(place)

    def _remove_nodes(self, node_ids: Iterable[str]) -> None:
        for node_id in node_ids:
            item = self.nodes.pop(node_id)
            for edge in list(item.edges):
                self._remove_edge(edge)
            self.removeItem(item)

    def _spare_places(
        self, fresh: list[str], positions: Mapping[str, Position]
    ) -> dict[str, Position]:
        """Places in a grid below everything for new nodes the layout gave no position."""
        unplaced = [node_id for node_id in fresh if node_id not in positions]
        if not unplaced:
            return {}
        known = [_point(self.nodes[n].pos()) for n in self.nodes]
        known += [_point(p) for p in positions.values()]
        left = min((p[0] for p in known), default=0.0)
        below = max((p[1] for p in known), default=0.0) + 2 * SPARE_GAP
        columns = max(1, math.ceil(math.sqrt(len(unplaced))))
        return {
            node_id: (left + (i % columns) * SPARE_STEP[0], below + (i // columns) * SPARE_STEP[1])
            for i, node_id in enumerate(unplaced)
        }

    # Edges --------------------------------------------------------------------------------

    def _sync_edges(self, projection: Projection) -> None:
        wanted = {(u, t, v) for u, v, t in projection.graph.edges(keys=True)}
        for key in [key for key in self.edges if key not in wanted]:
            self._remove_edge(self.edges[key])
        for key in wanted:
            if key not in self.edges:
                self._add_edge(key)

    def _add_edge(self, key: EdgeKey) -> None:
        source, _type, target = key
        edge = EdgeItem(key, self.nodes[source], self.nodes[target])
        edge.arrow.setVisible(self.detail)
        edge.refresh()
        self.addItem(edge)
        self.edges[key] = edge

    def _remove_edge(self, edge: EdgeItem) -> None:
        edge.detach()
        self.edges.pop(edge.key, None)
        self.removeItem(edge)


def _tooltip(node_id: str, label: str, caption: str, hidden: int) -> str:
    lines = [label, caption, node_id]
    if hidden:
        lines.append(f"{hidden} more neighbour{'' if hidden == 1 else 's'} hidden")
    return "\n".join(lines)


def _point(position: QPointF | Position) -> Position:
    if isinstance(position, QPointF):
        return position.x(), position.y()
    return float(position[0]), float(position[1])
