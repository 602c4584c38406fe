"""Issue acceptance: a designer opens the catalog, narrows it by a category tab and by words,
opens the Conditional Router, clicks Use in app, creates an app in the dialog, maps its
placeholders (the dialog refuses to finish until they are mapped), gets "Conditional Router
(Copy)" on the canvas bound to the app, publishes and runs it."""

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialog, QMessageBox

from studio.model.errors import NotAllowedError
from studio.ui.catalog.use_in_app_dialog import NEW_APP, UseInAppDialog
from studio.workspace import Workspace
from tests.ui.answers import answer_on
from tests.ui.catalog.test_browsing_the_catalog import click_tab, shown_names
from tests.ui.modal import when_modal_opens
from tests.ui.run.run_loop import run_loop, until  # noqa: F401
from tests.ui.run.window_runs import open_window, run_from_canvas

SLOTS = ["placeholder-classifier", "placeholder-fulfiller", "placeholder-responder"]
ECHO = "demo-echo-agent"


@pytest.fixture
def window(qtbot, run_loop):  # noqa: F811
    window = open_window(qtbot, Workspace())
    yield window
    window.workflows.runs.shutdown()


def when_dialog_opens(act: Callable[[UseInAppDialog], None]) -> list[str]:
    """Act on the UseInAppDialog once it is up; what went wrong inside."""
    return when_modal_opens(UseInAppDialog, act)


def choose(qtbot, combo: QComboBox, agent_id: str) -> None:
    """Pick an agent in a slot's chooser with the keyboard, as a person would."""
    combo.setFocus()
    while combo.currentData() != agent_id:
        qtbot.keyClick(combo, Qt.Key.Key_Down)


def map_and_create_the_app(qtbot, dialog: UseInAppDialog) -> None:
    assert dialog.app_combo.currentText() == NEW_APP  # no app yet: a new one
    assert not dialog.use_button.isEnabled()
    qtbot.keyClicks(dialog.new_app_edit, "Support desk")
    assert list(dialog.slot_combos) == SLOTS
    assert not dialog.use_button.isEnabled()  # the placeholders are not mapped yet
    assert "placeholder-classifier" in dialog.missing.text()
    qtbot.mouseClick(dialog.use_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and dialog.result() != QDialog.DialogCode.Accepted
    for slot in SLOTS[:2]:
        choose(qtbot, dialog.slot_combos[slot], ECHO)
    assert not dialog.use_button.isEnabled()
    choose(qtbot, dialog.slot_combos[SLOTS[2]], ECHO)
    assert dialog.use_button.isEnabled() and not dialog.missing.isVisible()
    qtbot.mouseClick(dialog.use_button, Qt.MouseButton.LeftButton)


def test_use_the_conditional_router_in_a_new_app_then_publish_and_run_it(
    qtbot,
    window,
    run_loop,  # noqa: F811
) -> None:
    answer_on(run_loop, window.workflows.catalog.browse())
    browser = window.workflows.catalog.browser
    until(run_loop, lambda: browser.cards.currentWidget() is browser.grid)
    click_tab(qtbot, browser, "routing")
    qtbot.keyClicks(browser.search, "router")
    assert shown_names(browser) == ["Conditional Router"]
    qtbot.keyClick(browser.search, Qt.Key.Key_Down)
    qtbot.keyClick(browser.grid, Qt.Key.Key_Return)
    failures = when_dialog_opens(lambda dialog: map_and_create_the_app(qtbot, dialog))

    qtbot.mouseClick(browser.viewer.use_button, Qt.MouseButton.LeftButton)

    tabs = window.workflows.tabs
    until(run_loop, lambda: failures or tabs.current() is not None)
    assert failures == []
    copy = tabs.current().editor.document.snapshot()
    assert copy.name == "Conditional Router (Copy)" and not copy.is_blueprint
    assert {node.agent_id for node in copy.nodes} == {ECHO}
    (app,) = window.workspace.apps.find()
    stored = window.workspace.workflows.get(tabs.current().workflow_id)
    assert app.name == "Support desk" and app.workflow_ids == [stored.id]
    assert stored.app_id == app.id and stored.status == "DRAFT"
    assert stored.blueprint_id == "conditional-router" and stored.blueprint_version == 1

    assert answer_on(run_loop, window.workflows.files.publish_current())
    run_from_canvas(qtbot, window, run_loop, '{"status": "approved"}')
    until(run_loop, lambda: "Completed" in window.workflows.live_runs.progress.label.text())
    (record,) = window.workspace.executions.find(workflow_id=stored.id)
    assert record.status == "completed"


def test_cancelling_the_dialog_imports_nothing(qtbot, window, run_loop) -> None:  # noqa: F811
    future = window.workflows.catalog.use_blueprint_in_app("conditional-router")
    failures = when_dialog_opens(lambda dialog: dialog.reject())
    assert answer_on(run_loop, future) is None
    assert failures == []
    assert window.workspace.workflows.find(blueprints=False) == []
    assert window.workspace.apps.find() == []


def test_a_refused_import_leaves_no_new_app_behind(
    qtbot,
    window,
    run_loop,  # noqa: F811
    monkeypatch,
) -> None:
    """Another window changed the catalog meanwhile: the import is refused, the app made for it
    goes again, and the refusal is shown."""

    def refused(*_args, **_kwargs):
        raise NotAllowedError("Only published blueprints can be imported")

    monkeypatch.setattr(window.workspace.apps, "import_blueprint", refused)

    def keep_the_placeholders_and_go(dialog: UseInAppDialog) -> None:
        qtbot.keyClicks(dialog.new_app_edit, "Orders")
        qtbot.mouseClick(dialog.keep_box, Qt.MouseButton.LeftButton)
        assert dialog.use_button.isEnabled()
        qtbot.mouseClick(dialog.use_button, Qt.MouseButton.LeftButton)

    future = window.workflows.catalog.use_blueprint_in_app("conditional-router")
    failures = when_dialog_opens(keep_the_placeholders_and_go)
    told = when_refusal_shown()
    assert answer_on(run_loop, future) is None
    assert failures == []
    assert told == ["Only published blueprints can be imported"]
    assert window.workspace.apps.find() == []
    assert window.workspace.workflows.find(blueprints=False) == []


def when_refusal_shown() -> list[str]:
    """Read and close the message box a refused command shows (it runs its own loop)."""
    told: list[str] = []
    when_modal_opens(QMessageBox, lambda box: (told.append(box.text()), box.close()))
    return told
