"""A mapping edited in a form (key | value rows, or one block of rows per entry) with a "YAML"
toggle that shows the same value as YAML text for those who would rather type it."""

from typing import Any

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QVBoxLayout, QWidget

from studio.ui.panels.field_editor import FieldEditor
from studio.ui.panels.key_value_rows import KeyValueRows
from studio.ui.panels.mapping_blocks import MappingBlocks
from studio.ui.panels.text_area_field_editors import YamlFieldEditor

MappingForm = KeyValueRows | MappingBlocks


class MappingFieldEditor(FieldEditor):
    """Edits a mapping in ``form``; the YAML view edits the same value as text.

    Switching views keeps the value. A view whose input cannot be used stays open with its
    message (a form with a repeated key, YAML that does not parse or that the form cannot
    show), and nothing is emitted until it is put right.
    """

    def __init__(
        self,
        name: str,
        schema: dict[str, Any],
        form: MappingForm,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(name, schema, parent)
        self.form = form
        self.form.committed.connect(self._commit)
        self.yaml_editor = YamlFieldEditor(name, {"type": "object"})
        self.yaml_editor.text_edit.committed.connect(self._yaml_committed)  # after its own check
        self.yaml_editor.hide()
        self._yaml_shown = False
        self.yaml_toggle = self._toggle()
        self._layout.removeWidget(self.message)  # the form's message; the YAML view has its own
        self.form_page = QWidget()
        form_column = QVBoxLayout(self.form_page)
        form_column.setContentsMargins(0, 0, 0, 0)
        form_column.setSpacing(2)
        form_column.addWidget(self.form)
        form_column.addWidget(self.message)
        self._add_input(self._body())

    def value(self) -> dict[str, Any]:
        """The mapping shown ({} when empty); meaningless while ``error()`` is not None."""
        if self._yaml_shown:
            parsed = self.yaml_editor.value()
            return parsed if isinstance(parsed, dict) else {}
        return self.form.mapping()

    def showing_yaml(self) -> bool:
        """Whether the YAML view is open."""
        return self._yaml_shown

    def set_placeholder(self, text: str) -> None:
        """Show ``text`` (an example) in the empty YAML view."""
        self.yaml_editor.set_placeholder(text)

    def set_suggestions(self, ids: list[str]) -> None:
        """Offer these ids when an entry's id is typed (only a form of blocks has ids)."""
        if isinstance(self.form, MappingBlocks):
            self.form.set_suggestions(ids)

    def show_error(self, message: str | None) -> None:
        """Show a message found outside this field, in whichever view is open."""
        super().show_error(message)
        if self._yaml_shown:
            self.yaml_editor.show_error(message)

    def _show_value(self, value: Any) -> None:
        mapping = value if isinstance(value, dict) else {}
        if self._yaml_shown:
            self.yaml_editor.set_value(mapping)
        elif self.form.problem() is not None or not _same_mapping(self.form.mapping(), mapping):
            self.form.load(mapping)  # the same value again keeps rows being typed

    def _input_error(self) -> str | None:
        if self._yaml_shown:
            return self.yaml_editor.error() or self._shape_problem(self.yaml_editor.value())
        return self.form.problem()

    def _shape_problem(self, value: Any) -> str | None:
        """Why a value read from YAML cannot be shown in the form, or None."""
        return shape_problem(value, nested=isinstance(self.form, MappingBlocks))

    def _yaml_committed(self) -> None:
        """The YAML text was left after an edit: a readable mapping the form can show is
        committed; anything else stays in the view with its message."""
        if self.yaml_editor.error() is not None:
            return
        shape = self._shape_problem(self.yaml_editor.value())
        if shape is not None:
            self.yaml_editor.show_error(shape)
            return
        self._commit()

    def _switch(self, to_yaml: bool) -> None:
        """Open the other view with the same value, unless this one's input is unusable."""
        problem = self._input_error()
        if problem is not None:
            if self._yaml_shown:  # a parse error is already shown by the YAML view itself
                self.yaml_editor.show_error(self._shape_problem(self.yaml_editor.value()))
            else:
                self.message.show_error(problem)
            self.yaml_toggle.blockSignals(True)
            self.yaml_toggle.setChecked(self._yaml_shown)
            self.yaml_toggle.blockSignals(False)
            return
        self._commit()  # an edit not yet committed goes out before the view changes
        value = self.value()
        if to_yaml:
            self.yaml_editor.set_value(value)
        else:
            self.form.load(value)
        self._yaml_shown = to_yaml
        self.form_page.setVisible(not to_yaml)
        self.form.add_button.setVisible(not to_yaml)
        self.yaml_editor.setVisible(to_yaml)

    def _toggle(self) -> QCheckBox:
        toggle = QCheckBox("YAML")
        toggle.setToolTip(f"Edit {self.label().lower()} as YAML text")
        toggle.setAccessibleName(f"{self.label()} as YAML")
        toggle.toggled.connect(self._switch)
        return toggle

    def _body(self) -> QWidget:
        """The form page or the YAML view, over the add button and the YAML toggle."""
        bar = QHBoxLayout()
        bar.addWidget(self.form.add_button)
        bar.addStretch(1)
        bar.addWidget(self.yaml_toggle)
        body = QWidget()
        column = QVBoxLayout(body)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)
        column.addWidget(self.form_page)
        column.addWidget(self.yaml_editor)
        column.addLayout(bar)
        return body


def flat_mapping_editor(
    name: str, schema: dict[str, Any], noun: str, plural: str
) -> MappingFieldEditor:
    """An editor of a flat mapping, one key | value row per entry."""
    return MappingFieldEditor(name, schema, KeyValueRows(noun, plural))


def nested_mapping_editor(
    name: str, schema: dict[str, Any], entry: str, plural: str, add_text: str
) -> MappingFieldEditor:
    """An editor of a mapping of mappings, one block of settings per entry."""
    return MappingFieldEditor(name, schema, MappingBlocks(entry, plural, add_text))


def shape_problem(value: Any, nested: bool) -> str | None:
    """Why ``value`` is not a mapping with text keys (of mappings, when ``nested``), or None."""
    if value is None:
        return None
    if not isinstance(value, dict):
        return "Expected a mapping of key: value lines."
    for key, entry in value.items():
        if not isinstance(key, str):
            return f"The key {key!r} must be text: write it in quotes."
        if not nested:
            continue
        if not isinstance(entry, dict):
            return f"'{key}' needs its settings as a mapping (setting: value)."
        odd = next((inner for inner in entry if not isinstance(inner, str)), None)
        if odd is not None:
            return f"In '{key}', the key {odd!r} must be text: write it in quotes."
    return None


def _same_mapping(first: dict[str, Any], second: dict[str, Any]) -> bool:
    """Equal with the same types throughout (``1`` and ``true`` differ), keys in order."""
    return repr(first) == repr(second)
