"""The edge condition editor: value parsing, the exists choice and inline errors."""

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor

from studio.model import Edge, EdgeCondition
from studio.ui.panels.condition_editor import ConditionEditor
from studio.ui.panels.condition_value import (
    ConditionValueError,
    condition_value_text,
    parse_condition_value,
)
from studio.ui.panels.inline_message import message_colour
from tests.ui.panels.conftest import press_enter, show, type_into
from tests.ui.pixels import assert_ink, assert_no_ink, assert_shows_text, picture, place_of

PLAIN = Edge(source="review", target="ship")
CONDITIONAL = Edge(
    source="review",
    target="ship",
    condition=EdgeCondition(field="result.status", operator="equals", value="approved"),
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("approved", "approved"),
        ("3", 3),
        ("2.5", 2.5),
        ("true", True),
        ("false", False),
        ("null", None),
        ('["a"]', ["a"]),
        ('{"k": 1}', {"k": 1}),
        ('"3"', "3"),
        ("  spaced words  ", "spaced words"),
        ("NaN", "NaN"),
    ],
)
def test_value_text_is_read_as_json_or_else_as_a_string(text, value) -> None:
    parsed = parse_condition_value(text, "equals")
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize("value", ["approved", "3", "", " x", 3, 2.5, True, None, ["a"], {"k": 1}])
def test_value_text_reads_back_as_the_same_value(value) -> None:
    text = condition_value_text(value)
    if value == "":
        assert text == '""'
    parsed = parse_condition_value(text, "equals")
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize(
    ("text", "operator", "message"),
    [
        ("", "equals", "Enter a value"),
        ("[1,", "equals", "Not valid JSON (column 4)"),
        ("[NaN]", "equals", "Not valid JSON"),
        ('["a"]', "greaterThan", "greaterThan compares numbers or text, not a list."),
        ("true", "lessThan", "lessThan compares numbers or text, not true/false."),
    ],
)
def test_unusable_value_text_is_refused(text, operator, message) -> None:
    with pytest.raises(ConditionValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_condition_value(text, operator)


def open_editor(qtbot, edge: Edge = CONDITIONAL) -> ConditionEditor:
    editor = ConditionEditor()
    editor.show_edge(edge)
    show(qtbot, editor, (440, 420))
    return editor


def commit_value(qtbot, editor: ConditionEditor, text: str) -> Edge:
    type_into(qtbot, editor.value_edit, text)
    with qtbot.waitSignal(editor.edgeEdited) as emitted:
        press_enter(qtbot, editor.value_edit)
    return emitted.args[0]


def test_an_edge_shows_its_condition(qtbot) -> None:
    editor = open_editor(qtbot)
    assert editor.when_radio.isChecked()
    assert editor.field_edit.text() == "result.status"
    assert editor.operator_combo.currentData() == "equals"
    assert editor.value_edit.text() == "approved"


@pytest.mark.parametrize(
    ("text", "value"),
    [("rejected", "rejected"), ("3", 3), ("true", True), ('["a"]', ["a"]), ('"3"', "3")],
)
def test_typed_values_are_emitted_with_their_type(qtbot, text, value) -> None:
    editor = open_editor(qtbot)
    edge = commit_value(qtbot, editor, text)
    assert isinstance(edge, Edge)
    assert edge.condition.value == value and type(edge.condition.value) is type(value)
    assert (edge.id, edge.source, edge.target) == (CONDITIONAL.id, "review", "ship")


def test_changing_from_3_to_true_counts_as_a_change(qtbot) -> None:
    editor = open_editor(qtbot)
    commit_value(qtbot, editor, "1")
    assert commit_value(qtbot, editor, "true").condition.value is True


def test_malformed_json_shows_a_message_and_emits_nothing(qtbot) -> None:
    editor = open_editor(qtbot)
    type_into(qtbot, editor.value_edit, '["a", ')
    with qtbot.assertNotEmitted(editor.edgeEdited):
        press_enter(qtbot, editor.value_edit)
    assert editor.value_message.isVisible()
    assert "Not valid JSON" in editor.value_message.text()


def test_an_empty_or_malformed_field_path_is_refused(qtbot) -> None:
    editor = open_editor(qtbot)
    for text, words in (("", "Name the output field"), ("result..status", "not a field path")):
        type_into(qtbot, editor.field_edit, text)
        with qtbot.assertNotEmitted(editor.edgeEdited):
            press_enter(qtbot, editor.field_edit)
        assert editor.field_message.isVisible() and words in editor.field_message.text()


def test_editing_the_field_path_emits(qtbot) -> None:
    editor = open_editor(qtbot)
    type_into(qtbot, editor.field_edit, "result.items[0].state")
    with qtbot.waitSignal(editor.edgeEdited) as emitted:
        press_enter(qtbot, editor.field_edit)
    assert emitted.args[0].condition.field == "result.items[0].state"


def test_picking_an_operator_emits_it(qtbot) -> None:
    editor = open_editor(qtbot)
    labels = [editor.operator_combo.itemText(i) for i in range(editor.operator_combo.count())]
    assert labels == [
        "equals",
        "does not equal",
        "contains",
        "is greater than",
        "is less than",
        "exists",
    ]
    editor.operator_combo.setFocus()
    with qtbot.waitSignal(editor.edgeEdited) as emitted:
        qtbot.keyClick(editor.operator_combo, Qt.Key.Key_Down)
    assert emitted.args[0].condition.operator == "notEquals"
    assert emitted.args[0].condition.value == "approved"


def test_a_list_value_with_greater_than_is_refused(qtbot) -> None:
    editor = open_editor(qtbot)
    commit_value(qtbot, editor, "[1]")
    editor.operator_combo.setFocus()
    with qtbot.assertNotEmitted(editor.edgeEdited):
        editor.operator_combo.setCurrentIndex(editor.operator_combo.findData("greaterThan"))
    assert "compares numbers or text" in editor.value_message.text()


def test_exists_disables_the_value_box_and_offers_true_or_false(qtbot) -> None:
    editor = open_editor(qtbot)
    assert not editor.exists_combo.isVisible()
    editor.operator_combo.setFocus()
    with qtbot.waitSignal(editor.edgeEdited) as emitted:
        qtbot.keyClick(editor.operator_combo, Qt.Key.Key_End)
    assert emitted.args[0].condition == EdgeCondition(
        field="result.status", operator="exists", value=True
    )
    assert not editor.value_edit.isEnabled()
    assert editor.exists_combo.isVisible()
    editor.exists_combo.setFocus()
    with qtbot.waitSignal(editor.edgeEdited) as emitted:
        qtbot.keyClick(editor.exists_combo, Qt.Key.Key_Down)
    assert emitted.args[0].condition.value is False


def test_an_exists_condition_ignores_bad_value_text(qtbot) -> None:
    edge = CONDITIONAL.model_copy(
        update={"condition": EdgeCondition(field="a", operator="exists", value=False)}
    )
    editor = open_editor(qtbot, edge)
    assert editor.exists_combo.currentData() is False
    assert editor.value_edit.text() == ""
    type_into(qtbot, editor.field_edit, "b")
    with qtbot.waitSignal(editor.edgeEdited) as emitted:
        press_enter(qtbot, editor.field_edit)
    assert emitted.args[0].condition == EdgeCondition(field="b", operator="exists", value=False)


def test_choosing_no_condition_emits_an_edge_without_one(qtbot) -> None:
    editor = open_editor(qtbot)
    with qtbot.waitSignal(editor.edgeEdited) as emitted:
        qtbot.mouseClick(editor.always_radio, Qt.MouseButton.LeftButton, pos=_left(editor))
    assert emitted.args[0].condition is None
    assert not editor.form.isEnabled()


def test_adding_a_condition_to_a_plain_edge(qtbot) -> None:
    editor = open_editor(qtbot, PLAIN)
    assert editor.always_radio.isChecked() and not editor.form.isEnabled()
    with qtbot.assertNotEmitted(editor.edgeEdited):  # nothing to emit until a field is named
        qtbot.mouseClick(editor.when_radio, Qt.MouseButton.LeftButton, pos=_left(editor))
    assert editor.field_edit.hasFocus()
    qtbot.keyClicks(editor.field_edit, "score")
    qtbot.keyClick(editor.field_edit, Qt.Key.Key_Tab)
    editor.operator_combo.setCurrentIndex(editor.operator_combo.findData("greaterThan"))
    type_into(qtbot, editor.value_edit, "0.8")
    with qtbot.waitSignal(editor.edgeEdited) as emitted:
        press_enter(qtbot, editor.value_edit)
    assert emitted.args[0].condition == EdgeCondition(
        field="score", operator="greaterThan", value=0.8
    )


def test_the_condition_editor_shows_the_condition_and_the_error_in_red(qtbot) -> None:
    editor = open_editor(qtbot)
    type_into(qtbot, editor.value_edit, "[1,")
    press_enter(qtbot, editor.value_edit)
    image = picture(editor)
    assert_shows_text(image, editor, editor.field_edit, "the field")
    assert_shows_text(image, editor, editor.value_edit, "the typed value")
    red = QColor(message_colour("error"))
    assert_ink(image, place_of(editor.value_message, editor), red, "the error under the value")
    assert_no_ink(image, place_of(editor.field_edit, editor), red, "the valid field")


def _left(editor: ConditionEditor) -> QPoint:
    """A point over a radio button's circle, where a person clicks it."""
    return QPoint(8, editor.always_radio.height() // 2)
