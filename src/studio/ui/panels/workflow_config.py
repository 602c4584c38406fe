"""The workflow settings panel: name, description, category, timeout and configuration."""

from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QLabel, QLineEdit, QScrollArea, QVBoxLayout, QWidget

from studio.model import Workflow, WorkflowConfiguration
from studio.ui.panels.commit_text_edit import CommitTextEdit
from studio.ui.panels.credentials_table import CredentialsTable
from studio.ui.panels.field_editor import same_value
from studio.ui.panels.field_editors import editor_for
from studio.ui.panels.form_section import FormSection, align_label_columns, stacked_column
from studio.ui.panels.inline_message import InlineMessage
from studio.ui.panels.mapping_editor import (
    MappingFieldEditor,
    flat_mapping_editor,
    nested_mapping_editor,
)
from studio.ui.panels.validation_messages import describe_errors
from studio.ui.panels.workflow_policy_sections import (
    CompensationSettingsSection,
    GovernanceSection,
)

PROPERTIES = ("name", "description", "category", "timeout", "configuration")
_EXAMPLES = {  # what the empty YAML view shows
    "integrations": "zendesk:\n  url: https://example.zendesk.com",
    "agent_properties": "summarise:\n  tone: formal",
    "parameters": "region: eu-west-1",
}


class WorkflowConfigPanel(QWidget):
    """Edits a workflow's properties; ``propertiesEdited`` carries only the changed ones
    (snake_case keys; ``configuration`` as a WorkflowConfiguration). It never saves: a failed
    save is shown with ``show_save_failure`` and the form keeps what the person typed."""

    propertiesEdited = Signal(dict)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._current: dict[str, Any] | None = None
        self.message = InlineMessage()
        self.general = self._general_section()
        self.data_editors: dict[str, MappingFieldEditor] = {}
        self.data_section = self._data_section()
        self.credentials = CredentialsTable()
        self.credentials.edited.connect(self._emit_changes)
        credentials_section = FormSection("Credentials")
        credentials_section.add_row("", self.credentials)
        self.compensation = CompensationSettingsSection()
        self.governance = GovernanceSection()
        for section in (self.compensation, self.governance):
            section.edited.connect(self._emit_changes)
        self._sections = (
            self.general,
            self.data_section,
            credentials_section,
            self.compensation,
            self.governance,
        )
        self._build_layout()

    def show_workflow(self, properties: Workflow) -> None:
        """Show a workflow's properties; showing the values last emitted changes nothing."""
        current = {name: getattr(properties, name) for name in PROPERTIES}
        if self._current is not None and _same_properties(current, self._current):
            return
        self._current = current
        self.name_edit.setText(properties.name)
        self.description_edit.set_text_quietly(properties.description)
        self.category_edit.setText(properties.category)
        self.timeout_editor.set_value(properties.timeout)
        configuration = properties.configuration
        for name, editor in self.data_editors.items():
            editor.set_value(getattr(configuration, name))
        self.credentials.load(configuration.credentials)
        self.compensation.load(configuration.compensation)
        self.governance.load(configuration.governance)
        self.message.clear_message()
        self.name_message.clear_message()

    def set_agent_ids(self, agent_ids: list[str]) -> None:
        """Offer these agent ids when the agent of a block of agent properties is typed."""
        self.data_editors["agent_properties"].set_suggestions(agent_ids)

    def show_save_failure(self, text: str) -> None:
        """Say that saving failed, keeping every field as it is."""
        self.message.show_error(f"Could not save the workflow settings: {text}")

    def _emit_changes(self) -> None:
        current = self._current
        if current is None:
            return
        edited = self._general_values(current)
        configuration = self._configuration(current)
        if configuration is not None:  # an invalid configuration is reported, not emitted
            edited["configuration"] = configuration
        changed = {
            name: value
            for name, value in edited.items()
            if not _same_property(value, current[name])
        }
        if not changed:
            return
        current.update(changed)
        self.propertiesEdited.emit(changed)

    def _general_values(self, current: dict[str, Any]) -> dict[str, Any]:
        name = self.name_edit.text().strip()
        self.name_message.show_error(None if name else "A workflow needs a name.")
        timeout_ok = self.timeout_editor.error() is None
        return {
            "name": name or current["name"],
            "description": self.description_edit.toPlainText(),
            "category": self.category_edit.text().strip(),
            "timeout": self.timeout_editor.value() if timeout_ok else current["timeout"],
        }

    def _configuration(self, current: dict[str, Any]) -> WorkflowConfiguration | None:
        """The configuration in the form, or None (with messages shown) when it is invalid."""
        data = current["configuration"].model_dump()
        for name, editor in self.data_editors.items():
            if editor.error() is None:
                data[name] = editor.value() or {}
        if self.credentials.error() is None:
            data["credentials"] = self.credentials.value()
        self.compensation.write(data)
        self.governance.write(data)
        try:
            configuration = WorkflowConfiguration.model_validate(data)
        except ValidationError as invalid:
            self._show_configuration_errors(invalid)
            return None
        self.message.clear_message()
        return configuration

    def _show_configuration_errors(self, invalid: ValidationError) -> None:
        unplaced = []
        for error in invalid.errors():
            editor = self.data_editors.get(str(error["loc"][0]))
            where = ".".join(str(part) for part in error["loc"][1:])
            if editor is not None:
                editor.show_error(f"{where}: {error['msg']}" if where else error["msg"])
            else:
                unplaced.append(error)
        if unplaced:
            self.message.show_error(describe_errors(unplaced))

    def _general_section(self) -> FormSection:
        section = FormSection("Workflow")
        self.name_edit = QLineEdit()
        self.name_edit.editingFinished.connect(self._emit_changes)
        self.name_message = InlineMessage()
        self.description_edit = CommitTextEdit()
        self.description_edit.set_visible_lines(3)
        self.description_edit.committed.connect(self._emit_changes)
        self.category_edit = QLineEdit()
        self.category_edit.setPlaceholderText("Shown in the blueprint catalog")
        self.category_edit.editingFinished.connect(self._emit_changes)
        self.timeout_editor = editor_for(
            "timeout", {"type": "number", "exclusiveMinimum": 0, "title": "Timeout (s)"}
        )
        self.timeout_editor.set_placeholder("No limit")
        self.timeout_editor.changed.connect(self._emit_changes)
        section.add_row("Name", stacked_column(self.name_edit, self.name_message))
        section.add_row("Description", self.description_edit)
        section.add_row("Category", self.category_edit)
        section.add_row(self.timeout_editor.label(), self.timeout_editor)
        return section

    def _data_section(self) -> FormSection:
        section = FormSection("Configuration")
        self.data_editors = {
            "integrations": nested_mapping_editor(
                "integrations",
                {"type": "object", "description": "Endpoint settings for each integration."},
                "integration",
                "integrations",
                "Add integration",
            ),
            "agent_properties": nested_mapping_editor(
                "agent_properties",
                {"type": "object", "description": "Settings for each agent, by agent id."},
                "agent",
                "agent settings",
                "Add agent settings",
            ),
            "parameters": flat_mapping_editor(
                "parameters",
                {"type": "object", "description": "Parameters every node can use."},
                "parameter",
                "parameters",
            ),
        }
        for name, editor in self.data_editors.items():
            editor.set_placeholder(_EXAMPLES[name])
            editor.changed.connect(self._emit_changes)
            section.add_row("", _titled(editor))  # the whole width: rows need the room
        return section

    def _build_layout(self) -> None:
        content = QWidget()
        column = QVBoxLayout(content)
        for section in self._sections:
            column.addWidget(section)
        column.addStretch(1)
        align_label_columns(self._sections)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(content)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(scroll, 1)


def _titled(editor: MappingFieldEditor) -> QWidget:
    """The editor under its label, so its rows can use the section's full width."""
    title = QLabel(editor.label())
    holder = QWidget()
    column = QVBoxLayout(holder)
    column.setContentsMargins(0, 4, 0, 0)
    column.setSpacing(4)
    column.addWidget(title)
    column.addWidget(editor)
    return holder


def _same_property(first: Any, second: Any) -> bool:
    if isinstance(first, WorkflowConfiguration) and isinstance(second, WorkflowConfiguration):
        return first.model_dump_json() == second.model_dump_json()
    if isinstance(first, float | int) and isinstance(second, float | int):
        return first == second
    return same_value(first, second)


def _same_properties(first: dict[str, Any], second: dict[str, Any]) -> bool:
    return all(_same_property(first[name], second[name]) for name in PROPERTIES)
