"""How the knowledge graph looks: a shape, size and colour per node type, a pen per relationship.

Artifacts are documents (a folded corner) coloured by kind, runs are pills, typed items are cards
coloured by item type, units are hexagons and sections small plain boxes. Colours of unnamed
kinds and types are picked from a fixed set by a stable hash, so a kind keeps its colour between
sessions. Fills are mixed from the palette's base colour, so both themes stay readable."""

import zlib
from dataclasses import dataclass
from functools import cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPixmap, QPolygonF

from studio.knowledge.graph_layout import NODE_H, NODE_W
from studio.model.knowledge import ARTIFACT, RUN, SECTION, UNIT
from studio.ui.canvas.style import CanvasColors

DOCUMENT, PILL, CARD, HEXAGON, BOX = "document", "pill", "card", "hexagon", "box"
SLOT = (NODE_W, NODE_H)
"""The box the layout gives every node; a position is its top-left corner, and each shape is
centred in it."""
SIZES = {
    DOCUMENT: (NODE_W, NODE_H),
    PILL: (NODE_W - 36, NODE_H - 10),
    CARD: (NODE_W - 4, NODE_H - 2),
    HEXAGON: (NODE_W, NODE_H),
    BOX: (NODE_W - 40, NODE_H - 18),
}
"""Width and height of each shape, none larger than the slot."""
TEXT_INSET = {DOCUMENT: 10.0, PILL: 18.0, CARD: 10.0, HEXAGON: 22.0, BOX: 8.0}
"""How far from the left and right edges the text starts, so it stays inside the shape."""

NAMED_COLOURS = {
    # artifact kinds
    "requirements": "#2f7ed8",
    "personas": "#8e44ad",
    "stories": "#16a085",
    "design": "#d35400",
    "unit-plan": "#7f8c8d",
    # item types
    "requirement": "#1f6fd0",
    "story": "#12a37f",
    "persona": "#9b59b6",
    "component": "#e67e22",
    "decision": "#c0392b",
    "contract": "#b8860b",
    # the fixed node types
    RUN: "#5b6bbf",
    UNIT: "#2e8b57",
    SECTION: "#8a8f98",
}
SPARE_COLOURS = ("#3b8ea5", "#b5527a", "#6a8d2f", "#a0672a", "#6c5ce7", "#c44569", "#2d8659")


@dataclass(frozen=True)
class NodeLook:
    """What one kind of node looks like: its shape, size, colour and legend name."""

    shape: str
    color: QColor
    name: str
    """The legend entry: "artifact: design", "run", "requirement" ..."""

    @property
    def size(self) -> tuple[float, float]:
        """Width and height."""
        return SIZES[self.shape]


@dataclass(frozen=True)
class EdgeLook:
    """How edges of one family are drawn."""

    family: str
    color: QColor
    dash: Qt.PenStyle


EDGE_FAMILIES = {
    "PRODUCES": "provenance",
    "CONSUMES": "provenance",
    "DERIVED_FROM": "derivation",
    "HAS_ITEM": "containment",
    "HAS_SECTION": "containment",
    "CITES": "citation",
    "RELATES_TO": "citation",
    "COVERS": "traceability",
    "IMPLEMENTS": "traceability",
    "FOR_PERSONA": "traceability",
    "DEPENDS_ON": "dependency",
    "CONSUMES_CONTRACT": "dependency",
    "EXPOSES": "dependency",
}
FAMILY_PENS = {
    "provenance": ("#4a6fd1", Qt.PenStyle.SolidLine),
    "derivation": ("#8a8f98", Qt.PenStyle.SolidLine),
    "containment": ("#9aa0a8", Qt.PenStyle.DotLine),
    "citation": ("#9b59b6", Qt.PenStyle.DashLine),
    "traceability": ("#27a06a", Qt.PenStyle.SolidLine),
    "dependency": ("#d9822b", Qt.PenStyle.DashDotLine),
    "other": ("#8a8f98", Qt.PenStyle.SolidLine),
}
ADDED, CHANGED, REMOVED = QColor("#2ea44f"), QColor("#e0a000"), QColor("#d73a49")
"""Compare mode: added green, changed amber, removed (ghosts) red."""


def look_for(node_type: str, kind: str | None = None) -> NodeLook:
    """The look of a node of this type (and, for an artifact, of this kind)."""
    return _look(node_type, kind or "")


@cache
def _look(node_type: str, kind: str) -> NodeLook:
    if node_type == ARTIFACT:
        return NodeLook(DOCUMENT, colour_of(kind or ARTIFACT), f"artifact: {kind or '?'}")
    if node_type == RUN:
        return NodeLook(PILL, colour_of(RUN), "run")
    if node_type == UNIT:
        return NodeLook(HEXAGON, colour_of(UNIT), "unit")
    if node_type == SECTION:
        return NodeLook(BOX, colour_of(SECTION), "section")
    return NodeLook(CARD, colour_of(node_type), node_type)


def colour_of(name: str) -> QColor:
    """The colour of a kind or type: a named one, or a stable pick from the spare set."""
    chosen = NAMED_COLOURS.get(name)
    if chosen is None:
        chosen = SPARE_COLOURS[zlib.crc32(name.encode("utf-8")) % len(SPARE_COLOURS)]
    return QColor(chosen)


def edge_look(edge_type: str) -> EdgeLook:
    """The pen family of a relationship; an unknown one is drawn plain."""
    family = EDGE_FAMILIES.get(edge_type, "other")
    colour, dash = FAMILY_PENS[family]
    return EdgeLook(family, QColor(colour), dash)


def fill_for(look: NodeLook, colors: CanvasColors, strength: float = 1.0) -> QBrush:
    """The node's fill: its colour mixed into the theme's node background (``strength``
    times the usual amount, at most the colour itself)."""
    return _fill(look.color.rgba(), colors.node_fill.rgba(), strength)


@cache
def _fill(colour: int, background: int, strength: float) -> QBrush:
    """One brush per colour, theme and strength, shared by every node (thousands)."""
    base = QColor.fromRgba(background)
    amount = min(1.0, (0.30 if base.lightness() < 128 else 0.14) * strength)
    return QBrush(mix(base, QColor.fromRgba(colour), amount))


def mix(base: QColor, tint: QColor, amount: float) -> QColor:
    """``base`` moved ``amount`` (0..1) of the way towards ``tint``."""
    return QColor(
        round(base.red() + (tint.red() - base.red()) * amount),
        round(base.green() + (tint.green() - base.green()) * amount),
        round(base.blue() + (tint.blue() - base.blue()) * amount),
    )


@cache
def shape_path(shape: str) -> QPainterPath:
    """The outline of a shape, with its top left corner at (0, 0)."""
    width, height = SIZES[shape]
    path = QPainterPath()
    if shape == DOCUMENT:
        fold = 12.0
        path.addPolygon(
            QPolygonF(
                [
                    QPointF(0, 0),
                    QPointF(width - fold, 0),
                    QPointF(width, fold),
                    QPointF(width, height),
                    QPointF(0, height),
                    QPointF(0, 0),
                ]
            )
        )
        path.moveTo(width - fold, 0)
        path.lineTo(width - fold, fold)
        path.lineTo(width, fold)
    elif shape == PILL:
        path.addRoundedRect(QRectF(0, 0, width, height), height / 2, height / 2)
    elif shape == CARD:
        path.addRoundedRect(QRectF(0, 0, width, height), 7, 7)
    elif shape == HEXAGON:
        side = 16.0
        path.addPolygon(_hexagon(width, height, side))
    else:
        path.addRect(QRectF(0, 0, width, height))
    return path


def _hexagon(width: float, height: float, side: float) -> QPolygonF:
    middle = height / 2
    return QPolygonF(
        [
            QPointF(side, 0),
            QPointF(width - side, 0),
            QPointF(width, middle),
            QPointF(width - side, height),
            QPointF(side, height),
            QPointF(0, middle),
            QPointF(side, 0),
        ]
    )


def look_icon(look: NodeLook, colors: CanvasColors, width: int = 30) -> QPixmap:
    """A small picture of a node's shape and colour, for the legend."""
    node_width, node_height = look.size
    scale = width / node_width
    height = max(8, round(node_height * scale))
    pixmap = QPixmap(width + 2, height + 2)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.translate(1, 1)
    painter.scale(scale, height / node_height)
    painter.setPen(QPen(look.color, 2.0 / scale))
    painter.setBrush(fill_for(look, colors))
    painter.drawPath(shape_path(look.shape))
    painter.end()
    return pixmap


def edge_icon(look: EdgeLook, width: int = 30) -> QPixmap:
    """A short stroke in an edge family's pen, for the legend."""
    pixmap = QPixmap(width, 10)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(look.color, 2, look.dash))
    painter.drawLine(QPointF(1, 5), QPointF(width - 1, 5))
    painter.end()
    return pixmap
