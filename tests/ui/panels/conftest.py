"""Helpers for driving the panels as a person would: focus, type, commit."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QStyle, QStyleOptionButton, QWidget

from studio.model import AgentDefinition

_shown: list[QWidget] = []


@pytest.fixture(autouse=True)
def _release_shown_windows():
    """Keep shown windows alive for the test (qtbot holds them weakly), then let them go."""
    yield
    _shown.clear()


def show(qtbot, widget: QWidget, size: tuple[int, int] = (480, 900)) -> QWidget:
    """Show ``widget`` as an active window, so typing and focus changes reach it."""
    qtbot.addWidget(widget)
    _shown.append(widget)
    widget.resize(*size)
    widget.show()
    qtbot.waitExposed(widget)
    widget.activateWindow()
    qtbot.waitUntil(widget.isActiveWindow)
    return widget


def type_into(qtbot, field: QWidget, text: str, *, replace: bool = True) -> None:
    """Click into ``field``, optionally select what is there, and type ``text``."""
    field.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.waitUntil(field.hasFocus)
    if replace:
        qtbot.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClick(field, Qt.Key.Key_Delete)
    for number, line in enumerate(text.split("\n")):
        if number:  # QTest cannot type a newline character; a person presses Return
            qtbot.keyClick(field, Qt.Key.Key_Return)
        if line:
            qtbot.keyClicks(field, line)


def click_check_box(qtbot, box: QCheckBox) -> None:
    """Click the box itself, where a person aims, whatever the widget's width."""
    option = QStyleOptionButton()
    box.initStyleOption(option)
    indicator = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=indicator.center())


def press_enter(qtbot, field: QWidget) -> None:
    """Press Enter in ``field``."""
    qtbot.keyClick(field, Qt.Key.Key_Return)


def tab_away(qtbot, field: QWidget) -> None:
    """Press Tab so focus leaves ``field`` (text areas commit on focus-out)."""
    qtbot.keyClick(field, Qt.Key.Key_Tab)
    qtbot.waitUntil(lambda: not field.hasFocus())


def paste_into(qtbot, field: QWidget, text: str) -> None:
    """Replace the contents of ``field`` by pasting ``text`` from the clipboard."""
    QApplication.clipboard().setText(text)
    field.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.waitUntil(field.hasFocus)
    qtbot.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(field, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


@pytest.fixture
def agents() -> list[AgentDefinition]:
    """A small registry: an LLM agent with one parameter of each kind, and a tool."""
    return [
        AgentDefinition(
            id="summarise",
            name="Summariser",
            kind="llm",
            models=["claude-3-haiku", "claude-3-sonnet"],
            parameters={
                "type": "object",
                "required": ["style"],
                "properties": {
                    "style": {"type": "string", "enum": ["short", "long"]},
                    "max_words": {"type": "integer", "minimum": 1, "default": 200},
                    "temperature": {"type": "number", "minimum": 0, "maximum": 2},
                    "verbose": {"type": "boolean", "default": False},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "headers": {"type": "object"},
                    "title": {"type": "string", "default": "Summary"},
                },
            },
        ),
        AgentDefinition(id="refund", name="Refund payment", kind="http"),
    ]
