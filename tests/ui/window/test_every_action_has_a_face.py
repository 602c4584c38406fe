"""Every command and control of the main window can be seen and named: each action has an icon
of Studio's set, words and a tooltip; each button, field, list and table shown in any mode has
a name a screen reader announces (what ``QAccessible`` gives it: its accessible name, a button's
text or tooltip, a field's label)."""

import pytest
import shiboken6
import yaml
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QLineEdit,
    QListView,
    QTabBar,
    QTableView,
    QTreeView,
    QWidget,
)

from studio.ui.icons import ACTION_ICONS
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace
from tests.ui.answers import answer

MODES = ("workflows", "knowledge", "work")
CONTROLS = (QAbstractButton, QLineEdit, QComboBox, QTreeView, QListView, QTableView)


@pytest.fixture
def window(qtbot, tmp_path, studio_data_dir) -> MainWindow:
    """The window with a workflow open, a node selected and the run panels shown: as many of
    its controls on screen as a person meets in a first session."""
    window = MainWindow(Workspace(data_dir=studio_data_dir))
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    path = tmp_path / "greet.yaml"
    nodes = [{"id": f"n{i}", "agentId": "demo-echo-agent"} for i in range(2)]
    path.write_text(yaml.safe_dump({"name": "Greet", "nodes": nodes}), encoding="utf-8")
    tab = answer(qtbot, window.workflows.files.open_workflow_file(str(path)))
    tab.editor.scene.select_only(["n0"])
    for name in ("runs_panel", "approvals_panel"):
        window.actions_by_name[name].trigger()
    return window


def spoken_name(widget: QWidget) -> str:
    """The name a screen reader announces for ``widget``."""
    face = QAccessible.queryAccessibleInterface(widget)
    return face.text(QAccessible.Text.Name).strip() if face is not None else ""


def described(widget: QWidget) -> str:
    """Which widget this is, for a failure message: its class, name and where it sits."""
    owners = []
    parent = widget.parentWidget()
    while parent is not None and len(owners) < 3:
        owners.append(parent.objectName() or type(parent).__name__)
        parent = parent.parentWidget()
    return f"{type(widget).__name__} '{widget.objectName()}' in {' < '.join(owners)}"


def shown_controls(window: MainWindow) -> list[QWidget]:
    """The buttons, fields, lists and tables the window shows now."""
    QApplication.processEvents()
    found = (w for kind in CONTROLS for w in window.findChildren(kind))
    return [widget for widget in found if widget.isVisible()]


def controls_of_mode(window: MainWindow, mode: str) -> list[QWidget]:
    """Every control the mode shows, with each of its docks brought forward in turn (docks
    tabbed together show one at a time)."""
    docks = window.show_mode(mode).docks
    seen = {id(w): w for w in shown_controls(window)}
    for dock in docks:
        dock.show()
        dock.raise_()
        seen.update((id(w), w) for w in shown_controls(window))
    return [w for w in seen.values() if shiboken6.isValid(w)]  # not one deleted since


def test_every_action_has_an_icon_words_and_a_tooltip(window) -> None:
    faceless = [
        name
        for name, action in window.actions_by_name.items()
        if action.icon().isNull() or not action.text() or not action.toolTip()
    ]
    assert faceless == []
    assert set(window.actions_by_name) <= set(ACTION_ICONS)  # one icon table for them all


def test_every_toolbar_button_shows_an_icon_and_names_its_command(window) -> None:
    for mode in MODES:
        toolbar = window.show_mode(mode).toolbar
        if toolbar is None:
            continue
        for action in toolbar.actions():
            if action.isSeparator():
                continue
            button = toolbar.widgetForAction(action)
            assert button is not None and not button.icon().isNull(), action.objectName()
            assert spoken_name(button) == action.iconText()


def test_every_control_shown_in_every_mode_has_a_name_a_screen_reader_reads(window) -> None:
    unnamed: list[str] = []
    for mode in MODES:
        controls = controls_of_mode(window, mode)
        assert controls, mode
        unnamed += [f"{mode}: {described(w)}" for w in controls if not spoken_name(w)]
    assert unnamed == []


def test_every_button_shown_has_words_or_an_icon_to_see(window) -> None:
    blank: list[str] = []
    for mode in MODES:
        for button in controls_of_mode(window, mode):
            if not isinstance(button, QAbstractButton):
                continue
            if isinstance(button.parentWidget(), QTabBar):  # a tab's cross, drawn by the style
                seen = bool(button.toolTip())
            else:
                seen = bool(button.text()) or not button.icon().isNull()
            if not seen:
                blank.append(f"{mode}: {described(button)}")
    assert blank == []
