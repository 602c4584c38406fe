"""The board: a column per status, each a list of cards, one card selected at a time.

Each read of the queue is shown by changing the cards in place: a card keeps its widget while
its item stays on the board, so reading the queue every second neither flickers nor loses the
keyboard focus."""

from collections.abc import Iterable
from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from studio.model.work_items import WorkItem
from studio.ui.work.work_card import CARD_WIDTH, WorkCard
from studio.ui.work.work_look import COLUMNS, Column, board_order, column_of

MOST_CARDS = 150
"""A column shows at most this many cards, and says how many more there are."""


class BoardColumn(QFrame):
    """One status column: its heading with a count, then its cards top to bottom."""

    def __init__(self, column: Column, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.column = column
        self.setObjectName(f"workColumn-{column.name}")
        self.setMinimumWidth(CARD_WIDTH)
        self.heading = QLabel(column.heading)
        self.heading.setStyleSheet("font-weight: bold; padding: 2px 4px;")
        self.empty = QLabel("Nothing here")
        self.empty.setStyleSheet("color: palette(placeholder-text); padding: 4px;")
        self.more = QLabel()
        self.more.setStyleSheet("color: palette(placeholder-text); padding: 4px;")
        self.cards_box = QWidget()
        self.cards_layout = QVBoxLayout(self.cards_box)
        self.cards_layout.setContentsMargins(2, 2, 6, 2)
        self.cards_layout.setSpacing(6)
        self.cards_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setObjectName(f"workColumnCards-{column.name}")
        scroll.setAccessibleName(f"{column.heading} work items")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self.cards_box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 0, 4)
        layout.addWidget(self.heading)
        layout.addWidget(self.empty)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.more)
        self.shown_ids: list[str] = []

    def show_cards(self, cards: list[WorkCard], total: int) -> None:
        """Show these cards in this order (the column has ``total`` items in all)."""
        ids = [card.item.id for card in cards]
        if ids != self.shown_ids:
            for index, card in enumerate(cards):
                _take_out(card)
                self.cards_layout.insertWidget(index, card)
            self.shown_ids = ids
        self.heading.setText(f"{self.column.heading} · {total}")
        self.empty.setVisible(total == 0)
        self.more.setText(f"{total - len(cards)} more not shown")
        self.more.setVisible(total > len(cards))


class WorkBoard(QScrollArea):
    """Every column side by side; scrolls sideways when the window is narrow."""

    picked = Signal(str)  # the id of the item a person selected

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workBoard")
        self.setAccessibleName("Work board")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        inner = QWidget()
        row = QHBoxLayout(inner)
        row.setContentsMargins(6, 6, 6, 6)
        row.setSpacing(8)
        self.columns = {column.name: BoardColumn(column) for column in COLUMNS}
        for column in self.columns.values():
            row.addWidget(column, 1)
        self.setWidget(inner)
        self.cards: dict[str, WorkCard] = {}
        self.items: dict[str, WorkItem] = {}
        self.selected: str | None = None

    def show_items(self, items: Iterable[WorkItem], now: datetime) -> None:
        """Show the queue as read: every item in its status's column."""
        self.items = {item.id: item for item in items}
        by_column: dict[str, list[WorkItem]] = {name: [] for name in self.columns}
        for item in self.items.values():
            by_column[column_of(item.status)].append(item)
        keep: dict[str, WorkCard] = {}
        for name, column in self.columns.items():
            ordered = board_order(name, by_column[name])
            cards = [self._card(item, now, keep) for item in ordered[:MOST_CARDS]]
            column.show_cards(cards, len(ordered))
        for item_id, card in self.cards.items():
            if item_id not in keep:
                _take_out(card)
                card.hide()
                card.deleteLater()
        self.cards = keep

    def tick(self, now: datetime) -> None:
        """Count every lease down to ``now``."""
        for card in self.cards.values():
            card.tick(now)

    def select(self, item_id: str | None) -> None:
        """Mark the item's card as selected (and no other); scrolls it into view."""
        self.selected = item_id
        for card_id, card in self.cards.items():
            card.set_selected(card_id == item_id)
        chosen = self.cards.get(item_id or "")
        if chosen is not None:
            column = self.columns[column_of(chosen.item.status)]
            scroll = column.findChild(QScrollArea)
            if scroll is not None:
                scroll.ensureWidgetVisible(chosen)

    def selected_item(self) -> WorkItem | None:
        """The selected item as last read, or None."""
        return self.items.get(self.selected or "")

    def card(self, item_id: str) -> WorkCard | None:
        return self.cards.get(item_id)

    def column_ids(self, column: str) -> list[str]:
        """The ids of the cards a column shows, top to bottom."""
        return list(self.columns[column].shown_ids)

    def _card(self, item: WorkItem, now: datetime, keep: dict[str, WorkCard]) -> WorkCard:
        card = self.cards.get(item.id)
        if card is None:
            card = WorkCard(item)
            card.picked.connect(self._pick)
        elif card.item != item:
            card.show_item(item, now)
        card.set_selected(item.id == self.selected)
        card.tick(now)
        keep[item.id] = card
        return card

    def _pick(self, item_id: str) -> None:
        self.select(item_id)
        self.picked.emit(item_id)


def _take_out(card: WorkCard) -> None:
    """Take a card out of the column it is in, to put it elsewhere or drop it."""
    box = card.parentWidget()
    layout = box.layout() if box is not None else None
    if layout is not None:
        layout.removeWidget(card)
