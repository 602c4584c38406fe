"""Paints one catalog card: the blueprint's live preview, its name, category and node count,
its description cut to two lines, and a "Needs remapping" mark when an agent is a placeholder.

Only cards in view are painted, and a card's preview is drawn the first time it is painted."""

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from studio.model import Workflow
from studio.ui.canvas.style import canvas_colors
from studio.ui.catalog.catalog_model import FACTS_ROLE, WORKFLOW_ROLE, CardFacts
from studio.ui.catalog.graph_preview import PreviewCache

CARD_SIZE = QSize(260, 232)
"""A card's size, spacing included."""
SPACING = 8
PADDING = 10
PREVIEW_HEIGHT = 124
DESCRIPTION_LINES = 2
REMAPPING_MARK = "Needs remapping"
WARNING_FILL = QColor(214, 120, 0)
AnyIndex = QModelIndex | QPersistentModelIndex


def wrapped_lines(text: str, metrics: QFontMetrics, width: int, most: int) -> list[str]:
    """``text`` broken into at most ``most`` lines of ``width`` pixels, the last elided."""
    lines: list[str] = []
    words = text.split()
    while words and len(lines) < most:
        line = words.pop(0)
        while words and metrics.horizontalAdvance(f"{line} {words[0]}") <= width:
            line = f"{line} {words.pop(0)}"
        lines.append(line)
    if words and lines:
        rest = " ".join([lines[-1], *words])
        lines[-1] = metrics.elidedText(rest, Qt.TextElideMode.ElideRight, width)
    return [metrics.elidedText(line, Qt.TextElideMode.ElideRight, width) for line in lines]


class BlueprintCardDelegate(QStyledItemDelegate):
    """Draws the catalog's cards; keeps their previews in ``previews``."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.previews = PreviewCache()

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        return CARD_SIZE

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        card, workflow = index.data(FACTS_ROLE), index.data(WORKFLOW_ROLE)
        if not isinstance(card, CardFacts) or not isinstance(workflow, Workflow):
            return
        box = QRect(option.rect).adjusted(SPACING // 2, SPACING // 2, -SPACING // 2, -SPACING // 2)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._paint_frame(painter, option, box)
        self._paint_preview(painter, option, box, card, workflow)
        self._paint_words(painter, option, box, card)
        painter.restore()

    def _paint_frame(self, painter: QPainter, option: QStyleOptionViewItem, box: QRect) -> None:
        palette = option.palette
        chosen = bool(option.state & QStyle.StateFlag.State_Selected)
        border = palette.color(QPalette.ColorRole.Highlight if chosen else QPalette.ColorRole.Mid)
        painter.setPen(QPen(border, 2.5 if chosen else 1.0))
        painter.setBrush(palette.color(QPalette.ColorRole.Base))
        painter.drawRoundedRect(QRectF(box).adjusted(0.5, 0.5, -0.5, -0.5), 8, 8)

    def _paint_preview(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        box: QRect,
        card: CardFacts,
        workflow: Workflow,
    ) -> None:
        area = QRect(box.left() + 7, box.top() + 7, box.width() - 14, PREVIEW_HEIGHT - 6)
        painter.fillRect(area, canvas_colors().background)
        ratio = painter.device().devicePixelRatioF()
        pixmap = self.previews.pixmap(card.key, workflow, area.size(), ratio)
        painter.drawPixmap(area.topLeft(), pixmap)

    def _paint_mark(
        self, painter: QPainter, option: QStyleOptionViewItem, right: int, top: int
    ) -> int:
        """The "Needs remapping" pill, its right edge at ``right``; its width."""
        font = QFont(option.font)
        font.setPointSizeF(font.pointSizeF() * 0.85)
        font.setBold(True)
        metrics = QFontMetrics(font)
        width, height = metrics.horizontalAdvance(REMAPPING_MARK) + 12, metrics.height() + 2
        pill = QRectF(right - width, top, width, height)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(WARNING_FILL)
        painter.drawRoundedRect(pill, height / 2, height / 2)
        painter.setFont(font)
        painter.setPen(QColor("white"))
        painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, REMAPPING_MARK)
        return width + 6

    def _paint_words(
        self, painter: QPainter, option: QStyleOptionViewItem, box: QRect, card: CardFacts
    ) -> None:
        palette: QPalette = option.palette
        width = box.width() - 2 * PADDING
        left, top = box.left() + PADDING, box.top() + PREVIEW_HEIGHT + 8
        name_font = QFont(option.font)
        name_font.setBold(True)
        name_font.setPointSizeF(name_font.pointSizeF() * 1.1)
        top = _line(painter, name_font, card.name, left, top, width, palette.text().color())
        muted = palette.color(QPalette.ColorRole.PlaceholderText)
        plain = QFont(option.font)
        nodes = f"{card.node_count} node{'s' if card.node_count != 1 else ''}"
        facts = f"{card.category or 'Uncategorised'}  ·  {nodes}"
        mark = (
            self._paint_mark(painter, option, left + width, top + 2) if card.needs_remapping else 0
        )
        top = _line(painter, plain, facts, left, top + 2, width - mark, muted)
        metrics = QFontMetrics(plain)
        for line in wrapped_lines(card.description, metrics, width, DESCRIPTION_LINES):
            top = _line(painter, plain, line, left, top + 2, width, palette.text().color())


def _line(
    painter: QPainter, font: QFont, text: str, left: int, top: int, width: int, colour: QColor
) -> int:
    """Draw one line of ``text`` elided to ``width``; the top of the next line."""
    metrics = QFontMetrics(font)
    painter.setFont(font)
    painter.setPen(colour)
    shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
    painter.drawText(QRect(left, top, width, metrics.height()), Qt.AlignmentFlag.AlignLeft, shown)
    return top + metrics.height()
