"""Rows of key | value that a person adds to and removes from, with the keyboard of a small
table: Enter goes on (to the value, then to the next row's key, adding a row at the end), Tab
walks the cells, Delete in an empty row removes it. Values are typed as YAML scalars."""

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.ui.icons import icon
from studio.ui.panels.yaml_cells import cell_text, read_cell

VALUE_HINT = 'A YAML value: 3, true, "3" for text, [a, b], {x: 1}'


class KeyValueRow(QWidget):
    """One row: a key, a value and a button that removes the row."""

    def __init__(self, noun: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key_edit = QLineEdit(self, placeholderText="Key")
        self.key_edit.setAccessibleName(f"{noun.capitalize()} key")
        self.value_edit = QLineEdit(self, placeholderText="Value")
        self.value_edit.setAccessibleName(f"{noun.capitalize()} value")
        self.value_edit.setToolTip(VALUE_HINT)
        self.remove_button = QToolButton(self)
        self.remove_button.setIcon(icon("delete"))
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip(f"Remove this {noun}")
        self.remove_button.setAccessibleName(f"Remove this {noun}")
        self.remove_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab walks the cells only
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.key_edit, 2)
        layout.addWidget(self.value_edit, 3)
        layout.addWidget(self.remove_button)

    def key(self) -> str:
        """The key as typed, without surrounding spaces."""
        return self.key_edit.text().strip()

    def is_blank(self) -> bool:
        """Whether neither cell holds anything."""
        return not self.key() and not self.value_edit.text().strip()


class KeyValueRows(QWidget):
    """Editable key | value rows; ``committed`` when a person leaves a row they edited or
    removes one. ``noun`` names a row ("parameter", "setting") in buttons and messages;
    ``empty_hint`` shows "No … yet — Add one" while there are no rows."""

    committed = Signal()

    def __init__(
        self, noun: str, plural: str, parent: QWidget | None = None, *, empty_hint: bool = True
    ) -> None:
        super().__init__(parent)
        self.noun = noun
        self.rows: list[KeyValueRow] = []
        self.add_button = QPushButton(icon("add_node"), f"Add {noun}")
        self.add_button.setToolTip(f"Add a {noun} row (or press Enter in the last value)")
        self.add_button.clicked.connect(self.add_row)
        self.empty_label = QLabel(f'No {plural} yet — <a href="add">Add one</a>')
        self.empty_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.empty_label.linkActivated.connect(lambda _link: self.add_row())
        self.empty_label.setVisible(empty_hint)
        self._empty_hint = empty_hint
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.setSpacing(3)
        self.column.addWidget(self.empty_label)

    def load(self, mapping: dict[str, Any]) -> None:
        """Show these key → value pairs, one row each."""
        while self.rows:
            self._drop(self.rows[-1])
        for key, value in mapping.items():
            row = self._append()
            row.key_edit.setText(str(key))
            row.value_edit.setText(cell_text(value))
            for edit in (row.key_edit, row.value_edit):
                edit.setCursorPosition(0)  # the start of a long value, not its end
        self._show_empty_state()

    def mapping(self) -> dict[str, Any]:
        """The filled rows as a mapping; meaningless while ``problem()`` is not None."""
        return {row.key(): read_cell(row.value_edit.text())[0] for row in self._filled()}

    def problem(self, where: str = "") -> str | None:
        """What keeps the rows from making a mapping, naming the row, or None.
        ``where`` comes before "row N" in the message ("zendesk, ")."""
        seen: dict[str, int] = {}
        for number, row in enumerate(self.rows, start=1):
            if row.is_blank():
                continue
            place = f"{where}row {number}" if where else f"Row {number}"
            problem = _row_problem(row, seen)
            if problem is not None:
                return f"{place}: {problem}"
            seen[row.key()] = number
        return None

    def add_row(self) -> KeyValueRow:
        """Add an empty row at the end and put the cursor in its key."""
        row = self._append()
        self._show_empty_state()
        row.key_edit.setFocus(Qt.FocusReason.OtherFocusReason)
        return row

    def remove_row(self, row: KeyValueRow) -> None:
        """Take ``row`` away and say so."""
        self._drop(row)
        self._show_empty_state()
        self.committed.emit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Delete in a row with nothing in it removes the row."""
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            row = self._row_of(watched)
            if row is not None and event.key() == Qt.Key.Key_Delete and row.is_blank():
                self._remove_from_keyboard(row)
                return True
        return super().eventFilter(watched, event)

    def _append(self) -> KeyValueRow:
        row = KeyValueRow(self.noun, self)
        row.remove_button.clicked.connect(lambda: self.remove_row(row))
        for edit in (row.key_edit, row.value_edit):
            edit.installEventFilter(self)
            edit.editingFinished.connect(lambda edit=edit, row=row: self._left_cell(row, edit))
        row.key_edit.returnPressed.connect(row.value_edit.setFocus)
        row.value_edit.returnPressed.connect(lambda: self._go_on_from(row))
        self.rows.append(row)
        self.column.addWidget(row)
        row.show()  # now, not on a later turn: the cursor may be put in it at once
        return row

    def _drop(self, row: KeyValueRow) -> None:
        self.rows.remove(row)
        self.column.removeWidget(row)
        row.hide()
        row.deleteLater()

    def _show_empty_state(self) -> None:
        self.empty_label.setVisible(self._empty_hint and not self.rows)

    def _filled(self) -> list[KeyValueRow]:
        return [row for row in self.rows if not row.is_blank()]

    def _row_of(self, widget: QObject) -> KeyValueRow | None:
        parent = widget.parent()
        return parent if isinstance(parent, KeyValueRow) and parent in self.rows else None

    def _left_cell(self, row: KeyValueRow, edit: QLineEdit) -> None:
        """Commit when the cursor leaves the row (going from key to value is not leaving)."""
        sibling = row.value_edit if edit is row.key_edit else row.key_edit
        if QApplication.focusWidget() is not sibling:
            self.committed.emit()

    def _go_on_from(self, row: KeyValueRow) -> None:
        """Enter in a value: on to the next row's key, adding a row after the last."""
        index = self.rows.index(row)
        if index + 1 < len(self.rows):
            self.rows[index + 1].key_edit.setFocus(Qt.FocusReason.TabFocusReason)
        elif not row.is_blank():
            self.add_row()

    def _remove_from_keyboard(self, row: KeyValueRow) -> None:
        """Remove ``row`` and put the cursor where a person would look next."""
        index = self.rows.index(row)
        self.remove_row(row)
        if index > 0:
            self.rows[index - 1].value_edit.setFocus(Qt.FocusReason.OtherFocusReason)
        elif self.rows:
            self.rows[0].key_edit.setFocus(Qt.FocusReason.OtherFocusReason)
        else:
            self.add_button.setFocus(Qt.FocusReason.OtherFocusReason)


def _row_problem(row: KeyValueRow, seen: dict[str, int]) -> str | None:
    """What is wrong with one filled row, given the keys of the rows above it."""
    key = row.key()
    if not key:
        return "give this value a key."
    if key in seen:
        return f"'{key}' is already in row {seen[key]}; keep one row per key."
    if not row.value_edit.text().strip():
        return f"give '{key}' a value (null for none)."
    problem = read_cell(row.value_edit.text())[1]
    return None if problem is None else f"the value of '{key}' cannot be read: {problem}."
