"""Help for a person new to Studio: the empty window offers the ways to begin, Help → Keyboard
Shortcuts lists every command's keys and finds one by its words, and every toolbar button's
tooltip names its shortcut."""

import yaml
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton, QToolBar

from studio.ui.window.shortcuts_dialog import ShortcutsDialog

WAIT_MS = 10_000


def test_the_empty_window_starts_a_new_workflow(qtbot, window) -> None:
    welcome = window.workflows.tabs.welcome
    assert welcome.isVisible()

    qtbot.mouseClick(welcome.buttons["new"], Qt.MouseButton.LeftButton)

    qtbot.waitUntil(lambda: window.workflows.tabs.current() is not None, timeout=WAIT_MS)
    assert not welcome.isVisible()


def test_the_empty_window_lists_recent_files_and_opens_one(qtbot, window, tmp_path) -> None:
    path = tmp_path / "greet.yaml"
    nodes = [{"id": "hello", "agentId": "demo-echo-agent"}]
    path.write_text(yaml.safe_dump({"name": "Greet", "nodes": nodes}), encoding="utf-8")
    window.workflows.recent.remember(str(path))
    window.workflows.tabs.welcome.show_recent(window.workflows.recent.files())
    welcome = window.workflows.tabs.welcome
    link = next(b for b in welcome.findChildren(QPushButton) if b.text() == "greet.yaml")

    qtbot.mouseClick(link, Qt.MouseButton.LeftButton)

    qtbot.waitUntil(lambda: window.workflows.tabs.current() is not None, timeout=WAIT_MS)
    assert window.workflows.tabs.current().editor.document.properties.name == "Greet"


def test_ingest_knowledge_from_the_empty_window_goes_to_the_knowledge_mode(
    qtbot, window, monkeypatch
) -> None:
    asked: list[bool] = []
    monkeypatch.setattr(window.knowledge, "ingest_folder", lambda: asked.append(True))

    qtbot.mouseClick(window.workflows.tabs.welcome.buttons["ingest"], Qt.MouseButton.LeftButton)

    assert window.current_mode().name == "knowledge" and asked == [True]


def test_keyboard_shortcuts_lists_commands_and_finds_one(qtbot, window) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_Slash, Qt.KeyboardModifier.ControlModifier)
    dialog = window.findChild(ShortcutsDialog, "shortcutsDialog")
    assert dialog is not None and dialog.isVisible()
    rows = dict(dialog.rows())
    assert rows["Run"] == "F5" and rows["Undo"] == "Ctrl+Z"
    assert rows["Add a node (the palette opens where the pointer is)"] == "Tab"

    qtbot.keyClicks(dialog.search, "cancel run")

    assert dialog.rows() == [("Cancel Run", "Shift+F5")]


def test_every_toolbar_tooltip_names_its_shortcut(window) -> None:
    toolbar = window.findChild(QToolBar, "workflow-toolbar")
    for action in toolbar.actions():
        if action.isSeparator():
            continue
        keys = action.shortcut().toString()
        assert action.toolTip(), action.objectName()
        if keys:
            assert action.toolTip().endswith(f"({keys})"), action.toolTip()
    assert window.actions_by_name["run"].toolTip() == "Run the published workflow (F5)"
