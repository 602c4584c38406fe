"""The edge condition editor: whether an edge is followed always or only when a test holds."""

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QLabel,
    QLineEdit,
    QRadioButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from studio.engine.rules.paths import InvalidPath, parse_path
from studio.model import CONDITION_OPERATORS, Edge, EdgeCondition
from studio.model.workflow import ConditionOperator
from studio.ui.panels.condition_value import (
    ConditionValueError,
    condition_value_text,
    parse_condition_value,
)
from studio.ui.panels.form_section import FormSection, empty_state, stacked_column
from studio.ui.panels.inline_message import InlineMessage, message_colour

OPERATOR_LABELS = {
    "equals": "equals",
    "notEquals": "does not equal",
    "contains": "contains",
    "greaterThan": "is greater than",
    "lessThan": "is less than",
    "exists": "exists",
}
VALUE_PLACEHOLDER = 'approved, 3, true or ["a"]'
VALUE_HINT = (
    'Plain text is a string (approved); 3 is a number, true a bool, null nothing, ["a"] a '
    'list. Quote text that looks like a number: "3".'
)


class ConditionEditor(QWidget):
    """Edits one edge's condition; emits ``edgeEdited`` with a new Edge when it changes."""

    edgeEdited = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._edge: Edge | None = None
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: bold;")
        self.always_radio = QRadioButton("Always follow (no condition)")
        self.when_radio = QRadioButton("Only when the output passes a test")
        self._modes = QButtonGroup(self)
        for radio in (self.always_radio, self.when_radio):
            self._modes.addButton(radio)
        self.when_radio.toggled.connect(self._on_mode_changed)
        self.form = self._build_form()
        self.stack = QStackedWidget()
        self.stack.addWidget(empty_state("Select an edge on the canvas to edit its condition."))
        self.stack.addWidget(self._edge_page())
        QVBoxLayout(self).addWidget(self.stack)

    def show_edge(self, edge: Edge) -> None:
        """Show ``edge``'s condition; showing the edge last emitted again changes nothing."""
        if self._edge is not None and edge.model_dump_json() == self._edge.model_dump_json():
            return
        self._edge = edge
        self.title.setText(f"Edge {edge.source} → {edge.target}")
        condition = edge.condition
        self._load_mode(condition is not None)
        self.field_edit.setText(condition.field if condition else "")
        self._load_operator(condition.operator if condition else "equals")
        value = condition.value if condition else None
        self.exists_combo.blockSignals(True)
        self.exists_combo.setCurrentIndex(1 if value is False else 0)
        self.exists_combo.blockSignals(False)
        shown = condition is not None and condition.operator != "exists"
        self.value_edit.setText(condition_value_text(value) if shown else "")
        self.field_message.clear_message()
        self.value_message.clear_message()
        self._sync_operator_widgets()
        self.stack.setCurrentIndex(1)

    def clear(self) -> None:
        """Show nothing: no edge is selected."""
        self._edge = None
        self.stack.setCurrentIndex(0)

    def _build_form(self) -> FormSection:
        form = FormSection("Condition")
        self.field_edit = QLineEdit()
        self.field_edit.setPlaceholderText("result.status or items[0].name")
        self.field_edit.editingFinished.connect(self._emit_if_changed)
        self.field_message = InlineMessage()
        self.operator_combo = QComboBox()
        for operator in CONDITION_OPERATORS:
            self.operator_combo.addItem(OPERATOR_LABELS.get(operator, operator), operator)
        self.operator_combo.currentIndexChanged.connect(self._on_operator_changed)
        self.value_edit = QLineEdit()
        self.value_edit.setPlaceholderText(VALUE_PLACEHOLDER)
        self.value_edit.editingFinished.connect(self._emit_if_changed)
        self.value_message = InlineMessage()
        self.exists_combo = QComboBox()
        self.exists_combo.addItem("the field is present (true)", True)
        self.exists_combo.addItem("the field is absent (false)", False)
        self.exists_combo.currentIndexChanged.connect(self._emit_if_changed)
        self.value_hint = QLabel(VALUE_HINT)
        self.value_hint.setWordWrap(True)
        self.value_hint.setStyleSheet(f"color: {message_colour('note')};")
        form.add_row("Output field", stacked_column(self.field_edit, self.field_message))
        form.add_row("Operator", self.operator_combo)
        form.add_row("Passes when", self.exists_combo)
        form.add_row("Value", stacked_column(self.value_edit, self.value_message, self.value_hint))
        return form

    def _edge_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.title, self.always_radio, self.when_radio, self.form):
            layout.addWidget(widget)
        layout.addStretch(1)
        return page

    def _load_mode(self, conditional: bool) -> None:
        self.when_radio.blockSignals(True)
        (self.when_radio if conditional else self.always_radio).setChecked(True)
        self.when_radio.blockSignals(False)
        self.form.setEnabled(conditional)

    def _load_operator(self, operator: str) -> None:
        self.operator_combo.blockSignals(True)
        self.operator_combo.setCurrentIndex(max(self.operator_combo.findData(operator), 0))
        self.operator_combo.blockSignals(False)

    def _on_mode_changed(self, conditional: bool) -> None:
        self.form.setEnabled(conditional)
        if conditional and not self.field_edit.text().strip():
            self.field_edit.setFocus()  # nothing to emit until the field is named
            return
        self._emit_if_changed()

    def _on_operator_changed(self) -> None:
        self._sync_operator_widgets()
        self._emit_if_changed()

    def _sync_operator_widgets(self) -> None:
        exists = self.operator_combo.currentData() == "exists"
        self.value_edit.setEnabled(not exists)
        self.value_edit.setPlaceholderText("not used by exists" if exists else VALUE_PLACEHOLDER)
        self.form.form.setRowVisible(self.exists_combo, exists)
        self.value_hint.setVisible(not exists)
        if exists:
            self.value_message.clear_message()

    def _emit_if_changed(self) -> None:
        if self._edge is None:
            return
        condition = self._condition() if self.when_radio.isChecked() else None
        if condition is False:
            return
        edge = self._edge.model_copy(update={"condition": condition})
        if edge.model_dump_json() == self._edge.model_dump_json():
            return
        self._edge = edge
        self.edgeEdited.emit(edge)

    def _condition(self) -> EdgeCondition | bool:
        """The condition in the form, or False after showing why there is none."""
        operator = str(self.operator_combo.currentData())
        field_problem = _field_problem(self.field_edit.text().strip())
        self.field_message.show_error(field_problem)
        value, value_problem = self._value(operator)
        self.value_message.show_error(value_problem)
        if field_problem or value_problem:
            return False
        return EdgeCondition(
            field=self.field_edit.text().strip(), operator=_operator(operator), value=value
        )

    def _value(self, operator: str) -> tuple[Any, str | None]:
        if operator == "exists":
            return self.exists_combo.currentData(), None
        try:
            return parse_condition_value(self.value_edit.text(), operator), None
        except ConditionValueError as problem:
            return None, str(problem)


def _field_problem(field: str) -> str | None:
    if not field:
        return "Name the output field to test, such as result.status."
    try:
        parse_path(field)
    except InvalidPath:
        return (
            f"'{field}' is not a field path: write names joined by dots, with [n] for "
            "list items, such as result.items[0].name."
        )
    return None


def _operator(chosen: str) -> ConditionOperator:
    """The operator the combo holds, as the model names it."""
    for operator in CONDITION_OPERATORS:
        if operator == chosen:
            return operator
    raise ValueError(f"unknown condition operator {chosen!r}")
