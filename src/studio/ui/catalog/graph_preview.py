"""A workflow's graph drawn small, from its model: boxes where the nodes sit, curves for the
edges (conditional ones dashed, in another colour), placeholder agents outlined as a warning.

The shape is worked out once per blueprint (laid out when its nodes have no positions), then
painted into a pixmap the first time a card asks for it; later paints reuse the pixmap."""

from collections.abc import Hashable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap

from studio.model import Workflow
from studio.model.layout import laid_out_if_needed
from studio.model.publish_rules import PLACEHOLDER_PREFIX
from studio.ui.canvas.items import curve_between
from studio.ui.canvas.style import NODE_HEIGHT, NODE_WIDTH, canvas_colors

MARGIN = 8.0
"""Room around the graph inside a preview, in pixels."""
LARGEST_SCALE = 0.5
"""A graph of one or two nodes is not blown up beyond half its canvas size."""
CONDITION_COLOUR = QColor(124, 77, 214)
"""Conditional edges: violet and dashed, apart from the amber of placeholder agents."""


@dataclass(frozen=True)
class GraphOutline:
    """Where a workflow's nodes and edges are, in canvas units: what a preview paints."""

    boxes: dict[str, QRectF]
    placeholders: frozenset[str]
    links: tuple[tuple[str, str, bool], ...]
    """(source, target, conditional) for every edge between known nodes."""

    @property
    def bounds(self) -> QRectF:
        """The rectangle holding every node (empty for a workflow without nodes)."""
        bounds = QRectF()
        for box in self.boxes.values():
            bounds = bounds.united(box)
        return bounds


def outline_of(workflow: Workflow) -> GraphOutline:
    """The outline of a workflow, laid out first when its nodes sit on top of one another."""
    placed = laid_out_if_needed(workflow)
    boxes = {
        node.id: QRectF(node.position.x, node.position.y, NODE_WIDTH, NODE_HEIGHT)
        for node in placed.nodes
    }
    placeholders = frozenset(
        node.id for node in placed.nodes if node.agent_id.startswith(PLACEHOLDER_PREFIX)
    )
    links = tuple(
        (edge.source, edge.target, edge.condition is not None)
        for edge in placed.edges
        if edge.source in boxes and edge.target in boxes
    )
    return GraphOutline(boxes, placeholders, links)


def paint_outline(painter: QPainter, outline: GraphOutline, area: QRectF) -> None:
    """Paint ``outline`` scaled to fit ``area`` (centred, never enlarged past half size)."""
    bounds = outline.bounds
    if bounds.isEmpty():
        return
    room = area.adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)
    scale = min(room.width() / bounds.width(), room.height() / bounds.height(), LARGEST_SCALE)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.translate(room.center())
    painter.scale(scale, scale)
    painter.translate(-bounds.center())
    _paint_links(painter, outline, scale)
    _paint_boxes(painter, outline, scale)
    painter.restore()


def _paint_links(painter: QPainter, outline: GraphOutline, scale: float) -> None:
    colours = canvas_colors()
    width = 1.4 / scale
    plain = QPen(colours.edge, width)
    conditional = QPen(CONDITION_COLOUR, width * 1.3, Qt.PenStyle.DashLine)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for source, target, is_conditional in outline.links:
        start, end = outline.boxes[source], outline.boxes[target]
        painter.setPen(conditional if is_conditional else plain)
        painter.drawPath(
            curve_between(
                QPointF(start.right(), start.center().y()), QPointF(end.left(), end.center().y())
            )
        )


def _paint_boxes(painter: QPainter, outline: GraphOutline, scale: float) -> None:
    colours = canvas_colors()
    plain = QPen(colours.node_border, 1.2 / scale)
    warned = QPen(colours.warning, 2.0 / scale, Qt.PenStyle.DashLine)
    painter.setBrush(colours.node_fill)
    for node_id, box in outline.boxes.items():
        painter.setPen(warned if node_id in outline.placeholders else plain)
        painter.drawRoundedRect(box, 10, 10)
        painter.fillRect(_accent_bar(box), colours.port)


def _accent_bar(box: QRectF) -> QRectF:
    """The coloured strip at a node's left edge that makes a small box read as a node."""
    return QRectF(box.left() + 4, box.top() + 8, 8, box.height() - 16)


def preview_pixmap(workflow: Workflow, size: QSize, pixel_ratio: float = 1.0) -> QPixmap:
    """A transparent pixmap of ``size`` (logical pixels) with the workflow's graph in it."""
    pixmap = QPixmap(size * pixel_ratio)
    pixmap.setDevicePixelRatio(pixel_ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    paint_outline(painter, outline_of(workflow), QRectF(0, 0, size.width(), size.height()))
    painter.end()
    return pixmap


class PreviewCache:
    """Previews drawn on first request and kept: a card out of view costs nothing."""

    def __init__(self) -> None:
        self._pixmaps: dict[tuple[Hashable, int, int, float], QPixmap] = {}

    def pixmap(
        self, key: Hashable, workflow: Workflow, size: QSize, pixel_ratio: float = 1.0
    ) -> QPixmap:
        """The preview for ``key``, drawn now if it has not been drawn at this size."""
        entry = (key, size.width(), size.height(), pixel_ratio)
        pixmap = self._pixmaps.get(entry)
        if pixmap is None:
            pixmap = self._pixmaps[entry] = preview_pixmap(workflow, size, pixel_ratio)
        return pixmap

    def drawn(self, key: Hashable) -> bool:
        """Whether the preview for ``key`` has been drawn (at any size)."""
        return any(entry[0] == key for entry in self._pixmaps)

    def clear(self) -> None:
        """Forget every preview (the theme changed, or the catalog was read again)."""
        self._pixmaps.clear()

    def __len__(self) -> int:
        return len(self._pixmaps)
