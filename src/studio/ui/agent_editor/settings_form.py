"""The settings of one kind as a form, built from the kind's row of the form table."""

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFormLayout, QLabel, QWidget

from studio.ui.agent_editor.field_block import FieldBlock
from studio.ui.agent_editor.kind_forms import KindForm
from studio.ui.agent_editor.setting_editors import SettingEditor, setting_editor


class SettingsForm(QWidget):
    """One editor per setting of the kind; ``changed`` on every edit."""

    changed = Signal()

    def __init__(self, form: KindForm, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.form = form
        self.editors: dict[str, SettingEditor] = {}
        self.blocks: dict[str, FieldBlock] = {}
        layout = QFormLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for field in form.fields:
            editor = setting_editor(field, self)
            editor.setObjectName(f"setting-{field.key}")
            editor.set_value(form.starter.get(field.key))
            editor.changed.connect(self.changed)
            self.editors[field.key] = editor
            self.blocks[field.key] = FieldBlock(editor, field.hint, self)
            label = f"{field.label} *" if field.required else field.label
            layout.addRow(label, self.blocks[field.key])
        if not form.fields:
            layout.addRow(QLabel("This kind has no settings.", self))

    def settings(self) -> dict[str, Any]:
        """The settings that are set, by key."""
        values = {key: editor.value() for key, editor in self.editors.items()}
        return {key: value for key, value in values.items() if value is not None}

    def typing_problems(self) -> dict[str, str]:
        """What cannot be read of what was typed, keyed ``settings.<key>``."""
        found = {key: editor.problem() for key, editor in self.editors.items()}
        return {f"settings.{key}": problem for key, problem in found.items() if problem}

    def show_problems(self, problems: dict[str, str]) -> None:
        """Show each setting's problem under it (and clear the others)."""
        for key, block in self.blocks.items():
            block.show_problem(problems.get(f"settings.{key}"))
