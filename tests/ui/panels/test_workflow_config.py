"""The workflow settings panel emits only the properties that changed."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit

from studio.model import Workflow, WorkflowConfiguration
from studio.model.configuration import CompensationSettings, CompensationTrigger
from studio.model.governance import CircuitBreakerSettings, GovernanceSettings
from studio.ui.panels.inline_message import message_colour
from studio.ui.panels.workflow_config import WorkflowConfigPanel
from tests.ui.panels.conftest import (
    click_check_box,
    press_enter,
    show,
    tab_away,
    type_into,
)
from tests.ui.pixels import (
    assert_cell_text,
    assert_ink,
    assert_no_ink,
    assert_shows_text,
    picture,
    place_of,
)

WORKFLOW = Workflow(
    name="Refund triage",
    description="Routes refunds.",
    category="Support",
    configuration={
        "integrations": {"zendesk": {"url": "https://x.zendesk.com"}},
        "credentials": {"zendesk": "env:ZENDESK_TOKEN"},
        "systemPromptAddition": "Be polite.",
    },
)


def open_panel(qtbot, workflow: Workflow = WORKFLOW) -> WorkflowConfigPanel:
    panel = WorkflowConfigPanel()
    panel.show_workflow(workflow)
    show(qtbot, panel, (520, 1800))
    return panel


def commit_line(qtbot, panel: WorkflowConfigPanel, field, text: str) -> dict:
    type_into(qtbot, field, text)
    with qtbot.waitSignal(panel.propertiesEdited) as emitted:
        press_enter(qtbot, field)
    return emitted.args[0]


def commit_area(qtbot, panel: WorkflowConfigPanel, area, text: str) -> dict:
    type_into(qtbot, area, text)
    with qtbot.waitSignal(panel.propertiesEdited) as emitted:
        tab_away(qtbot, area)
    return emitted.args[0]


def edit_cell(qtbot, panel: WorkflowConfigPanel, row: int, column: int, text: str) -> None:
    """Double-click a credentials cell, type and press Enter, as a person edits a table."""
    table = panel.credentials.table
    if row >= table.rowCount():
        qtbot.mouseClick(panel.credentials.add_button, Qt.MouseButton.LeftButton)
    editing = QAbstractItemView.State.EditingState
    if table.state() != editing or table.currentColumn() != column:  # "Add" opens the name
        table.setCurrentCell(row, column)
        table.editItem(table.item(row, column))
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QLineEdit))
    field = QApplication.focusWidget()
    qtbot.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(field, text)
    press_enter(qtbot, field)
    qtbot.waitUntil(lambda: table.state() != editing)  # the delegate commits on a later turn


def test_renaming_emits_only_the_name(qtbot) -> None:
    panel = open_panel(qtbot)
    assert commit_line(qtbot, panel, panel.name_edit, "Refund review") == {"name": "Refund review"}


def test_an_empty_name_is_refused_inline(qtbot) -> None:
    panel = open_panel(qtbot)
    type_into(qtbot, panel.name_edit, "")
    with qtbot.assertNotEmitted(panel.propertiesEdited):
        press_enter(qtbot, panel.name_edit)
    assert panel.name_message.isVisible() and "needs a name" in panel.name_message.text()


def test_description_and_category(qtbot) -> None:
    panel = open_panel(qtbot)
    changed = commit_area(qtbot, panel, panel.description_edit, "Routes refund requests.")
    assert changed == {"description": "Routes refund requests."}
    assert commit_line(qtbot, panel, panel.category_edit, "Finance") == {"category": "Finance"}


def test_the_timeout_is_a_positive_number_or_empty(qtbot) -> None:
    panel = open_panel(qtbot)
    field = panel.timeout_editor.line_edit
    assert field.placeholderText() == "No limit"
    type_into(qtbot, field, "ten minutes")
    with qtbot.assertNotEmitted(panel.propertiesEdited):
        press_enter(qtbot, field)
    assert panel.timeout_editor.message.isVisible()
    assert commit_line(qtbot, panel, field, "600") == {"timeout": 600.0}
    assert commit_line(qtbot, panel, field, "") == {"timeout": None}


def focused_cell() -> QLineEdit:
    widget = QApplication.focusWidget()
    assert isinstance(widget, QLineEdit), f"the cursor is in {widget!r}, not a cell"
    return widget


def type_cell(qtbot, text: str, then: Qt.Key = Qt.Key.Key_Tab) -> None:
    """Type into the cell with the cursor and move on with Tab (or Enter)."""
    cell = focused_cell()
    qtbot.keyClicks(cell, text)
    qtbot.keyClick(cell, then)


def edited_configurations(panel: WorkflowConfigPanel) -> list[WorkflowConfiguration]:
    seen: list[WorkflowConfiguration] = []

    def keep(changes: dict) -> None:
        assert list(changes) == ["configuration"]
        seen.append(changes["configuration"])

    panel.propertiesEdited.connect(keep)
    return seen


def test_a_parameter_typed_in_the_form_is_emitted_with_its_type(qtbot) -> None:
    panel = open_panel(qtbot)
    editor = panel.data_editors["parameters"]
    assert "No parameters yet" in editor.form.empty_label.text()
    seen = edited_configurations(panel)
    qtbot.mouseClick(editor.form.add_button, Qt.MouseButton.LeftButton)
    type_cell(qtbot, "region")
    type_cell(qtbot, "eu-west-1", then=Qt.Key.Key_Return)
    type_cell(qtbot, "limit")
    type_cell(qtbot, "3", then=Qt.Key.Key_Return)
    type_cell(qtbot, "code")
    type_cell(qtbot, '"3"', then=Qt.Key.Key_Return)
    assert seen[-1].parameters == {"region": "eu-west-1", "limit": 3, "code": "3"}
    assert type(seen[-1].parameters["limit"]) is int
    assert seen[-1].integrations == {"zendesk": {"url": "https://x.zendesk.com"}}
    assert seen[-1].credentials == {"zendesk": "env:ZENDESK_TOKEN"}
    assert seen[-1].system_prompt_addition == "Be polite."  # kept, though not shown


def test_an_integration_with_two_settings_is_added(qtbot) -> None:
    panel = open_panel(qtbot)
    blocks = panel.data_editors["integrations"].form
    assert blocks.blocks[0].id_edit.text() == "zendesk"
    seen = edited_configurations(panel)
    qtbot.mouseClick(blocks.add_button, Qt.MouseButton.LeftButton)
    type_cell(qtbot, "slack", then=Qt.Key.Key_Return)
    type_cell(qtbot, "channel")
    type_cell(qtbot, "refunds", then=Qt.Key.Key_Return)
    type_cell(qtbot, "notify")
    type_cell(qtbot, "true", then=Qt.Key.Key_Return)
    assert seen[-1].integrations == {
        "zendesk": {"url": "https://x.zendesk.com"},
        "slack": {"channel": "refunds", "notify": True},
    }


def test_a_repeated_key_is_named_and_nothing_is_emitted(qtbot) -> None:
    panel = open_panel(qtbot)
    editor = panel.data_editors["integrations"]
    block = editor.form.blocks[0]
    qtbot.mouseClick(block.rows.add_button, Qt.MouseButton.LeftButton)
    type_cell(qtbot, "url")
    with qtbot.assertNotEmitted(panel.propertiesEdited):
        type_cell(qtbot, "https://y.zendesk.com", then=Qt.Key.Key_Return)
    assert editor.message.isVisible()
    assert editor.message.text().startswith("zendesk, row 2: 'url' is already in row 1")
    changed = commit_line(qtbot, panel, panel.category_edit, "Finance")
    assert changed == {"category": "Finance"}  # the rest of the form goes on working


def test_the_yaml_view_shows_the_value_and_an_edit_there_shows_in_the_form(qtbot) -> None:
    panel = open_panel(qtbot)
    editor = panel.data_editors["integrations"]
    click_check_box(qtbot, editor.yaml_toggle)
    text_edit = editor.yaml_editor.text_edit
    assert text_edit.toPlainText() == "zendesk:\n  url: https://x.zendesk.com"
    changed = commit_area(
        qtbot, panel, text_edit, "zendesk:\n  url: https://y.zendesk.com\n  retries: 2"
    )
    configuration = changed["configuration"]
    assert configuration.integrations == {"zendesk": {"url": "https://y.zendesk.com", "retries": 2}}
    assert configuration.credentials == {"zendesk": "env:ZENDESK_TOKEN"}
    with qtbot.assertNotEmitted(panel.propertiesEdited):
        click_check_box(qtbot, editor.yaml_toggle)
    rows = editor.form.blocks[0].rows.rows
    assert [(row.key_edit.text(), row.value_edit.text()) for row in rows] == [
        ("url", "https://y.zendesk.com"),
        ("retries", "2"),
    ]


def test_malformed_yaml_keeps_the_yaml_view_with_its_line_and_is_not_emitted(qtbot) -> None:
    panel = open_panel(qtbot)
    editor = panel.data_editors["parameters"]
    click_check_box(qtbot, editor.yaml_toggle)
    type_into(qtbot, editor.yaml_editor.text_edit, "region: eu\nlimits: {a: 1")
    with qtbot.assertNotEmitted(panel.propertiesEdited):
        tab_away(qtbot, editor.yaml_editor.text_edit)
        click_check_box(qtbot, editor.yaml_toggle)
    assert editor.showing_yaml() and editor.yaml_editor.text_edit.isVisible()
    message = editor.yaml_editor.message
    assert message.isVisible() and "line 2" in message.text()


def test_an_integration_that_is_not_a_mapping_is_refused_at_the_field(qtbot) -> None:
    panel = open_panel(qtbot)
    editor = panel.data_editors["integrations"]
    click_check_box(qtbot, editor.yaml_toggle)
    type_into(qtbot, editor.yaml_editor.text_edit, "zendesk: https://x.zendesk.com")
    with qtbot.assertNotEmitted(panel.propertiesEdited):
        tab_away(qtbot, editor.yaml_editor.text_edit)
    message = editor.yaml_editor.message
    assert message.isVisible() and "zendesk" in message.text()


def test_agent_properties_with_the_registry_ids_offered(qtbot) -> None:
    panel = open_panel(qtbot)
    panel.set_agent_ids(["summarise", "refund"])
    blocks = panel.data_editors["agent_properties"].form
    assert "No agent settings yet" in blocks.empty_label.text()
    seen = edited_configurations(panel)
    qtbot.mouseClick(blocks.add_button, Qt.MouseButton.LeftButton)
    id_edit = focused_cell()
    qtbot.keyClicks(id_edit, "sum")
    popup = id_edit.completer().popup()
    qtbot.waitUntil(popup.isVisible)
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    qtbot.keyClick(id_edit, Qt.Key.Key_Return)
    type_cell(qtbot, "tone")
    type_cell(qtbot, "dry", then=Qt.Key.Key_Return)
    assert seen[-1].agent_properties == {"summarise": {"tone": "dry"}}


def test_reloading_the_same_workflow_changes_nothing(qtbot) -> None:
    panel = open_panel(qtbot)
    editor = panel.data_editors["parameters"]
    with qtbot.waitSignal(panel.propertiesEdited) as emitted:
        qtbot.mouseClick(editor.form.add_button, Qt.MouseButton.LeftButton)
        type_cell(qtbot, "region")
        type_cell(qtbot, "eu", then=Qt.Key.Key_Return)
    saved = WORKFLOW.model_copy(update=emitted.args[0])
    rows = list(editor.form.rows)  # the filled row and the new one the cursor is in
    cursor = QApplication.focusWidget()
    with qtbot.assertNotEmitted(panel.propertiesEdited):
        panel.show_workflow(saved)
        panel.show_workflow(saved)
    assert editor.form.rows == rows and QApplication.focusWidget() is cursor
    assert not editor.message.isVisible()


def test_a_credential_reference_is_added_in_the_table(qtbot) -> None:
    panel = open_panel(qtbot)
    edit_cell(qtbot, panel, 1, 0, "openai")
    assert panel.credentials.message.isVisible()  # a name without a reference yet
    with qtbot.waitSignal(panel.propertiesEdited) as emitted:
        edit_cell(qtbot, panel, 1, 1, "keyring:studio/openai")
    assert emitted.args[0]["configuration"].credentials == {
        "zendesk": "env:ZENDESK_TOKEN",
        "openai": "keyring:studio/openai",
    }
    assert not panel.credentials.message.isVisible()


def test_a_pasted_secret_is_refused_taken_out_and_never_repeated(qtbot) -> None:
    panel = open_panel(qtbot)
    secret = "sk-live-4f9a8b7c6d5e"
    with qtbot.assertNotEmitted(panel.propertiesEdited):
        edit_cell(qtbot, panel, 0, 1, secret)
    message = panel.credentials.message
    assert message.isVisible() and "env:" in message.text() and "keyring:" in message.text()
    assert secret not in message.text()
    assert panel.credentials.table.item(0, 1).text() == "env:ZENDESK_TOKEN"


def test_removing_a_credential(qtbot) -> None:
    panel = open_panel(qtbot)
    panel.credentials.table.selectRow(0)
    with qtbot.waitSignal(panel.propertiesEdited) as emitted:
        qtbot.mouseClick(panel.credentials.remove_button, Qt.MouseButton.LeftButton)
    assert emitted.args[0]["configuration"].credentials == {}


def test_compensation_settings(qtbot) -> None:
    panel = open_panel(qtbot)
    assert panel.show_workflow(WORKFLOW) is None
    with qtbot.waitSignal(panel.propertiesEdited) as emitted:
        click_check_box(qtbot, panel.compensation.enabled_check)
    assert emitted.args[0]["configuration"].compensation == CompensationSettings(enabled=True)
    changed = commit_line(qtbot, panel, panel.compensation.min_completed.line_edit, "2")
    assert changed["configuration"].compensation == CompensationSettings(
        enabled=True, trigger=CompensationTrigger(min_completed_nodes=2)
    )
    assert changed["configuration"].compensation.on_failure == "stop"


def test_governance_lists_and_breaker(qtbot) -> None:
    panel = open_panel(qtbot)
    governance = panel.governance
    changed = commit_area(qtbot, panel, governance.lists["deny_tools"].text_edit, "shell\nhttp")
    assert changed["configuration"].governance == GovernanceSettings(deny_tools=["shell", "http"])
    changed = commit_line(qtbot, panel, governance.threshold.line_edit, "3")
    assert changed["configuration"].governance.circuit_breaker == CircuitBreakerSettings(
        failure_threshold=3
    )
    changed = commit_line(qtbot, panel, governance.cooldown.line_edit, "12.5")
    assert changed["configuration"].governance.circuit_breaker.cooldown_seconds == 12.5
    type_into(qtbot, governance.threshold.line_edit, "0")
    with qtbot.assertNotEmitted(panel.propertiesEdited):
        press_enter(qtbot, governance.threshold.line_edit)
    assert governance.threshold.error() == "Must be at least 1."


def test_untouched_absent_policies_stay_absent(qtbot) -> None:
    panel = open_panel(qtbot)
    qtbot.mouseClick(panel.data_editors["parameters"].form.add_button, Qt.MouseButton.LeftButton)
    type_cell(qtbot, "a")
    with qtbot.waitSignal(panel.propertiesEdited) as emitted:
        type_cell(qtbot, "1", then=Qt.Key.Key_Return)
    changed = emitted.args[0]
    assert changed["configuration"].compensation is None
    assert changed["configuration"].governance is None


def test_a_save_failure_keeps_the_form(qtbot) -> None:
    panel = open_panel(qtbot)
    type_into(qtbot, panel.category_edit, "Half typed")
    panel.show_save_failure("the disk is full")
    assert panel.message.isVisible() and "the disk is full" in panel.message.text()
    assert panel.category_edit.text() == "Half typed"


def test_the_workflow_panel_shows_its_fields_and_the_refused_credential_in_red(qtbot) -> None:
    panel = open_panel(qtbot)
    edit_cell(qtbot, panel, 0, 1, "hunter2")
    panel.resize(480, 1500)
    image = picture(panel)
    assert_shows_text(image, panel, panel.name_edit, "the name")
    assert_shows_text(image, panel, panel.category_edit, "the category")
    table = panel.credentials.table
    assert_cell_text(image, table, table.model().index(0, 0), panel)
    red = QColor(message_colour("error"))
    assert_ink(image, place_of(panel.credentials.message, panel), red, "why it was refused")
    assert_no_ink(image, place_of(panel.name_edit, panel), red, "the valid name")


def test_the_configuration_forms_show_their_values_and_a_problem_in_red(qtbot) -> None:
    panel = open_panel(qtbot, WORKFLOW.model_copy(update={"configuration": CONFIGURED}))
    parameters = panel.data_editors["parameters"]
    type_into(qtbot, parameters.form.rows[1].key_edit, "region")
    with qtbot.assertNotEmitted(panel.propertiesEdited):
        tab_away(qtbot, parameters.form.rows[1].key_edit)
        tab_away(qtbot, parameters.form.rows[1].value_edit)
    assert "already in row 1" in parameters.message.text()
    image = picture(panel)
    integration = panel.data_editors["integrations"].form.blocks[0]
    assert_shows_text(image, panel, integration.id_edit, "the integration's id")
    assert_shows_text(image, panel, integration.rows.rows[0].value_edit, "its url")
    agent = panel.data_editors["agent_properties"].form.blocks[0]
    assert_shows_text(image, panel, agent.rows.rows[0].key_edit, "the agent's setting")
    assert_shows_text(image, panel, parameters.form.rows[0].value_edit, "a parameter's value")
    red = QColor(message_colour("error"))
    assert_ink(image, place_of(parameters.message, panel), red, "the repeated key")
    assert_no_ink(image, place_of(integration, panel), red, "the valid integration")


CONFIGURED = WorkflowConfiguration(
    integrations={"zendesk": {"url": "https://x.zendesk.com", "retries": 3}},
    agent_properties={"summarise": {"tone": "formal"}},
    parameters={"region": "eu-west-1", "limit": 3},
)
