"""Editors for single values: text, a choice from an enum, a number and a yes/no box."""

import math
import re
from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QWidget

from studio.ui.panels.field_editor import (
    FieldEditor,
    default_placeholder,
    format_number,
    same_value,
)

_INTEGER = re.compile(r"[+-]?\d+")


class TextFieldEditor(FieldEditor):
    """A string in a line edit; an empty box means "not set"."""

    def __init__(self, name: str, schema: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(name, schema, parent)
        self.line_edit = QLineEdit()
        self.line_edit.setPlaceholderText(default_placeholder(schema))
        self.line_edit.editingFinished.connect(self._commit)
        self._add_input(self.line_edit)

    def value(self) -> str | None:
        """The text, or None when the box is empty."""
        return self.line_edit.text() or None

    def set_placeholder(self, text: str) -> None:
        """Show ``text`` in the empty box."""
        self.line_edit.setPlaceholderText(text)

    def _show_value(self, value: Any) -> None:
        self.line_edit.setText("" if value is None else str(value))


class ChoiceFieldEditor(FieldEditor):
    """One of the schema's ``enum`` values in a combo box, or "not set"."""

    def __init__(self, name: str, schema: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(name, schema, parent)
        self.combo = QComboBox()
        unset = default_placeholder(schema) or "Not set"
        self.combo.addItem(f"({unset[:1].lower()}{unset[1:]})", None)
        for option in schema.get("enum", []):
            self.combo.addItem(_option_text(option), option)
        self.combo.currentIndexChanged.connect(self._commit)
        self._add_input(self.combo)

    def value(self) -> Any:
        """The chosen enum value, or None for "not set"."""
        return self.combo.currentData()

    def _show_value(self, value: Any) -> None:
        self.combo.blockSignals(True)
        index = next(
            (i for i in range(self.combo.count()) if same_value(self.combo.itemData(i), value)),
            -1,
        )
        if index < 0:  # a value the schema does not list stays visible rather than lost
            self.combo.addItem(f"{_option_text(value)} (not in the schema)", value)
            index = self.combo.count() - 1
        self.combo.setCurrentIndex(index)
        self.combo.blockSignals(False)


class NumberFieldEditor(FieldEditor):
    """A number typed in a line edit and checked against the schema's bounds on commit."""

    def __init__(self, name: str, schema: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(name, schema, parent)
        kinds = schema.get("type")
        self.integer = "integer" in (kinds if isinstance(kinds, list) else [kinds])
        self.line_edit = QLineEdit()
        self.line_edit.setPlaceholderText(default_placeholder(schema) or _range_hint(schema))
        self.line_edit.editingFinished.connect(self._commit)
        self._add_input(self.line_edit)

    def value(self) -> int | float | None:
        """The number, or None when the box is empty or does not hold a valid number."""
        parsed = self._parse()
        return parsed if isinstance(parsed, int | float) else None

    def set_placeholder(self, text: str) -> None:
        """Show ``text`` in the empty box."""
        self.line_edit.setPlaceholderText(text)

    def _show_value(self, value: Any) -> None:
        shown = format_number(value) if isinstance(value, int | float) else value
        self.line_edit.setText("" if shown is None else str(shown))

    def _input_error(self) -> str | None:
        parsed = self._parse()
        return parsed if isinstance(parsed, str) else None

    def _parse(self) -> int | float | str | None:
        """The number typed, None when empty, or a message saying what is wrong."""
        text = self.line_edit.text().strip()
        if not text:
            return None
        if _INTEGER.fullmatch(text):
            return int(text) if self.integer else float(text)
        try:
            number = float(text)
        except ValueError:
            expected = "a whole number, such as 3" if self.integer else "a number, such as 2.5"
            return f"Expected {expected}."
        if not math.isfinite(number):
            return "Expected a finite number."
        if self.integer:
            return "Expected a whole number, without a fractional part."
        return number


class BooleanFieldEditor(FieldEditor):
    """A yes/no value as a check box; "not set" shows the schema default."""

    def __init__(self, name: str, schema: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(name, schema, parent)
        self.check_box = QCheckBox()
        self.check_box.toggled.connect(self._commit)
        self._add_input(self.check_box)

    def set_check_text(self, text: str) -> None:
        """Put words beside the box, for forms where the label column is not enough."""
        self.check_box.setText(text)

    def value(self) -> bool:
        """Whether the box is ticked."""
        return self.check_box.isChecked()

    def _show_value(self, value: Any) -> None:
        self.check_box.blockSignals(True)
        self.check_box.setChecked(
            bool(self.schema.get("default", False) if value is None else value)
        )
        self.check_box.blockSignals(False)


def _range_hint(schema: dict[str, Any]) -> str:
    low, high = schema.get("minimum"), schema.get("maximum")
    if isinstance(low, int | float) and isinstance(high, int | float):
        return f"From {format_number(low)} to {format_number(high)}"
    if isinstance(low, int | float):
        return f"At least {format_number(low)}"
    return f"At most {format_number(high)}" if isinstance(high, int | float) else ""


def _option_text(option: Any) -> str:
    if isinstance(option, bool):
        return "true" if option else "false"
    return "null" if option is None else str(option)
