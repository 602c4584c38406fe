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


def test_integrations_are_edited_as_yaml(qtbot) -> None:
    panel = open_panel(qtbot)
    editor = panel.data_editors["integrations"]
    changed = commit_area(
        qtbot, panel, editor.text_edit, "zendesk:\n  url: https://y.zendesk.com\n  retries: 2"
    )
    assert list(changed) == ["configuration"]
    configuration = changed["configuration"]
    assert isinstance(configuration, WorkflowConfiguration)
    assert configuration.integrations == {"zendesk": {"url": "https://y.zendesk.com", "retries": 2}}
    assert configuration.credentials == {"zendesk": "env:ZENDESK_TOKEN"}
    assert configuration.system_prompt_addition == "Be polite."  # kept, though not shown


def test_malformed_yaml_is_shown_with_its_line_and_not_emitted(qtbot) -> None:
    panel = open_panel(qtbot)
    editor = panel.data_editors["parameters"]
    type_into(qtbot, editor.text_edit, "region: eu\nlimits: {a: 1")
    with qtbot.assertNotEmitted(panel.propertiesEdited):
        tab_away(qtbot, editor.text_edit)
    assert editor.message.isVisible() and "line 2" in editor.message.text()


def test_an_integration_that_is_not_a_mapping_is_refused_at_the_field(qtbot) -> None:
    panel = open_panel(qtbot)
    editor = panel.data_editors["integrations"]
    type_into(qtbot, editor.text_edit, "zendesk: https://x.zendesk.com")
    with qtbot.assertNotEmitted(panel.propertiesEdited):
        tab_away(qtbot, editor.text_edit)
    assert editor.message.isVisible() and "zendesk" in editor.message.text()


def test_agent_properties_and_parameters(qtbot) -> None:
    panel = open_panel(qtbot)
    changed = commit_area(
        qtbot, panel, panel.data_editors["agent_properties"].text_edit, "summarise:\n  tone: dry"
    )
    assert changed["configuration"].agent_properties == {"summarise": {"tone": "dry"}}
    changed = commit_area(qtbot, panel, panel.data_editors["parameters"].text_edit, "region: eu")
    assert changed["configuration"].parameters == {"region": "eu"}


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
    changed = commit_area(qtbot, panel, panel.data_editors["parameters"].text_edit, "a: 1")
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
