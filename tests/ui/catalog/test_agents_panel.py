"""The Agents dock as a designer uses it: the library listed with search, a built-in agent's
versions, forking it into your own (which then shadows it, the original one click away), and
what changed between two of your versions."""

from PySide6.QtCore import Qt

from studio.model.agent_library import DEFAULT, SYSTEM
from tests.ui.answers import answer

ECHO = "demo-echo-agent"


def open_agents(qtbot, window):
    """Bring the Agents dock forward, as clicking its tab does; once the library is listed."""
    mode = window.workflows
    window.actions_by_name["agent_library"].trigger()
    panel = mode.agents_panel
    qtbot.waitUntil(lambda: panel.tree.topLevelItemCount() > 0)
    return panel


def listed(panel) -> dict[str, str]:
    """Each shown agent's id and whose it is."""
    items = (panel.tree.topLevelItem(row) for row in range(panel.tree.topLevelItemCount()))
    return {
        item.data(0, Qt.ItemDataRole.UserRole): item.text(2)
        for item in items
        if not item.isHidden()
    }


def test_the_library_is_listed_and_searched(qtbot, window) -> None:
    panel = open_agents(qtbot, window)
    shown = listed(panel)
    assert shown[ECHO] == "built-in" and len(shown) == len(
        window.workspace.agent_library.library().entries()
    )
    qtbot.keyClicks(panel.search, "echo")
    assert list(listed(panel)) == [ECHO]


def test_fork_a_built_in_then_it_shadows_the_original(qtbot, window) -> None:
    panel = open_agents(qtbot, window)
    panel.choose(ECHO)
    qtbot.waitUntil(lambda: panel.older.count() == 1)
    assert panel.fork_button.isEnabled() and not panel.original_button.isVisible()
    assert panel.older.currentText().startswith(f"v1 {SYSTEM}")

    qtbot.mouseClick(panel.fork_button, Qt.MouseButton.LeftButton)

    qtbot.waitUntil(lambda: listed(panel).get(ECHO) == "yours, over the built-in")
    assert window.workspace.agent_library.library().current(ECHO).namespace == DEFAULT
    assert not panel.fork_button.isEnabled() and panel.original_button.isVisible()
    qtbot.mouseClick(panel.original_button, Qt.MouseButton.LeftButton)
    assert panel.diff.toPlainText() == "The two versions are the same."


def test_two_of_your_versions_are_compared(qtbot, window) -> None:
    library = window.workspace.agent_library
    library.fork(ECHO)
    first = library.get(ECHO)
    library.save(first.definition.model_copy(update={"description": "Says it back, louder"}))
    panel = open_agents(qtbot, window)
    answer(qtbot, window.workflows.agent_library.refresh())

    panel.choose(ECHO)

    qtbot.waitUntil(lambda: panel.newer.count() == 2)
    assert panel.newer.currentText().startswith(f"v2 {DEFAULT}")
    text = panel.diff.toPlainText()
    assert "+description: Says it back, louder" in text and f"{DEFAULT} v1" in text
