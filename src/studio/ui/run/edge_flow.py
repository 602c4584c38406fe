"""An edge that carried data in a run: highlighted, with the item count and a hover preview."""

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPointF
from PySide6.QtGui import QBrush, QColor, QPen
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsSceneHoverEvent, QGraphicsSimpleTextItem

from studio.ui.canvas.items import EdgeItem

PREVIEW_CHARACTERS = 600
SEE_IT_ALL = "Select the edge to see all of it in the Runs panel."


class FlowLabel(QGraphicsRectItem):
    """'3 items' at the middle of an edge; hovering shows what went through."""

    def __init__(self, edge: EdgeItem, colour: QColor, preview: Callable[[], Any]) -> None:
        super().__init__(edge)
        self.preview = preview
        self.text = QGraphicsSimpleTextItem(self)
        self.text.setBrush(QBrush(colour))
        self.setPen(QPen(colour, 1))
        background = QColor(edge.colors.background)
        self.setBrush(QBrush(background))
        self.setAcceptHoverEvents(True)
        self.setZValue(3)

    def show_text(self, text: str, at: QPointF) -> None:
        """Put ``text`` in a small box centred on ``at``."""
        self.text.setText(text)
        box = self.text.boundingRect().adjusted(-5, -2, 5, 2)
        self.setRect(box)
        self.setPos(at.x() - box.width() / 2 + 5, at.y() - box.height() / 2 + 2)

    def hoverEnterEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self.setToolTip(preview_text(self.preview()))
        super().hoverEnterEvent(event)


class EdgeFlow:
    """The run's mark on one edge; ``remove`` gives the edge its own look back."""

    def __init__(self, edge: EdgeItem, colour: QColor, preview: Callable[[], Any]) -> None:
        self.edge = edge
        self.colour = colour
        edge.setPen(QPen(colour, 3.0))
        edge.arrow.setPen(QPen(colour, 1))
        edge.arrow.setBrush(QBrush(colour))
        self.label = FlowLabel(edge, colour, preview)

    def show_items(self, items: int | None) -> None:
        """Label the edge with how many items went through it."""
        text = "data" if items is None else f"{items} item" + ("" if items == 1 else "s")
        self.label.show_text(text, self.edge.path().pointAtPercent(0.5))

    def set_opacity(self, value: float) -> None:
        """Fade the highlight with the rest of the overlay."""
        self.label.setOpacity(value)

    def remove(self) -> None:
        """Take the highlight and the label off the edge."""
        scene = self.label.scene()
        if scene is not None:
            scene.removeItem(self.label)
        if self.edge.scene() is not None:
            self.edge.apply_colors()


def preview_text(output: Any) -> str:
    """A node output as short, readable JSON for a tooltip; a long one is cut short, with
    where to see all of it."""
    if output is None:
        return "no output recorded"
    text = json.dumps(output, indent=2, ensure_ascii=False, default=str)
    if len(text) > PREVIEW_CHARACTERS:
        text = f"{text[:PREVIEW_CHARACTERS]}\n…\n{SEE_IT_ALL}"
    return text
