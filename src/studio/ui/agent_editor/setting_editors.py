"""One editor per way a setting is edited (a line, a list, a two-column table, JSON…), each
giving the setting's value (None when it is not set) and what is wrong with what was typed."""

import json
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QLineEdit, QPlainTextEdit, QVBoxLayout, QWidget

from studio.ui.agent_editor.kind_forms import Editor, SettingField
from studio.ui.agent_editor.row_list import RowList

TEXT_HEIGHT = 72


class SettingEditor(QWidget):
    """The editor of one setting; ``changed`` on every edit."""

    changed = Signal()

    def __init__(self, field: SettingField, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.field = field
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)

    def value(self) -> Any:
        """The setting's value, or None when it is not set (or cannot be read)."""
        raise NotImplementedError

    def set_value(self, value: Any) -> None:
        """Show ``value``."""
        raise NotImplementedError

    def problem(self) -> str | None:
        """What keeps what was typed from being read, or None."""
        return None


class LineSetting(SettingEditor):
    """One line of text."""

    def __init__(self, field: SettingField, parent: QWidget | None = None) -> None:
        super().__init__(field, parent)
        self.edit = QLineEdit(self, placeholderText=field.placeholder)
        self.edit.setAccessibleName(field.label)
        self.edit.textChanged.connect(self.changed)
        self.column.addWidget(self.edit)

    def value(self) -> Any:
        return self.edit.text() or None

    def set_value(self, value: Any) -> None:
        self.edit.setText("" if value is None else str(value))


class NumberSetting(LineSetting):
    """A number (or a whole number), typed; empty when not set."""

    def value(self) -> Any:
        return None if self.problem() else self._number()

    def problem(self) -> str | None:
        try:
            self._number()
        except ValueError:
            whole = self.field.editor is Editor.WHOLE_NUMBER
            return "Expected a whole number." if whole else "Expected a number."
        return None

    def _number(self) -> int | float | None:
        text = self.edit.text().strip()
        if not text:
            return None
        return int(text) if self.field.editor is Editor.WHOLE_NUMBER else float(text)


class TextSetting(SettingEditor):
    """Several lines of text."""

    def __init__(self, field: SettingField, parent: QWidget | None = None) -> None:
        super().__init__(field, parent)
        self.edit = QPlainTextEdit(self, placeholderText=field.placeholder)
        self.edit.setAccessibleName(field.label)
        self.edit.setFixedHeight(TEXT_HEIGHT)
        self.edit.textChanged.connect(self.changed)
        self.column.addWidget(self.edit)

    def value(self) -> Any:
        return self.edit.toPlainText() or None

    def set_value(self, value: Any) -> None:
        self.edit.setPlainText("" if value is None else str(value))


class JsonSetting(TextSetting):
    """Any JSON value, typed as JSON text; empty when not set."""

    def value(self) -> Any:
        return None if self.problem() or not self.edit.toPlainText().strip() else self._parsed()

    def set_value(self, value: Any) -> None:
        self.edit.setPlainText("" if value is None else json.dumps(value, indent=2))

    def problem(self) -> str | None:
        if not self.edit.toPlainText().strip():
            return None
        try:
            self._parsed()
        except json.JSONDecodeError as failure:
            return f"Not JSON: {failure.msg} (line {failure.lineno}, column {failure.colno})."
        return None

    def _parsed(self) -> Any:
        return json.loads(self.edit.toPlainText())


class ChoiceSetting(SettingEditor):
    """One of a few texts."""

    def __init__(self, field: SettingField, parent: QWidget | None = None) -> None:
        super().__init__(field, parent)
        self.combo = QComboBox(self)
        self.combo.setAccessibleName(field.label)
        self.combo.addItems(list(field.choices))
        self.combo.currentTextChanged.connect(self.changed)
        self.column.addWidget(self.combo)

    def value(self) -> Any:
        return self.combo.currentText() or None

    def set_value(self, value: Any) -> None:
        if value is not None and self.combo.findText(str(value)) < 0:
            self.combo.addItem(str(value))
        self.combo.setCurrentText("" if value is None else str(value))


class ListSetting(SettingEditor):
    """A list of texts, one row each, that can be reordered."""

    def __init__(self, field: SettingField, parent: QWidget | None = None) -> None:
        super().__init__(field, parent)
        self.rows = RowList(self._cells, "Add item", reorderable=True, parent=self)
        self.rows.changed.connect(self.changed)
        self.column.addWidget(self.rows)

    def _cells(self) -> list[QWidget]:
        edit = QLineEdit(placeholderText=self.field.placeholder)
        edit.setAccessibleName(f"{self.field.label} item")
        edit.textChanged.connect(self.rows.notify)
        return [edit]

    def items(self) -> list[QLineEdit]:
        """The line edit of each row, in order."""
        return [_line(row.cells[0]) for row in self.rows.rows]

    def value(self) -> Any:
        return [edit.text() for edit in self.items()] or None

    def set_value(self, value: Any) -> None:
        self.rows.clear_rows()
        for item in value or []:
            _line(self.rows.add_row().cells[0]).setText(str(item))


class PairsSetting(SettingEditor):
    """A two-column table (name, value) that becomes a mapping; empty rows are ignored."""

    def __init__(self, field: SettingField, parent: QWidget | None = None) -> None:
        super().__init__(field, parent)
        self.rows = RowList(self._cells, f"Add {field.columns[0].lower()}", parent=self)
        self.rows.changed.connect(self.changed)
        self.column.addWidget(self.rows)

    def _cells(self) -> list[QWidget]:
        cells: list[QWidget] = []
        for title in self.field.columns:
            edit = QLineEdit(placeholderText=title)
            edit.setAccessibleName(f"{self.field.label}: {title}")
            edit.textChanged.connect(self.rows.notify)
            cells.append(edit)
        return cells

    def pairs(self) -> list[tuple[QLineEdit, QLineEdit]]:
        """The (name, value) line edits of each row, in order."""
        return [(_line(row.cells[0]), _line(row.cells[1])) for row in self.rows.rows]

    def value(self) -> Any:
        if self.problem():
            return None
        return {name.text(): value.text() for name, value in self.pairs() if name.text()} or None

    def set_value(self, value: Any) -> None:
        self.rows.clear_rows()
        for name, text in (value or {}).items():
            row = self.rows.add_row()
            _line(row.cells[0]).setText(str(name))
            _line(row.cells[1]).setText(text if isinstance(text, str) else json.dumps(text))

    def problem(self) -> str | None:
        seen: set[str] = set()
        title = self.field.columns[0].lower()
        for number, (name, value) in enumerate(self.pairs(), start=1):
            if not name.text() and value.text():
                return f"Row {number} has a value but no {title}."
            if name.text() and name.text() in seen:
                return f"The {title} '{name.text()}' is given twice."
            seen.add(name.text())
        return None


def _line(widget: QWidget) -> QLineEdit:
    assert isinstance(widget, QLineEdit)  # every cell these editors make is a line edit
    return widget


_EDITORS: dict[Editor, type[SettingEditor]] = {
    Editor.LINE: LineSetting,
    Editor.TEXT: TextSetting,
    Editor.LIST: ListSetting,
    Editor.PAIRS: PairsSetting,
    Editor.JSON: JsonSetting,
    Editor.CHOICE: ChoiceSetting,
    Editor.NUMBER: NumberSetting,
    Editor.WHOLE_NUMBER: NumberSetting,
}


def setting_editor(field: SettingField, parent: QWidget | None = None) -> SettingEditor:
    """The editor for ``field``, chosen by how it is edited."""
    return _EDITORS[field.editor](field, parent)
