"""Mappings edited in a form of key | value rows (or blocks of them), with a YAML view."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from studio.ui.panels.mapping_editor import (
    MappingFieldEditor,
    flat_mapping_editor,
    nested_mapping_editor,
)
from studio.ui.panels.yaml_cells import cell_text, read_cell
from tests.ui.panels.conftest import click_check_box, press_enter, show, tab_away, type_into


def parameters(qtbot, value: dict | None = None) -> MappingFieldEditor:
    editor = flat_mapping_editor("parameters", {"type": "object"}, "parameter", "parameters")
    editor.set_value(value or {})
    show(qtbot, editor, (460, 420))
    return editor


def integrations(qtbot, value: dict | None = None) -> MappingFieldEditor:
    editor = nested_mapping_editor(
        "integrations", {"type": "object"}, "integration", "integrations", "Add integration"
    )
    editor.set_value(value or {})
    show(qtbot, editor, (460, 520))
    return editor


def focused() -> QLineEdit:
    widget = QApplication.focusWidget()
    assert isinstance(widget, QLineEdit), f"the cursor is in {widget!r}, not a cell"
    return widget


def type_here(qtbot, text: str, then: Qt.Key = Qt.Key.Key_Tab) -> None:
    """Type into the cell with the cursor, then press Tab (or Enter) as a person moves on."""
    field = focused()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, then)


def click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def emissions(editor: MappingFieldEditor) -> list:
    seen: list = []
    editor.changed.connect(seen.append)
    return seen


def test_the_empty_state_says_what_to_do_and_its_link_adds_a_row(qtbot) -> None:
    editor = parameters(qtbot)
    label = editor.form.empty_label
    assert label.isVisible() and "No parameters yet" in label.text() and "Add one" in label.text()
    label.linkActivated.emit("add")  # what clicking the link does
    assert not label.isVisible() and len(editor.form.rows) == 1
    assert focused() is editor.form.rows[0].key_edit


def test_values_are_typed_as_yaml_scalars_and_each_row_is_committed_as_it_is_left(
    qtbot,
) -> None:
    editor = parameters(qtbot)
    seen = emissions(editor)
    click(qtbot, editor.form.add_button)
    for key, value in (("region", "eu-west-1"), ("limit", "3"), ("strict", "true")):
        type_here(qtbot, key)
        type_here(qtbot, value, then=Qt.Key.Key_Return)
    type_here(qtbot, "code")
    type_here(qtbot, '"3"', then=Qt.Key.Key_Return)
    type_here(qtbot, "tags")
    type_here(qtbot, "[a, b]")  # Tab from the last value goes on to the add button
    assert QApplication.focusWidget() is editor.form.add_button
    assert seen[-1] == {
        "region": "eu-west-1",
        "limit": 3,
        "strict": True,
        "code": "3",
        "tags": ["a", "b"],
    }
    assert type(seen[-1]["limit"]) is int
    assert [set(value) for value in seen] == [
        {"region"},
        {"region", "limit"},
        {"region", "limit", "strict"},
        {"region", "limit", "strict", "code"},
        {"region", "limit", "strict", "code", "tags"},
    ]  # one emission per row left, none while going from a key to its value


def test_values_are_shown_back_as_they_would_be_typed(qtbot) -> None:
    editor = parameters(qtbot, {"limit": 3, "code": "3", "on": True, "tags": ["a", "b"]})
    assert [row.value_edit.text() for row in editor.form.rows] == ["3", '"3"', "true", "[a, b]"]
    for value in (3, "3", "", "yes", "a: b", {"x": [1, "2"]}, ["line\nbreak"], None, 2.5):
        assert read_cell(cell_text(value)) == (value, None)


def test_a_repeated_key_is_named_and_nothing_is_emitted(qtbot) -> None:
    editor = parameters(qtbot, {"region": "eu"})
    click(qtbot, editor.form.add_button)
    type_here(qtbot, "region")
    with qtbot.assertNotEmitted(editor.changed):
        type_here(qtbot, "us")
    assert editor.message.isVisible()
    assert editor.message.text() == "Row 2: 'region' is already in row 1; keep one row per key."
    assert editor.error() is not None


def test_a_value_that_does_not_parse_or_has_no_key_is_named(qtbot) -> None:
    editor = parameters(qtbot, {"region": "eu"})
    value = editor.form.rows[0].value_edit
    type_into(qtbot, value, "{a: 1")
    with qtbot.assertNotEmitted(editor.changed):
        press_enter(qtbot, value)
    assert editor.message.text().startswith("Row 1: the value of 'region' cannot be read")
    type_into(qtbot, editor.form.rows[0].key_edit, "")
    type_into(qtbot, value, "eu")
    with qtbot.assertNotEmitted(editor.changed):
        tab_away(qtbot, value)
    assert editor.message.text() == "Row 1: give this value a key."


def test_a_text_that_reads_as_a_mapping_must_be_written_in_flow_style_or_quoted(qtbot) -> None:
    editor = parameters(qtbot, {"note": "x"})
    value = editor.form.rows[0].value_edit
    type_into(qtbot, value, "hello: world")
    with qtbot.assertNotEmitted(editor.changed):
        press_enter(qtbot, value)
    assert "{key: value}" in editor.message.text() and "quotes" in editor.message.text()
    type_into(qtbot, value, '"hello: world"')
    with qtbot.waitSignal(editor.changed) as emitted:
        press_enter(qtbot, value)
    assert emitted.args[0] == {"note": "hello: world"}
    assert not editor.message.isVisible()


def test_delete_in_an_empty_row_removes_it_and_the_remove_button_removes_any(qtbot) -> None:
    editor = parameters(qtbot, {"a": 1, "b": 2})
    click(qtbot, editor.form.add_button)
    assert len(editor.form.rows) == 3
    qtbot.keyClick(focused(), Qt.Key.Key_Delete)
    assert len(editor.form.rows) == 2
    assert focused() is editor.form.rows[1].value_edit  # back where the person came from
    with qtbot.waitSignal(editor.changed) as emitted:
        click(qtbot, editor.form.rows[0].remove_button)
    assert emitted.args[0] == {"b": 2}


def test_enter_in_a_blank_last_row_adds_no_more_rows(qtbot) -> None:
    editor = parameters(qtbot)
    click(qtbot, editor.form.add_button)
    qtbot.keyClick(focused(), Qt.Key.Key_Tab)
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    assert len(editor.form.rows) == 1


def test_an_integration_with_two_settings(qtbot) -> None:
    editor = integrations(qtbot)
    seen = emissions(editor)
    click(qtbot, editor.form.add_button)
    type_here(qtbot, "zendesk", then=Qt.Key.Key_Return)  # Enter: on to its first setting
    type_here(qtbot, "url")
    type_here(qtbot, "https://x.zendesk.com", then=Qt.Key.Key_Return)
    type_here(qtbot, "retries")
    type_here(qtbot, "2", then=Qt.Key.Key_Return)
    assert seen[-1] == {"zendesk": {"url": "https://x.zendesk.com", "retries": 2}}
    assert seen[0] == {"zendesk": {}}  # named before any setting


def test_a_setting_problem_names_the_integration_and_the_row(qtbot) -> None:
    editor = integrations(qtbot, {"zendesk": {"url": "https://x"}, "slack": {"channel": "a"}})
    block = editor.form.blocks[1]
    click(qtbot, block.rows.add_button)
    type_here(qtbot, "channel")
    with qtbot.assertNotEmitted(editor.changed):
        type_here(qtbot, "b")
    assert editor.message.text().startswith("slack, row 2: 'channel' is already in row 1")


def test_a_repeated_integration_and_one_without_an_id_are_refused(qtbot) -> None:
    editor = integrations(qtbot, {"zendesk": {"url": "https://x"}})
    click(qtbot, editor.form.add_button)
    with qtbot.assertNotEmitted(editor.changed):
        type_here(qtbot, "zendesk", then=Qt.Key.Key_Return)
    assert editor.message.text() == "'zendesk' is listed twice; keep one integration per id."
    type_into(qtbot, editor.form.blocks[1].id_edit, "")
    click(qtbot, editor.form.blocks[1].rows.add_button)
    type_here(qtbot, "url")
    with qtbot.assertNotEmitted(editor.changed):
        type_here(qtbot, "https://y")
    assert editor.message.text() == "Integration 2: give this integration an id."


def test_removing_an_integration(qtbot) -> None:
    editor = integrations(qtbot, {"zendesk": {"url": "https://x"}, "slack": {}})
    with qtbot.waitSignal(editor.changed) as emitted:
        click(qtbot, editor.form.blocks[0].remove_button)
    assert emitted.args[0] == {"slack": {}}


def test_the_ids_offered_complete_an_agent_id(qtbot) -> None:
    editor = nested_mapping_editor(
        "agent_properties", {"type": "object"}, "agent", "agent settings", "Add agent settings"
    )
    editor.set_value({})
    editor.set_suggestions(["summarise", "refund"])
    show(qtbot, editor, (460, 400))
    click(qtbot, editor.form.add_button)
    id_edit = focused()
    qtbot.keyClicks(id_edit, "su")
    popup = id_edit.completer().popup()
    qtbot.waitUntil(popup.isVisible)
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert id_edit.text() == "summarise"


def test_the_yaml_view_shows_the_same_value_and_an_edit_there_shows_in_the_form(qtbot) -> None:
    editor = parameters(qtbot, {"region": "eu-west-1", "limit": 3})
    click_check_box(qtbot, editor.yaml_toggle)
    text_edit = editor.yaml_editor.text_edit
    assert text_edit.isVisible() and not editor.form.isVisible()
    assert not editor.form.add_button.isVisible()
    assert text_edit.toPlainText() == "region: eu-west-1\nlimit: 3"
    type_into(qtbot, text_edit, "region: eu-west-1\nlimit: 4\ncode: '3'")
    with qtbot.waitSignal(editor.changed) as emitted:
        tab_away(qtbot, text_edit)
    assert emitted.args[0] == {"region": "eu-west-1", "limit": 4, "code": "3"}
    with qtbot.assertNotEmitted(editor.changed):
        click_check_box(qtbot, editor.yaml_toggle)
    assert editor.form.isVisible() and not text_edit.isVisible()
    rows = [(row.key_edit.text(), row.value_edit.text()) for row in editor.form.rows]
    assert rows == [("region", "eu-west-1"), ("limit", "4"), ("code", '"3"')]


def test_invalid_yaml_keeps_the_yaml_view_open_with_its_message(qtbot) -> None:
    editor = parameters(qtbot, {"region": "eu"})
    click_check_box(qtbot, editor.yaml_toggle)
    type_into(qtbot, editor.yaml_editor.text_edit, "region: eu\nlimits: {a: 1")
    with qtbot.assertNotEmitted(editor.changed):
        click_check_box(qtbot, editor.yaml_toggle)
    assert editor.showing_yaml() and editor.yaml_toggle.isChecked()
    assert editor.yaml_editor.text_edit.isVisible()
    message = editor.yaml_editor.message
    assert message.isVisible() and "line 2" in message.text()
    assert editor.error() is not None


def test_yaml_the_form_cannot_show_stays_in_the_yaml_view(qtbot) -> None:
    editor = integrations(qtbot, {"zendesk": {"url": "https://x"}})
    click_check_box(qtbot, editor.yaml_toggle)
    text_edit = editor.yaml_editor.text_edit
    type_into(qtbot, text_edit, "zendesk: https://x.zendesk.com")
    with qtbot.assertNotEmitted(editor.changed):
        tab_away(qtbot, text_edit)
    message = editor.yaml_editor.message
    assert message.isVisible() and "'zendesk' needs its settings as a mapping" in message.text()
    click_check_box(qtbot, editor.yaml_toggle)
    assert editor.showing_yaml() and message.isVisible()


def test_a_form_with_a_problem_does_not_switch_to_yaml(qtbot) -> None:
    editor = parameters(qtbot, {"region": "eu"})
    click(qtbot, editor.form.add_button)
    type_here(qtbot, "region")
    type_here(qtbot, "us")
    click_check_box(qtbot, editor.yaml_toggle)
    assert not editor.showing_yaml() and not editor.yaml_toggle.isChecked()
    assert "already in row 1" in editor.message.text()


def test_showing_the_same_value_again_keeps_the_rows_being_typed(qtbot) -> None:
    editor = parameters(qtbot, {"region": "eu"})
    rows_before = list(editor.form.rows)
    click(qtbot, editor.form.add_button)
    with qtbot.assertNotEmitted(editor.changed):
        editor.set_value({"region": "eu"})
    assert editor.form.rows[:1] == rows_before and len(editor.form.rows) == 2
    editor.set_value({"region": "us"})
    assert [row.value_edit.text() for row in editor.form.rows] == ["us"]


def test_a_message_from_outside_shows_in_the_view_that_is_open(qtbot) -> None:
    editor = parameters(qtbot, {"region": "eu"})
    editor.show_error("region: not allowed here")
    assert editor.message.isVisible() and editor.message.text() == "region: not allowed here"
    editor.set_value({"region": "us"})
    click_check_box(qtbot, editor.yaml_toggle)
    editor.show_error("region: not allowed here")
    assert editor.yaml_editor.message.text() == "region: not allowed here"
    assert editor.error() == "region: not allowed here"
