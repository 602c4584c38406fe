"""The node drawer's parameters: one editor per property of the agent's declared schema."""

from functools import partial
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from studio.model import AgentDefinition
from studio.ui.panels.field_editors import FieldEditor, editor_for
from studio.ui.panels.form_section import FormSection
from studio.ui.panels.inline_message import InlineMessage
from studio.ui.panels.scalar_field_editors import BooleanFieldEditor


class NodeParametersSection(FormSection):
    """Schema-driven parameter editors; an emptied field removes its key, so the agent's
    default (shown as the placeholder) applies. Keys the schema does not declare are kept."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Parameters", parent)
        self.editors: dict[str, FieldEditor] = {}
        self._values: dict[str, Any] = {}
        self.note = InlineMessage()
        self.note.setObjectName("parametersNote")
        self.column.addWidget(self.note)  # below the form, so rebuilding rows keeps it

    def load(self, agent: AgentDefinition | None, parameters: dict[str, Any]) -> None:
        """Build the editors for the agent's schema and show the node's values in them."""
        self._values = dict(parameters)
        while self.form.rowCount():
            self.form.removeRow(0)  # deletes the row's widgets
        self.editors = {}
        schema = agent.parameters if agent else {}
        required = set(schema.get("required", []))
        for name, field_schema in schema.get("properties", {}).items():
            self._add_editor(name, field_schema, name in required)
        self.note.show_note(self._note_text(agent))

    def write(self, data: dict[str, Any]) -> None:
        """Put the parameters into a node's data."""
        data["configuration"]["parameters"] = dict(self._values)

    def blocking_problem(self) -> str | None:
        """None: an invalid field shows its own message and keeps the node's value."""
        return None

    def _add_editor(self, name: str, field_schema: Any, required: bool) -> None:
        editor = editor_for(name, field_schema if isinstance(field_schema, dict) else {})
        editor.set_value(self._values.get(name))
        editor.changed.connect(partial(self._on_changed, name))
        self.editors[name] = editor
        label = f"{editor.label()}{' *' if required else ''}"
        if isinstance(editor, BooleanFieldEditor):  # a box reads best with its words beside it
            editor.set_check_text(label)
            label = ""
        self.add_row(label, editor)

    def _on_changed(self, name: str, value: Any) -> None:
        if value is None:
            self._values.pop(name, None)
        else:
            self._values[name] = value
        self.edited.emit()

    def _note_text(self, agent: AgentDefinition | None) -> str | None:
        if agent is None:
            return "Choose a known agent to edit its parameters."
        undeclared = sorted(set(self._values) - set(self.editors))
        if undeclared:
            names = ", ".join(undeclared)
            return f"Also set but not declared by the agent (kept as they are): {names}."
        return None if self.editors else "This agent declares no parameters."
