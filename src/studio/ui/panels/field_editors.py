"""The field editor factory: the JSON-schema kind of a field decides which editor shows it."""

from typing import Any

from PySide6.QtWidgets import QWidget

from studio.ui.panels.field_editor import FieldEditor
from studio.ui.panels.scalar_field_editors import (
    BooleanFieldEditor,
    ChoiceFieldEditor,
    NumberFieldEditor,
    TextFieldEditor,
)
from studio.ui.panels.text_area_field_editors import StringListFieldEditor, YamlFieldEditor

__all__ = ["FieldEditor", "editor_for", "field_kind"]

_EDITORS: dict[str, type[FieldEditor]] = {
    "enum": ChoiceFieldEditor,
    "string": TextFieldEditor,
    "number": NumberFieldEditor,
    "integer": NumberFieldEditor,
    "boolean": BooleanFieldEditor,
    "string-list": StringListFieldEditor,
    "data": YamlFieldEditor,
}


def field_kind(schema: dict[str, Any]) -> str:
    """The kind of editor a schema needs: enum, string, number, integer, boolean,
    string-list, or data (objects, other arrays and anything untyped, edited as YAML)."""
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return "enum"
    kind = schema.get("type")
    if isinstance(kind, list):  # ["string", "null"] is a nullable string
        kinds = [k for k in kind if k != "null"]
        kind = kinds[0] if len(kinds) == 1 else None
    if kind == "array":
        items = schema.get("items")
        item_kind = items.get("type", "string") if isinstance(items, dict) else "string"
        return "string-list" if item_kind == "string" else "data"
    return kind if kind in {"string", "number", "integer", "boolean"} else "data"


def editor_for(name: str, schema: dict[str, Any], parent: QWidget | None = None) -> FieldEditor:
    """A new editor for the field ``name`` described by ``schema``."""
    schema = schema if isinstance(schema, dict) else {}
    return _EDITORS[field_kind(schema)](name, schema, parent)
