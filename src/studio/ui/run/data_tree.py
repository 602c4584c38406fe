"""Nested JSON as a tree of keys and values; an object's or array's members are made when it
is first expanded, so a large value opens at once."""

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from studio.ui.run.data_shape import cell_text
from studio.ui.run.data_table import TOOLTIP_CHARACTERS

VALUE_ROLE = Qt.ItemDataRole.UserRole
FILLED_ROLE = Qt.ItemDataRole.UserRole + 1
FIRST_LEVEL_OPEN = 10
"""A value with at most this many members opens with its first level expanded."""


def summary(value: Any) -> str:
    """How a value reads on its row: a container's size, or the value itself."""
    if isinstance(value, dict):
        return "{1 key}" if len(value) == 1 else f"{{{len(value)} keys}}"
    if isinstance(value, list):
        return "[1 item]" if len(value) == 1 else f"[{len(value)} items]"
    return cell_text(value)


def members(value: Any) -> list[tuple[str, Any]]:
    """An object's keys or an array's positions, with their values."""
    if isinstance(value, dict):
        return [(str(key), member) for key, member in value.items()]
    if isinstance(value, list):
        return [(f"[{index}]", member) for index, member in enumerate(value)]
    return []


class DataTree(QTreeWidget):
    """One JSON value as Key | Value rows; containers expand to their members."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._values: list[Any] = []  # the containers shown, by the number their row holds
        self.setHeaderLabels(["Key", "Value"])
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.header().setStretchLastSection(True)
        self.itemExpanded.connect(self._fill)

    def show_value(self, value: Any) -> None:
        """Show ``value``'s members at the top level (or the value itself when it is a scalar)."""
        self.clear()
        self._values = []
        pairs = members(value) if isinstance(value, dict | list) else [("value", value)]
        items = [self._item(key, member) for key, member in pairs]
        self.addTopLevelItems(items)
        if len(items) <= FIRST_LEVEL_OPEN:
            for item in items:
                item.setExpanded(item.childCount() > 0)
        self.resizeColumnToContents(0)

    def _fill(self, item: QTreeWidgetItem) -> None:
        if item.data(0, FILLED_ROLE):
            return
        item.setData(0, FILLED_ROLE, True)
        item.takeChildren()
        value = self._values[item.data(0, VALUE_ROLE)]
        item.addChildren([self._item(key, member) for key, member in members(value)])

    def _item(self, key: str, value: Any) -> QTreeWidgetItem:
        text = summary(value)
        item = QTreeWidgetItem([key, text])
        item.setToolTip(1, text[:TOOLTIP_CHARACTERS])
        if _is_container(value):
            item.setData(0, VALUE_ROLE, len(self._values))
            self._values.append(value)
            item.addChild(QTreeWidgetItem(["…"]))  # stands in for the members until expanded
        return item


def _is_container(value: Any) -> bool:
    return isinstance(value, dict | list) and bool(value)
