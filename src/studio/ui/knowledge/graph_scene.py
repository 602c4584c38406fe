"""The scene mirrors one projection at a time: shown again with another projection, it keeps the
items of the nodes still present where they are, adds the new ones and removes the gone ones,
so the picture never flickers or jumps when a filter or the date changes."""

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QGraphicsScene

from studio.knowledge.projection import Projection
from studio.ui.canvas.style import canvas_colors
from studio.ui.knowledge.graph_edges import EdgeItem
from studio.ui.knowledge.graph_items import EdgeKey, NodeItem, node_caption
from studio.ui.knowledge.node_look import NodeLook, look_for

Position = tuple[float, float]
Source = tuple[Any, ...]
"""What a node item is drawn from (type, label, fields, hidden count, place): when this is
unchanged, so is the item."""
CHECKS_PER_PAUSE = 500
"""Nodes compared with their items between two pauses of a drawing spread over turns."""
MARGIN = 200.0
"""Room around the nodes, so the view can centre a node near the edge."""
SPARE_GAP = 80.0
SPARE_STEP = (240.0, 110.0)
ACTIVATION = (QEvent.Type.WindowActivate, QEvent.Type.WindowDeactivate)


@dataclass(frozen=True)
class Drawing:
    """What the scene needs to draw a projection, worked out where the projection was (off
    the UI thread): each node's source and every edge's key. With them, drawing a view that
    differs little from the last compares thousands of nodes and edges in a few set and dict
    operations rather than walking the graph."""

    sources: dict[str, Source]
    edges: frozenset[EdgeKey]

    @classmethod
    def of(cls, projection: Projection, positions: Mapping[str, Position]) -> "Drawing":
        """The drawing of ``projection`` with nodes in the slots at ``positions``."""
        sources = {
            node_id: _source(attrs, positions.get(node_id))
            for node_id, attrs in projection.graph.nodes(data=True)
        }
        edges = frozenset((u, t, v) for u, v, t in projection.graph.edges(keys=True))
        return cls(sources, edges)


class GraphScene(QGraphicsScene):
    """Items for every node and edge of the projection shown."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.colors = canvas_colors()
        self.nodes: dict[str, NodeItem] = {}
        self.edges: dict[EdgeKey, EdgeItem] = {}
        self.ghosts: dict[str, NodeItem] = {}
        self.looks: Counter[str] = Counter()
        """How many nodes (ghosts aside) are drawn in each look, by its name, for the legend."""
        self._look_named: dict[str, NodeLook] = {}
        self.edge_types: Counter[str] = Counter()
        """How many edges are drawn of each type, for the legend."""
        self.outline = 0
        """Counts the changes to the picture's outline (nodes and edges that came or went,
        nodes that moved or took another look): the minimap and the legend, which draw only
        the outline, are drawn again only when it changed."""
        """Removed nodes drawn where they were, while two moments are compared."""
        self.bounds = QRectF()
        """The box around every node, as of the last show."""
        self.detail = True
        """Whether text and arrowheads are drawn (False when zoomed out)."""
        self.detail_area = QRectF()
        """The part of the scene the view shows: nodes and edges in it get their text and
        arrowheads made (in detail), the others only when the view comes to them."""
        # No spatial index: at 13,000 items building one costs 140 ms on the first paint and
        # more on each removal, while a scan finds what to paint in under a millisecond.
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.setBackgroundBrush(QBrush(self.colors.background))

    def show(self, projection: Projection, positions: Mapping[str, Position]) -> None:
        """Draw ``projection`` with nodes in the slots at ``positions``, reusing what it can."""
        for _step in self.show_in_steps(projection, positions):
            pass

    def show_in_steps(
        self,
        projection: Projection,
        positions: Mapping[str, Position],
        drawing: Drawing | None = None,
    ) -> Iterator[None]:
        """``show``, a node or an edge at a time: a pause after each, so that a big graph can be
        drawn over several turns of the event loop. Stopped half way, the scene holds part of
        the new graph; the next show carries on from there. ``drawing`` is the projection's,
        when it was worked out already."""
        drawing = drawing or Drawing.of(projection, positions)
        gone = self.nodes.keys() - drawing.sources.keys()
        fresh = drawing.sources.keys() - self.nodes.keys()
        for node_id in gone:
            self._remove_nodes([node_id])
            yield
        spare = self._spare_places(drawing, fresh, positions)
        moved = bool(gone or fresh)
        for drawn in self._draw_nodes(projection, drawing, spare):
            moved = drawn or moved
            yield
        yield from self._sync_edges(drawing.edges)
        if moved or self.bounds.isNull():
            self.bounds = self.nodes_rect()
            self.setSceneRect(self.bounds.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN))

    def shown_looks(self) -> list[NodeLook]:
        """The looks of the nodes drawn (ghosts aside), once each."""
        return [self._look_named[name] for name in self.looks]

    def drawn_rect(self) -> QRectF:
        """The box around every node and ghost."""
        bounds = self.bounds
        for ghost in self.ghosts.values():
            bounds = bounds.united(ghost.scene_rect())
        return bounds

    def nodes_rect(self) -> QRectF:
        """The box around every node."""
        boxes = [item.box for item in self.nodes.values()]
        if not boxes:
            return QRectF()
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
        return QRectF(left, top, right - left, bottom - top)

    def set_detail(self, detail: bool) -> None:
        """Draw text and arrowheads (close up) or leave them out (zoomed out)."""
        if detail == self.detail:
            return
        self.detail = detail
        for node in [*self.nodes.values(), *self.ghosts.values()]:
            node.set_detail(detail)
        for edge in self.edges.values():
            if edge.arrow is not None:
                edge.arrow.setVisible(detail)

    def reveal(self, area: QRectF) -> None:
        """Note the part of the scene the view shows, and (in detail) make the text and
        arrowheads of the nodes and edges in it."""
        self.detail_area = QRectF(area)
        if not self.detail or area.isEmpty():
            return
        for item in self.items(area, Qt.ItemSelectionMode.IntersectsItemBoundingRect):
            if isinstance(item, NodeItem | EdgeItem):
                item.make_detail()

    def event(self, event: QEvent) -> bool:
        """Once active, the scene stays so: Qt passes each activation and deactivation of the
        window to every item, which at 15,000 items blocks the window for 30 ms or more each
        time a dialog opens or closes, and nothing here is drawn differently for it."""
        if event.type() in ACTIVATION and self.isActive():
            return True
        return super().event(event)

    def render(self, *args: Any, **kwargs: Any) -> None:
        """Paint the scene (an export): every node and edge in detail, as the view would."""
        if self.detail:
            for node in [*self.nodes.values(), *self.ghosts.values()]:
                node.make_detail()
            for edge in self.edges.values():
                edge.make_detail()
        super().render(*args, **kwargs)

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
        self.outline += 1
        item.set_detail(self.detail)
        self.addItem(item)
        return item

    def detail_if_shown(self, item: NodeItem | EdgeItem, box: QRectF) -> None:
        """Make an item's text or arrowhead now when it lies, in detail, where the view looks."""
        if self.detail and box.intersects(self.detail_area):
            item.make_detail()

    # Nodes --------------------------------------------------------------------------------

    def _draw_nodes(
        self, projection: Projection, drawing: Drawing, spare: Mapping[str, Position]
    ) -> Iterator[bool]:
        """Draw each node whose item is missing or drawn otherwise than asked, saying for each
        whether it may have moved; the nodes drawn as asked already (most of a big graph, from
        one show to the next) are passed over, with a pause every CHECKS_PER_PAUSE."""
        drawn = self.nodes
        attrs = projection.graph.nodes
        for count, (node_id, source) in enumerate(drawing.sources.items(), 1):
            place = source[-1]
            if place is None and node_id in spare:
                place = spare[node_id]
                source = (*source[:-1], place)
            item = drawn.get(node_id)
            if item is None or item.source != source:
                yield self._show_node(node_id, attrs[node_id], place)
            elif count % CHECKS_PER_PAUSE == 0:
                yield False

    def _show_node(self, node_id: str, attrs: dict[str, Any], place: Position | None) -> bool:
        """Draw one node as asked; whether its item was made again or may have moved."""
        item = self.nodes.get(node_id)
        hidden = len(attrs.get("hidden") or ())
        source = _source(attrs, place)
        if item is not None and item.source == source:
            return False  # drawn as it is asked for
        look = look_for(attrs["type"], (attrs.get("data") or {}).get("kind"))
        if item is not None and item.look != look:
            self._remove_nodes([node_id])
            item = None
        if item is None:
            item = self.nodes[node_id] = self.make_node(node_id, look)
            self.looks[look.name] += 1
            self._look_named[look.name] = look
        item.source = source
        label, caption = attrs["label"], node_caption(node_id, attrs)
        if item.words != (label, caption) or item.hidden_count != hidden:
            item.show_data(label, caption, _tooltip(node_id, label, caption, hidden))
            item.set_hidden_count(hidden, self.detail)
        if place is not None and item.place_at(place):
            self.outline += 1
        if self.detail and item.label is None:
            self.detail_if_shown(item, item.scene_rect())
        return True

    def _remove_nodes(self, node_ids: Iterable[str]) -> None:
        self.outline += 1
        for node_id in node_ids:
            item = self.nodes.pop(node_id)
            _count_down(self.looks, item.look.name)
            for edge in list(item.edges):
                self._remove_edge(edge)
            self.removeItem(item)

    def _spare_places(
        self, drawing: Drawing, fresh: set[str], positions: Mapping[str, Position]
    ) -> dict[str, Position]:
        """Places in a grid below everything for new nodes the layout gave no position."""
        if not fresh:
            return {}
        unplaced = [n for n in drawing.sources if n not in positions and n in fresh]
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

    def _sync_edges(self, wanted: frozenset[EdgeKey]) -> Iterator[None]:
        for key in self.edges.keys() - wanted:
            self._remove_edge(self.edges[key])
            yield
        for key in wanted - self.edges.keys():
            self._add_edge(key)
            yield

    def _add_edge(self, key: EdgeKey) -> None:
        self.outline += 1
        source, edge_type, target = key
        nodes = self.nodes
        edge = EdgeItem(key, nodes[source], nodes[target])
        edge.refresh()
        self.addItem(edge)
        self.edges[key] = edge
        self.edge_types[edge_type] += 1
        if self.detail:
            self.detail_if_shown(edge, edge.path().controlPointRect())

    def _remove_edge(self, edge: EdgeItem) -> None:
        self.outline += 1
        edge.detach()
        if self.edges.pop(edge.key, None) is not None:
            _count_down(self.edge_types, edge.edge_type)
        self.removeItem(edge)


def _count_down(counts: Counter[Any], key: object) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]


def _source(attrs: dict[str, Any], place: Position | None) -> Source:
    """What a node item is drawn from: when this is unchanged, so is the item."""
    hidden = len(attrs.get("hidden") or ())
    return (attrs["type"], attrs["label"], attrs.get("data"), hidden, place)


def _tooltip(node_id: str, label: str, caption: str, hidden: int) -> str:
    lines = [label, caption, node_id]
    if hidden:
        lines.append(f"{hidden} more neighbour{'' if hidden == 1 else 's'} hidden")
    return "\n".join(lines)


def _point(position: QPointF | Position) -> Position:
    if isinstance(position, QPointF):
        return position.x(), position.y()
    return float(position[0]), float(position[1])
