"""The data a step took or gave, as a person wants to read it: a table for a list of records,
a tree for nested JSON, or the raw JSON; copied as JSON or CSV, or pinned as sample data."""

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QStackedWidget,
    QTableView,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.ui.run.data_shape import NOT_TABULAR, cell_text, csv_text, records_of
from studio.ui.run.data_table import RecordTableModel
from studio.ui.run.data_tree import DataTree, summary
from studio.ui.run.json_view import JsonView, pretty_json

TABLE, TREE, RAW = "table", "tree", "raw"
SIZING_ROWS = 200
"""Columns are sized to the text of about this many rows spread through the records."""
WIDEST_COLUMN = 320
NO_TABLE = "Not a list of records: see it as a tree or as raw JSON."
PIN_TIP = "Keep this output on the node as sample data for its template previews"


def _action(parent: QWidget, text: str, tip: str) -> QAction:
    action = QAction(text, parent)
    action.setToolTip(tip)
    return action


def _button_of(bar: QToolBar, action: QAction, name: str) -> QToolButton:
    button = bar.widgetForAction(action)
    if not isinstance(button, QToolButton):
        raise TypeError(f"no button for {action.text()!r}")
    button.setObjectName(name)
    button.setAccessibleName(action.text())
    return button


def record_table() -> QTableView:
    """A table view that sorts on a header click and never measures every row."""
    table = QTableView()
    table.setObjectName("dataTable")
    table.setAccessibleName("Data table")
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    header = table.horizontalHeader()
    header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # the records' own order
    header.setSortIndicatorClearable(True)
    header.setToolTip("Click a column's header to sort by it")
    rows = table.verticalHeader()
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(table.fontMetrics().height() + 6)
    table.setSortingEnabled(True)
    return table


class DataView(QWidget):
    """One value shown as a table, a tree or raw JSON; ``pinRequested`` carries the value when
    the person pins it (offered only where ``set_pinnable`` allows)."""

    pinRequested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._value: Any = None
        self._records: list[dict[str, Any]] | None = None
        self._present = False  # whether a value is shown (None is a value too)
        self._shown: set[str] = set()  # the tree and raw pages filled with the current value
        self._mode = TABLE
        self.model = RecordTableModel()
        self.table = record_table()
        self.table.setModel(self.model)
        self.tree = DataTree()
        self.tree.setObjectName("dataTree")
        self.tree.setAccessibleName("Data tree")
        self.raw = JsonView()
        self.raw.setObjectName("rawJson")
        self.raw.setAccessibleName("Raw JSON")
        self.placeholder = QLabel()
        self.placeholder.setObjectName("dataPlaceholder")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setEnabled(False)
        self.pages = QStackedWidget()
        for page in (self.placeholder, self.table, self.tree, self.raw):
            self.pages.addWidget(page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.setSpacing(2)
        bar = self._bar()
        self._name_buttons(bar)
        layout.addWidget(bar)
        layout.addWidget(self.pages, 1)
        self.show_nothing("")

    def _bar(self) -> QToolBar:
        """The way to show the value, the actions on it and its size; what does not fit
        goes behind the toolbar's overflow button."""
        self.table_action = _action(self, "Table", "Show the records as a table")
        self.tree_action = _action(self, "Tree", "Show the data as a tree you can expand")
        self.raw_action = _action(self, "Raw", "Show the data as JSON text")
        self.modes = QActionGroup(self)
        for action, mode in (
            (self.table_action, TABLE),
            (self.tree_action, TREE),
            (self.raw_action, RAW),
        ):
            action.setCheckable(True)
            action.triggered.connect(lambda _checked, mode=mode: self.set_mode(mode))
            self.modes.addAction(action)
        self.summary = QLabel()
        self.summary.setObjectName("dataSummary")
        self.summary.setContentsMargins(8, 0, 8, 0)
        self.copy_json_action = _action(self, "Copy as JSON", "Copy the data as JSON")
        self.copy_csv_action = _action(self, "Copy as CSV", "Copy the table as CSV")
        self.pin_action = _action(self, "Pin as sample data", PIN_TIP)
        self.copy_json_action.triggered.connect(self.copy_json)
        self.copy_csv_action.triggered.connect(self.copy_csv)
        self.pin_action.triggered.connect(self._pin)
        self.pin_action.setVisible(False)
        bar = QToolBar()
        bar.setObjectName("dataBar")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        bar.addActions([self.table_action, self.tree_action, self.raw_action])
        bar.addSeparator()
        bar.addActions([self.copy_json_action, self.copy_csv_action, self.pin_action])
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        bar.addWidget(spacer)
        bar.addWidget(self.summary)  # last, so it is the first to give way when narrow
        return bar

    def _name_buttons(self, bar: QToolBar) -> None:
        """The toolbar's buttons, named for tests and assistive technology."""
        self.table_button = _button_of(bar, self.table_action, "tableButton")
        self.tree_button = _button_of(bar, self.tree_action, "treeButton")
        self.raw_button = _button_of(bar, self.raw_action, "rawButton")
        self.copy_json_button = _button_of(bar, self.copy_json_action, "copyJsonButton")
        self.copy_csv_button = _button_of(bar, self.copy_csv_action, "copyCsvButton")
        self.pin_button = _button_of(bar, self.pin_action, "pinButton")
        for more in bar.findChildren(QToolButton, "qt_toolbar_ext_button"):
            more.setToolTip("More actions")
            more.setAccessibleName("More actions")

    # What is shown ----------------------------------------------------------------------

    def show_value(self, value: Any) -> None:
        """Show ``value``: as a table when it is a list of records, else as a tree (or in the
        way the person last chose, when that suits it)."""
        self._value, self._records, self._shown = value, records_of(value), set()
        self._present = True
        tabular = self._records is not None
        if self._records is not None:
            self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            self.model.set_records(self._records)
            self._size_columns()
        for action in self._value_actions():
            action.setEnabled(True)
        self.table_action.setEnabled(tabular)
        self.table_action.setToolTip("Show the records as a table" if tabular else NO_TABLE)
        self.copy_csv_action.setEnabled(tabular)
        self.copy_csv_action.setToolTip("Copy the table as CSV" if tabular else NOT_TABULAR)
        self.pin_action.setText("Pin as sample data")
        self.summary.setText(self._summary_text())
        self.set_mode(self._mode, chosen=False)

    def show_nothing(self, reason: str) -> None:
        """Show no value, with ``reason`` greyed in its place (e.g. "No output")."""
        self._value, self._records, self._shown = None, None, set()
        self._present = False
        self.model.set_records([])
        self.placeholder.setText(reason)
        self.pages.setCurrentWidget(self.placeholder)
        self.summary.setText("")
        for action in self._value_actions():
            action.setEnabled(False)
        self.copy_csv_action.setToolTip(NOT_TABULAR)

    def set_pinnable(self, pinnable: bool) -> None:
        """Offer (or not) to pin the value shown as its node's sample data."""
        self.pin_action.setVisible(pinnable)

    def set_mode(self, mode: str, chosen: bool = True) -> None:
        """Show the value as a table, a tree or raw JSON; a ``chosen`` mode is kept for the
        next value where it suits."""
        if not self._present:
            return
        if mode == TABLE and self._records is None:
            mode = TREE
        if chosen:
            self._mode = mode
        if mode not in self._shown:
            self._fill(mode)
        page, action = {
            TABLE: (self.table, self.table_action),
            TREE: (self.tree, self.tree_action),
            RAW: (self.raw, self.raw_action),
        }[mode]
        action.setChecked(True)
        self.pages.setCurrentWidget(page)

    def mode(self) -> str:
        """How the value is shown now: table, tree, raw (or nothing)."""
        page = self.pages.currentWidget()
        modes = ((self.table, TABLE), (self.tree, TREE), (self.raw, RAW))
        return next((mode for widget, mode in modes if widget is page), "")

    def value(self) -> Any:
        """The value shown (None when nothing is)."""
        return self._value

    def json_text(self) -> str:
        """The value as the raw view and Copy as JSON give it ("" when nothing is shown)."""
        return pretty_json(self._value) if self._present else ""

    def reason(self) -> str:
        """Why nothing is shown, when nothing is."""
        return "" if self._present else self.placeholder.text()

    # Actions ----------------------------------------------------------------------------

    def copy_json(self) -> None:
        """Put the value on the clipboard as indented JSON."""
        QApplication.clipboard().setText(self.json_text())
        self.summary.setText(f"{self._summary_text()} · copied as JSON")

    def copy_csv(self) -> None:
        """Put the records on the clipboard as CSV, in the order the table shows them."""
        if self._records is None:
            return
        rows = [self.model.record_at(row) for row in range(self.model.rowCount())]
        QApplication.clipboard().setText(csv_text(rows, self.model.columns))
        self.summary.setText(f"{self._summary_text()} · copied as CSV")

    def _pin(self) -> None:
        if not self._present:
            return
        self.pinRequested.emit(self._value)
        self.pin_action.setText("Pinned")
        self.pin_action.setEnabled(False)

    # Inside -----------------------------------------------------------------------------

    def _fill(self, mode: str) -> None:
        """Fill the tree or raw page with the current value, when it is first shown."""
        self._shown.add(mode)
        if mode == TREE:
            self.tree.show_value(self._value)
        elif mode == RAW:
            self.raw.show_value(self._value)

    def _size_columns(self) -> None:
        """Fit each column to its widest text among a spread of rows, within limits."""
        metrics, records = self.table.fontMetrics(), self._records or []
        step = max(1, len(records) // SIZING_ROWS)
        sample = records[:SIZING_ROWS] + records[step::step] + records[-SIZING_ROWS:]
        header = self.table.horizontalHeader()
        for column, name in enumerate(self.model.columns):
            cells = [cell_text(record[name]) for record in sample if name in record]
            widest = max((metrics.horizontalAdvance(text[:80]) for text in cells), default=0)
            heading = metrics.horizontalAdvance(name) + 28  # room for the sort arrow
            header.resizeSection(column, min(max(widest + 16, heading), WIDEST_COLUMN))

    def _summary_text(self) -> str:
        if self._records is not None:
            rows, columns = len(self._records), len(self.model.columns)
            return f"{rows} row{'s' * (rows != 1)} · {columns} column{'s' * (columns != 1)}"
        return summary(self._value) if isinstance(self._value, dict | list) else "a single value"

    def _value_actions(self) -> list[QAction]:
        return [
            self.table_action,
            self.tree_action,
            self.raw_action,
            self.copy_json_action,
            self.copy_csv_action,
            self.pin_action,
        ]
