"""Sizes and colours of the canvas, taken from the application palette so both themes work."""

from dataclasses import dataclass
from functools import cached_property

from PySide6.QtGui import QBrush, QColor, QPalette, QPen
from PySide6.QtWidgets import QApplication

NODE_WIDTH = 200.0
NODE_HEIGHT = 64.0
PORT_RADIUS = 6.0
GRID = 20.0
KIND_GLYPHS = {
    "echo": "E",
    "shell": "$",
    "python": "Py",
    "http": "⇄",
    "llm": "AI",
    "approval": "✓",
    "transform": "ƒ",
    "artifact": "▤",
}


@dataclass(frozen=True)
class CanvasColors:
    """The colours one theme paints the canvas with."""

    background: QColor
    grid: QColor
    node_fill: QColor
    node_border: QColor
    node_selected: QColor
    text: QColor
    muted_text: QColor
    edge: QColor
    port: QColor
    warning: QColor

    @cached_property
    def node_brush(self) -> QBrush:
        """A node's fill (made once: thousands of nodes share it)."""
        return QBrush(self.node_fill)

    @cached_property
    def port_brush(self) -> QBrush:
        """A port's fill."""
        return QBrush(self.port)

    @cached_property
    def port_pen(self) -> QPen:
        """A port's ring, in the node's fill colour so it stands off the node's border."""
        return QPen(self.node_fill, 2)

    @cached_property
    def node_pens(self) -> dict[str, QPen]:
        """A node's outline: "selected", "known" (its agent is) or "unknown"."""
        return {
            "selected": QPen(self.node_selected, 2.5),
            "known": QPen(self.node_border, 1.2),
            "unknown": QPen(self.warning, 1.2),
        }

    @cached_property
    def edge_pens(self) -> dict[bool, QPen]:
        """An edge's curve, plain (False) and selected (True)."""
        return {False: QPen(self.edge, 1.6), True: QPen(self.node_selected, 2.5)}

    @cached_property
    def arrow_pens(self) -> dict[bool, QPen]:
        """An arrowhead's outline, plain (False) and selected (True)."""
        return {False: QPen(self.edge, 1), True: QPen(self.node_selected, 1)}

    @cached_property
    def arrow_brushes(self) -> dict[bool, QBrush]:
        """An arrowhead's fill, plain (False) and selected (True)."""
        return {False: QBrush(self.edge), True: QBrush(self.node_selected)}


def canvas_colors() -> CanvasColors:
    """Colours for the current palette: light or dark, whichever the application uses."""
    palette = QApplication.palette()
    base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
    dark = base.lightness() < 128
    highlight = palette.color(QPalette.ColorRole.Highlight)
    return CanvasColors(
        background=base.darker(106) if not dark else base.lighter(115),
        grid=QColor(128, 128, 128, 40),
        node_fill=base if not dark else base.lighter(140),
        node_border=QColor(120, 120, 120) if not dark else QColor(150, 150, 150),
        node_selected=highlight,
        text=text,
        muted_text=QColor(110, 110, 110) if not dark else QColor(170, 170, 170),
        edge=QColor(100, 100, 110) if not dark else QColor(170, 170, 180),
        port=QColor(90, 120, 200),
        warning=QColor(200, 120, 0),
    )
