"""The agent editor: name, id and description, the kind's settings, the parameters, and a
"Try it" box; Save writes the definition to the workspace's agents folder."""

import re
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from studio.model import AgentDefinition, AgentRegistry
from studio.model.agent_files import agent_file_path, write_agent_file
from studio.ui.agent_editor.definition_checks import agent_problems
from studio.ui.agent_editor.field_block import FieldBlock
from studio.ui.agent_editor.kind_forms import kind_form
from studio.ui.agent_editor.parameters_table import ParametersTable
from studio.ui.agent_editor.settings_form import SettingsForm
from studio.ui.agent_editor.try_box import TryBox
from studio.ui.panels.inline_message import InlineMessage

IDENTITY_LABELS = {"name": "Name", "id": "Id", "description": "Description"}
NOWHERE = "This Studio has no folder for agent definitions, so nothing can be saved."


def id_from_name(name: str) -> str:
    """The id a name suggests: lower case, words joined by '-'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


class AgentEditorDialog(QDialog):
    """Make an agent of one kind; ``agentSaved`` carries its id once its file is written."""

    agentSaved = Signal(str)

    def __init__(self, kind: str, agents: AgentRegistry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.form, self.agents = kind_form(kind), agents
        self.setObjectName("agentEditor")
        self.setWindowTitle(f"New agent: {self.form.title}")
        self.touched: set[str] = set()
        self.saved_path: Path | None = None
        self._id_follows_name = True
        self.name_edit = QLineEdit(self, placeholderText="What the agent is called")
        self.id_edit = QLineEdit(self, placeholderText="made from the name")
        self.description_edit = QLineEdit(self, placeholderText="What it does, in a line")
        self.settings_form = SettingsForm(self.form, self)
        self.parameters = ParametersTable(self)
        self.blocks = {
            "name": FieldBlock(self.name_edit, parent=self),
            "id": FieldBlock(self.id_edit, "Nodes name the agent by its id.", self),
            "description": FieldBlock(self.description_edit, parent=self),
            "parameters": FieldBlock(self.parameters, "What a node may set for it.", self),
        }
        self.try_box = TryBox(self.form, self)
        self.general = InlineMessage(self)
        self.buttons = QDialogButtonBox(self)
        self.save_button = self.buttons.addButton("Save", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self._lay_out()
        self._connect()
        self.refresh()

    # Building -----------------------------------------------------------------------------

    def _lay_out(self) -> None:
        heading = QLabel(f"<b>{self.form.title}</b> — {self.form.summary}", self)
        heading.setWordWrap(True)
        columns = QHBoxLayout()
        columns.addWidget(self._definition_column(), 3)
        columns.addWidget(self.try_box, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addLayout(columns, 1)
        layout.addWidget(self.general)
        layout.addWidget(self.buttons)
        self.resize(1040, 700)

    def _definition_column(self) -> QScrollArea:
        identity = QGroupBox("Agent", self)
        rows = QFormLayout(identity)
        for key, label in IDENTITY_LABELS.items():
            rows.addRow(f"{label} *" if key != "description" else label, self.blocks[key])
        settings = QGroupBox("Settings", self)
        QVBoxLayout(settings).addWidget(self.settings_form)
        parameters = QGroupBox("Parameters", self)
        QVBoxLayout(parameters).addWidget(self.blocks["parameters"])
        inside = QWidget(self)
        column = QVBoxLayout(inside)
        for group in (identity, settings, parameters):
            column.addWidget(group)
        column.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(inside)
        return scroll

    def _connect(self) -> None:
        self.name_edit.textEdited.connect(self._name_edited)
        self.id_edit.textEdited.connect(lambda _text: self._id_edited())
        self.description_edit.textEdited.connect(lambda _text: self._edited("description"))
        for key, editor in self.settings_form.editors.items():
            editor.changed.connect(lambda key=key: self._edited(f"settings.{key}"))
        self.parameters.changed.connect(lambda: self._edited("parameters"))
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)

    # Editing ------------------------------------------------------------------------------

    def _name_edited(self, name: str) -> None:
        if self._id_follows_name:
            self.id_edit.setText(id_from_name(name))
            self.touched.add("id")
        self._edited("name")

    def _id_edited(self) -> None:
        self._id_follows_name = not self.id_edit.text()
        self._edited("id")

    def _edited(self, key: str) -> None:
        self.touched.add(key)
        self.refresh()

    def data(self) -> dict[str, Any]:
        """The definition as typed, in the shape of a definition file."""
        data: dict[str, Any] = {
            "id": self.id_edit.text(),
            "name": self.name_edit.text(),
            "kind": self.form.kind,
            "description": self.description_edit.text(),
            "parameters": self.parameters.schema(),
            "settings": self.settings_form.settings(),
        }
        return data

    def problems(self) -> dict[str, str]:
        """Everything that keeps the definition from being saved, by field."""
        found = {**self.settings_form.typing_problems()}
        table = self.parameters.problem()
        if table is not None:
            found["parameters"] = table
        for key, problem in agent_problems(self.form, self.data(), self.agents).items():
            found.setdefault(key, problem)
        home, agent_id = self.agents.home, self.id_edit.text()
        if "id" not in found and home is not None and agent_file_path(home, agent_id).exists():
            found["id"] = f"A file for '{agent_id}' exists already in {home}; choose another id."
        return found

    def refresh(self) -> None:
        """Show each touched field's problem beside it, the rest in one line; Save is enabled
        only when nothing is wrong, and Try it when the definition loads."""
        problems = self.problems()
        shown = {key: text for key, text in problems.items() if key in self.touched}
        for key, block in self.blocks.items():
            block.show_problem(shown.get(key))
        self.settings_form.show_problems(shown)
        self.save_button.setEnabled(not problems and self.agents.home is not None)
        self.general.show_note(self._still_to_do(problems))
        self.try_box.set_definition(self._loadable_definition(problems))

    def _still_to_do(self, problems: dict[str, str]) -> str | None:
        if self.agents.home is None:
            return NOWHERE
        labels = {**IDENTITY_LABELS, "parameters": "Parameters"}
        labels.update({f"settings.{f.key}": f.label for f in self.form.fields})
        hidden = [labels.get(key, key) for key in problems if key not in self.touched]
        return f"Not ready to save; still to fill in: {', '.join(hidden)}." if hidden else None

    def _loadable_definition(self, problems: dict[str, str]) -> AgentDefinition | None:
        loader_fields = {"name", "kind", "parameters", "settings"}
        if any(key in loader_fields for key in problems):
            return None
        data = {**self.data(), "id": self.id_edit.text() or "try-it"}
        return AgentDefinition.model_validate(data)

    # Saving -------------------------------------------------------------------------------

    def save(self) -> None:
        """Write the definition file, load it into the registry and announce the agent."""
        home = self.agents.home
        if self.problems() or home is None:
            self.touched.update(self.problems())
            self.refresh()
            return
        definition = AgentDefinition.model_validate(self.data())
        try:
            path = write_agent_file(definition, home)
        except OSError as failure:
            self.general.show_error(f"Could not write the definition to {home}: {failure}")
            return
        if self.agents.load_file(path) is None:
            self.general.show_error(str(self.agents.problems[-1]))
            return
        self.saved_path = path
        self.agentSaved.emit(definition.id)
        self.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Enter in a field must not save half a definition: only the Save button saves.
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers():
            return
        super().keyPressEvent(event)
