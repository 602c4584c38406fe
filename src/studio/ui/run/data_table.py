"""A list of records as a table model: one row per record, one column per key, each cell's text
made only when the view asks for it, so ten thousand rows load at once."""

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from studio.ui.run.data_shape import MISSING_RANK, cell_text, columns_of, sort_key

Index = QModelIndex | QPersistentModelIndex
ROOT = QModelIndex()
TOOLTIP_CHARACTERS = 400
"""A cell's tooltip shows at most this much of its text."""
NUMBER_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
TEXT_ALIGNMENT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter


class RecordTableModel(QAbstractTableModel):
    """Records as rows; sorting reorders a list of row numbers, never the records."""

    def __init__(self, records: list[dict[str, Any]] | None = None) -> None:
        super().__init__()
        self.records: list[dict[str, Any]] = []
        self.columns: list[str] = []
        self._order: list[int] = []
        if records:
            self.set_records(records)

    def set_records(self, records: list[dict[str, Any]]) -> None:
        """Show ``records`` in their own order, with the union of their keys as columns."""
        self.beginResetModel()
        self.records = records
        self.columns = columns_of(records)
        self._order = list(range(len(records)))
        self.endResetModel()

    def record_at(self, row: int) -> dict[str, Any]:
        """The record shown in ``row`` (after sorting)."""
        return self.records[self._order[row]]

    def rowCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(self._order)

    def columnCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        record = self.record_at(index.row())
        column = self.columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return cell_text(record[column]) if column in record else ""
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tooltip(record, column)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _alignment(record.get(column))
        if role == Qt.ItemDataRole.ForegroundRole and record.get(column) is None:
            return _dim_colour()
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self.columns[section] if section < len(self.columns) else None
        return str(self._order[section] + 1) if section < len(self._order) else None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Order the rows by one column, null and missing values last; no column (a cleared
        sort) gives the records' own order back."""
        rows = list(range(len(self.records)))
        if 0 <= column < len(self.columns):
            rows = _sorted_rows(self.records, self.columns[column], order)
        self.layoutAboutToBeChanged.emit()
        self._order = rows
        self.layoutChanged.emit()


def _sorted_rows(records: list[dict[str, Any]], column: str, order: Qt.SortOrder) -> list[int]:
    keys = [sort_key(record.get(column), column in record) for record in records]
    present = [row for row, key in enumerate(keys) if key[0] != MISSING_RANK]
    missing = [row for row, key in enumerate(keys) if key[0] == MISSING_RANK]
    present.sort(key=keys.__getitem__, reverse=order == Qt.SortOrder.DescendingOrder)
    return present + missing


def _tooltip(record: dict[str, Any], column: str) -> str | None:
    if column not in record:
        return f"No “{column}” in this record"
    text = cell_text(record[column])
    if len(text) > TOOLTIP_CHARACTERS:
        return text[:TOOLTIP_CHARACTERS] + "…"
    return text


def _alignment(value: Any) -> int:
    is_number = isinstance(value, int | float) and not isinstance(value, bool)
    return (NUMBER_ALIGNMENT if is_number else TEXT_ALIGNMENT).value


def _dim_colour() -> QColor:
    """The colour of null and missing cells: the palette's placeholder text."""
    return QApplication.palette().color(QPalette.ColorRole.PlaceholderText)
