"""The credential references of a workflow: a name and an ``env:``/``keyring:`` reference.

A value that is not a reference may be a pasted secret: it is refused at once, taken out of
the cell, and the message never repeats it.
"""

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.model.structure import CREDENTIAL_REFERENCE
from studio.ui.panels.inline_message import InlineMessage

NAME, REFERENCE = 0, 1
VISIBLE_ROWS = 4
_ACCEPTED = Qt.ItemDataRole.UserRole  # the last reference the cell held that was accepted


class CredentialsTable(QWidget):
    """A two-column table of credential names and references with add and remove buttons."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = self._build_table()
        self.message = InlineMessage()
        self.add_button = QPushButton("Add credential")
        self.add_button.clicked.connect(self.add_row)
        self.remove_button = QPushButton("Remove selected")
        self.remove_button.clicked.connect(self._remove_selected)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        layout.addWidget(self.message)

    def _build_table(self) -> QTableWidget:
        table = QTableWidget(0, 2)
        table.setHorizontalHeaderLabels(["Name", "Reference"])
        header = table.horizontalHeader()
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(REFERENCE, QHeaderView.ResizeMode.Stretch)
        header.resizeSection(NAME, 140)
        table.verticalHeader().setVisible(False)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setToolTip("References such as env:OPENAI_API_KEY or keyring:studio/openai")
        table.setAccessibleName("Credential references")
        rows_height = table.verticalHeader().defaultSectionSize() * VISIBLE_ROWS
        table.setFixedHeight(rows_height + header.sizeHint().height() + 4)
        table.itemChanged.connect(self._on_item_changed)
        return table

    def load(self, credentials: dict[str, str]) -> None:
        """Show these name → reference pairs."""
        self.table.blockSignals(True)
        self.table.setRowCount(0)
        for name, reference in credentials.items():
            self._append(name, reference)
        self.table.blockSignals(False)
        self.message.clear_message()

    def value(self) -> dict[str, str]:
        """The complete rows as a mapping; meaningless while ``error()`` is not None."""
        return {name: reference for name, reference in self._rows() if name and reference}

    def error(self) -> str | None:
        """Why the rows do not make a usable mapping, or None."""
        seen: set[str] = set()
        for row, (name, reference) in enumerate(self._rows(), start=1):
            if name and not reference:
                return f"Add a reference for '{name}'."
            if reference and not name:
                return f"Name the credential in row {row}."
            if name in seen:
                return f"'{name}' is listed twice; keep one row per credential."
            seen.add(name)
        return None

    def add_row(self) -> None:
        """Append an empty row and start editing its name."""
        self._append("", "")
        row = self.table.rowCount() - 1
        self.table.setCurrentCell(row, NAME)
        self.table.editItem(self._name_item(row))

    def _name_item(self, row: int) -> QTableWidgetItem:
        """The name cell of ``row``, made when the row has none yet."""
        item = self.table.item(row, NAME)
        if item is None:
            item = QTableWidgetItem("")
            self.table.setItem(row, NAME, item)
        return item

    def _append(self, name: str, reference: str) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, NAME, QTableWidgetItem(name))
        reference_item = QTableWidgetItem(reference)
        reference_item.setData(_ACCEPTED, reference)
        self.table.setItem(row, REFERENCE, reference_item)

    def _rows(self) -> list[tuple[str, str]]:
        return [
            (self._text(row, NAME), self._text(row, REFERENCE))
            for row in range(self.table.rowCount())
            if self._text(row, NAME) or self._text(row, REFERENCE)
        ]

    def _text(self, row: int, column: int) -> str:
        item = self.table.item(row, column)
        return item.text().strip() if item is not None else ""

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if item.column() == REFERENCE and not self._accept_reference(item):
            return
        self._announce()

    def _announce(self) -> None:
        problem = self.error()
        self.message.show_error(problem)
        if problem is None:
            self.edited.emit()

    def _accept_reference(self, item: QTableWidgetItem) -> bool:
        reference = item.text().strip()
        if not reference or CREDENTIAL_REFERENCE.match(reference):
            item.setData(_ACCEPTED, reference)
            return True
        self.table.blockSignals(True)
        item.setText(str(item.data(_ACCEPTED) or ""))  # never keep what may be a secret
        self.table.blockSignals(False)
        name = self._text(item.row(), NAME)
        name = f"'{name}'" if name else f"row {item.row() + 1}"
        self.message.show_error(
            f"Refused the value typed for {name}: a credential must be a reference such as "
            "env:OPENAI_API_KEY or keyring:SERVICE/NAME, never the secret itself. "
            "The value was not kept."
        )
        return False

    def _remove_selected(self) -> None:
        rows = sorted({index.row() for index in self.table.selectedIndexes()}, reverse=True)
        for row in rows:
            self.table.removeRow(row)
        if rows:
            self._announce()
