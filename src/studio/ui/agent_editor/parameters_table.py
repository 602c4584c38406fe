"""The agent's parameters as a small table (name, type, required) that becomes the JSON
Schema of its parameters."""

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QVBoxLayout, QWidget

from studio.ui.agent_editor.row_list import RowList

TYPES = ("string", "number", "integer", "boolean", "object", "array")


class ParametersTable(QWidget):
    """One row per parameter; ``changed`` on every edit."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows = RowList(self._cells, "Add parameter", parent=self)
        self.rows.changed.connect(self.changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.rows)

    def _cells(self) -> list[QWidget]:
        name = QLineEdit(placeholderText="parameter name")
        name.setAccessibleName("Parameter name")
        kind = QComboBox()
        kind.addItems(list(TYPES))
        kind.setAccessibleName("Parameter type")
        required = QCheckBox("Required")
        name.textChanged.connect(self.rows.notify)
        kind.currentTextChanged.connect(self.rows.notify)
        required.toggled.connect(self.rows.notify)
        return [name, kind, required]

    def add_parameter(self, name: str, kind: str = "string", required: bool = False) -> None:
        """Add a row filled in."""
        row = self.rows.add_row()
        name_edit, type_combo, required_box = row.cells
        if isinstance(name_edit, QLineEdit):
            name_edit.setText(name)
        if isinstance(type_combo, QComboBox):
            type_combo.setCurrentText(kind)
        if isinstance(required_box, QCheckBox):
            required_box.setChecked(required)

    def entries(self) -> list[tuple[str, str, bool]]:
        """(name, type, required) of each row with a name, in order."""
        found = []
        for row in self.rows.rows:
            name, kind, required = row.cells
            if isinstance(name, QLineEdit) and isinstance(kind, QComboBox) and name.text():
                checked = isinstance(required, QCheckBox) and required.isChecked()
                found.append((name.text(), kind.currentText(), checked))
        return found

    def schema(self) -> dict[str, Any]:
        """The parameters' JSON Schema (an object with one property per row)."""
        entries = self.entries()
        schema: dict[str, Any] = {
            "type": "object",
            "properties": {name: {"type": kind} for name, kind, _ in entries},
        }
        required = [name for name, _, is_required in entries if is_required]
        if required:
            schema["required"] = required
        return schema

    def problem(self) -> str | None:
        """A name given twice, or None."""
        names = [name for name, _, _ in self.entries()]
        twice = sorted({name for name in names if names.count(name) > 1})
        return f"The parameter '{twice[0]}' is given twice." if twice else None
