"""The field factory: each JSON-schema kind gets its editor, and only valid commits emit."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QPlainTextEdit, QVBoxLayout, QWidget

from studio.ui.panels.field_editors import editor_for, field_kind
from studio.ui.panels.inline_message import message_colour
from studio.ui.panels.scalar_field_editors import (
    BooleanFieldEditor,
    ChoiceFieldEditor,
    NumberFieldEditor,
    TextFieldEditor,
)
from studio.ui.panels.text_area_field_editors import StringListFieldEditor, YamlFieldEditor
from tests.ui.panels.conftest import click_check_box, press_enter, show, tab_away, type_into
from tests.ui.pixels import assert_ink, assert_no_ink, assert_shows_text, picture, place_of


def in_form(qtbot, *editors):
    """The editors in a shown window, with a line edit after them to Tab to."""
    host = QWidget()
    layout = QVBoxLayout(host)
    for editor in editors:
        layout.addWidget(editor)
    layout.addWidget(QLineEdit())
    show(qtbot, host, (420, 400))
    return host


@pytest.mark.parametrize(
    ("schema", "editor_type", "input_type"),
    [
        ({"type": "string"}, TextFieldEditor, QLineEdit),
        ({"type": "string", "enum": ["a", "b"]}, ChoiceFieldEditor, QComboBox),
        ({"type": "number"}, NumberFieldEditor, QLineEdit),
        ({"type": "integer"}, NumberFieldEditor, QLineEdit),
        ({"type": "boolean"}, BooleanFieldEditor, QCheckBox),
        ({"type": "array", "items": {"type": "string"}}, StringListFieldEditor, QPlainTextEdit),
        ({"type": "array", "items": {"type": "integer"}}, YamlFieldEditor, QPlainTextEdit),
        ({"type": "object"}, YamlFieldEditor, QPlainTextEdit),
        ({}, YamlFieldEditor, QPlainTextEdit),
        ({"type": ["integer", "null"]}, NumberFieldEditor, QLineEdit),
    ],
)
def test_the_schema_kind_picks_the_editor(qtbot, schema, editor_type, input_type) -> None:
    editor = editor_for("field", schema)
    qtbot.addWidget(editor)
    assert type(editor) is editor_type
    assert editor.findChild(input_type) is not None


def test_kinds_are_named_from_the_schema() -> None:
    assert field_kind({"type": "string", "enum": ["x"]}) == "enum"
    assert field_kind({"type": "array"}) == "string-list"
    assert field_kind({"type": "array", "items": {"type": "object"}}) == "data"


def test_labels_come_from_the_title_or_the_name(qtbot) -> None:
    titled = editor_for("max_words", {"type": "integer", "title": "Word limit"})
    plain = editor_for("maxWords", {"type": "integer"})
    qtbot.addWidget(titled)
    qtbot.addWidget(plain)
    assert titled.label() == "Word limit"
    assert plain.label() == "Max words"


def test_typing_text_and_pressing_enter_emits_it(qtbot) -> None:
    editor = editor_for("title", {"type": "string", "default": "Summary"})
    in_form(qtbot, editor)
    assert editor.line_edit.placeholderText() == "Default: Summary"
    type_into(qtbot, editor.line_edit, "Weekly digest")
    with qtbot.waitSignal(editor.changed) as emitted:
        press_enter(qtbot, editor.line_edit)
    assert emitted.args == ["Weekly digest"]


def test_an_unchanged_commit_emits_nothing(qtbot) -> None:
    editor = editor_for("title", {"type": "string"})
    in_form(qtbot, editor)
    editor.set_value("same")
    type_into(qtbot, editor.line_edit, "same")
    with qtbot.assertNotEmitted(editor.changed):
        press_enter(qtbot, editor.line_edit)


def test_letters_in_a_number_show_a_message_and_emit_nothing(qtbot) -> None:
    editor = editor_for("limit", {"type": "integer"})
    in_form(qtbot, editor)
    type_into(qtbot, editor.line_edit, "ten")
    with qtbot.assertNotEmitted(editor.changed):
        press_enter(qtbot, editor.line_edit)
    assert editor.message.isVisible()
    assert editor.message.text() == "Expected a whole number, such as 3."
    assert editor.error() == "Expected a whole number, such as 3."


def test_a_corrected_number_clears_the_message_and_emits(qtbot) -> None:
    editor = editor_for("limit", {"type": "integer"})
    in_form(qtbot, editor)
    type_into(qtbot, editor.line_edit, "ten")
    press_enter(qtbot, editor.line_edit)
    type_into(qtbot, editor.line_edit, "10")
    with qtbot.waitSignal(editor.changed) as emitted:
        press_enter(qtbot, editor.line_edit)
    assert emitted.args == [10] and type(emitted.args[0]) is int
    assert not editor.message.isVisible()


@pytest.mark.parametrize(
    ("schema", "text", "message"),
    [
        ({"type": "number", "minimum": 0}, "-1", "Must be at least 0."),
        ({"type": "number", "maximum": 2}, "2.5", "Must be at most 2."),
        ({"type": "number", "exclusiveMinimum": 0}, "0", "Must be greater than 0."),
        ({"type": "integer"}, "2.5", "Expected a whole number, without a fractional part."),
        ({"type": "number"}, "nan", "Expected a finite number."),
    ],
)
def test_numbers_outside_the_schema_bounds_are_refused(qtbot, schema, text, message) -> None:
    editor = editor_for("n", schema)
    in_form(qtbot, editor)
    type_into(qtbot, editor.line_edit, text)
    with qtbot.assertNotEmitted(editor.changed):
        press_enter(qtbot, editor.line_edit)
    assert editor.error() == message


def test_a_number_within_bounds_is_emitted_as_a_float(qtbot) -> None:
    editor = editor_for("temperature", {"type": "number", "minimum": 0, "maximum": 2})
    in_form(qtbot, editor)
    assert editor.line_edit.placeholderText() == "From 0 to 2"
    type_into(qtbot, editor.line_edit, "0.7")
    with qtbot.waitSignal(editor.changed) as emitted:
        press_enter(qtbot, editor.line_edit)
    assert emitted.args == [0.7]


def test_emptying_a_field_emits_none_meaning_not_set(qtbot) -> None:
    editor = editor_for("limit", {"type": "integer", "default": 200})
    in_form(qtbot, editor)
    editor.set_value(50)
    assert editor.line_edit.text() == "50"
    type_into(qtbot, editor.line_edit, "")
    with qtbot.waitSignal(editor.changed) as emitted:
        press_enter(qtbot, editor.line_edit)
    assert emitted.args == [None]


def test_picking_an_enum_entry_emits_it(qtbot) -> None:
    editor = editor_for("style", {"type": "string", "enum": ["short", "long"]})
    in_form(qtbot, editor)
    assert editor.combo.currentText() == "(not set)"
    editor.combo.setFocus()
    with qtbot.waitSignal(editor.changed) as emitted:
        qtbot.keyClick(editor.combo, Qt.Key.Key_Down)
    assert emitted.args == ["short"]


def test_an_enum_value_the_schema_does_not_list_stays_visible_with_a_message(qtbot) -> None:
    editor = editor_for("style", {"type": "string", "enum": ["short", "long"]})
    qtbot.addWidget(editor)
    editor.set_value("medium")
    assert editor.combo.currentText() == "medium (not in the schema)"
    assert editor.error() is not None


def test_clicking_a_check_box_emits_the_new_state(qtbot) -> None:
    editor = editor_for("verbose", {"type": "boolean", "default": True})
    in_form(qtbot, editor)
    editor.set_value(None)
    assert editor.value() is True  # the default is shown
    with qtbot.waitSignal(editor.changed) as emitted:
        click_check_box(qtbot, editor.check_box)
    assert emitted.args == [False]


def test_a_list_of_strings_is_one_per_line_and_commits_on_tab(qtbot) -> None:
    editor = editor_for("tags", {"type": "array", "items": {"type": "string"}})
    in_form(qtbot, editor)
    type_into(qtbot, editor.text_edit, "billing\n\n  urgent  \n")
    with qtbot.waitSignal(editor.changed) as emitted:
        tab_away(qtbot, editor.text_edit)
    assert emitted.args == [["billing", "urgent"]]


def test_yaml_objects_are_read_and_emitted_on_tab(qtbot) -> None:
    editor = editor_for("headers", {"type": "object"})
    in_form(qtbot, editor)
    type_into(qtbot, editor.text_edit, "Accept: application/json\nRetries: 3\nSince: 2024-01-01")
    with qtbot.waitSignal(editor.changed) as emitted:
        tab_away(qtbot, editor.text_edit)
    assert emitted.args == [{"Accept": "application/json", "Retries": 3, "Since": "2024-01-01"}]


def test_json_is_accepted_as_yaml(qtbot) -> None:
    editor = editor_for("headers", {"type": "object"})
    in_form(qtbot, editor)
    type_into(qtbot, editor.text_edit, '{"a": [1, 2], "b": null}')
    with qtbot.waitSignal(editor.changed) as emitted:
        tab_away(qtbot, editor.text_edit)
    assert emitted.args == [{"a": [1, 2], "b": None}]


def test_malformed_yaml_names_its_line_and_emits_nothing(qtbot) -> None:
    editor = editor_for("headers", {"type": "object"})
    in_form(qtbot, editor)
    type_into(qtbot, editor.text_edit, "a: 1\nb: [2, 3\nc: 4")
    with qtbot.assertNotEmitted(editor.changed):
        tab_away(qtbot, editor.text_edit)
    assert editor.message.isVisible()
    assert editor.error().startswith("Invalid YAML at line 3")


def test_yaml_that_is_not_a_mapping_is_refused(qtbot) -> None:
    editor = editor_for("headers", {"type": "object"})
    in_form(qtbot, editor)
    type_into(qtbot, editor.text_edit, "- a\n- b")
    with qtbot.assertNotEmitted(editor.changed):
        tab_away(qtbot, editor.text_edit)
    assert editor.error() == "Expected a mapping of keys to values, found list."


def test_yaml_is_coloured_by_the_highlighter(qtbot) -> None:
    editor = editor_for("headers", {"type": "object"})
    qtbot.addWidget(editor)
    editor.set_value({"url": "https://example.com"})
    block = editor.text_edit.document().firstBlock()
    formats = block.layout().formats()
    assert formats, "the key was not coloured"
    assert any(f.format.foreground().color().isValid() for f in formats)


def test_set_value_shows_without_emitting(qtbot) -> None:
    editors = [
        editor_for("a", {"type": "string"}),
        editor_for("b", {"type": "integer"}),
        editor_for("c", {"type": "boolean"}),
        editor_for("d", {"type": "string", "enum": ["x", "y"]}),
        editor_for("e", {"type": "array"}),
        editor_for("f", {"type": "object"}),
    ]
    values = ["text", 4, True, "y", ["p", "q"], {"k": {"nested": [1]}}]
    for editor, value in zip(editors, values, strict=True):
        qtbot.addWidget(editor)
        with qtbot.assertNotEmitted(editor.changed):
            editor.set_value(value)
        assert editor.value() == value
        assert editor.error() is None


def test_an_editor_form_shows_the_values_and_the_error_in_red(qtbot) -> None:
    schemas = {
        "title": {"type": "string", "description": "Shown above the summary."},
        "style": {"type": "string", "enum": ["short", "long"]},
        "limit": {"type": "integer", "minimum": 1},
        "verbose": {"type": "boolean"},
        "tags": {"type": "array"},
        "headers": {"type": "object"},
    }
    editors = [editor_for(name, schema) for name, schema in schemas.items()]
    editors[5].set_value({"Accept": "json"})
    host = in_form(qtbot, *editors)
    type_into(qtbot, editors[2].line_edit, "x")
    press_enter(qtbot, editors[2].line_edit)
    image = picture(host)
    assert_shows_text(image, host, editors[2].line_edit, "the typed limit")
    assert_shows_text(image, host, editors[5].text_edit.viewport(), "the headers")
    red = QColor(message_colour("error"))
    assert_ink(image, place_of(editors[2].message, host), red, "why the limit is refused")
    assert_no_ink(image, place_of(editors[5], host), red, "the valid headers")


def billion_laughs() -> str:
    """Nine levels of nine aliases: a few hundred bytes that stand for 387 million values."""
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, 9):
        aliases = ", ".join([f"*l{level - 1}"] * 9)
        lines.append(f"l{level}: &l{level} [{aliases}]")
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("text", "said"),
    [(billion_laughs(), "aliases repeat"), ("ratio: .nan", "numbers must be finite")],
    ids=["billion-laughs", "nan"],
)
def test_yaml_over_the_input_limits_is_refused_at_once(qtbot, text: str, said: str) -> None:
    editor = editor_for("headers", {"type": "object"})
    in_form(qtbot, editor)
    type_into(qtbot, editor.text_edit, text)
    with qtbot.assertNotEmitted(editor.changed):
        tab_away(qtbot, editor.text_edit)
    assert said in (editor.error() or "")


@pytest.mark.parametrize(
    ("schema", "text", "message"),
    [
        ({"type": "string", "maxLength": 3}, "long", "'long' is too long."),
        ({"type": "string", "pattern": "^[a-z]+$"}, "Abc", "'Abc' does not match '^[a-z]+$'."),
        ({"type": "integer", "multipleOf": 5}, "7", "7 is not a multiple of 5."),
    ],
)
def test_any_keyword_of_the_schema_is_checked_and_its_message_shown(
    qtbot, schema, text, message
) -> None:
    editor = editor_for("field", schema)
    in_form(qtbot, editor)
    type_into(qtbot, editor.line_edit, text)
    with qtbot.assertNotEmitted(editor.changed):
        press_enter(qtbot, editor.line_edit)
    assert editor.error() == message
    assert editor.message.text() == message


def test_a_list_longer_than_the_schema_allows_is_refused(qtbot) -> None:
    editor = editor_for("tags", {"type": "array", "items": {"type": "string"}, "maxItems": 1})
    in_form(qtbot, editor)
    type_into(qtbot, editor.text_edit, "a\nb")
    with qtbot.assertNotEmitted(editor.changed):
        tab_away(qtbot, editor.text_edit)
    assert editor.error() == "['a', 'b'] is too long."
