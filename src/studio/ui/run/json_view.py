"""Read-only, syntax-coloured, pretty-printed JSON: a step's input, output or error."""

import json
from typing import Any

from pygments.lexers.data import JsonLexer
from PySide6.QtGui import QFontDatabase, QTextDocument
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from studio.ui.panels.pygments_highlighter import PygmentsHighlighter

COLOURED_CHARACTERS = 100_000
"""Longer text is shown plain: colouring it line by line would hold the window up."""


def pretty_json(value: Any) -> str:
    """``value`` as indented JSON; anything JSON cannot hold is written as its text."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


class JsonHighlighter(PygmentsHighlighter):
    """Colours JSON keys, strings, numbers and constants in a document."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document, JsonLexer(stripnl=False, ensurenl=False))


class JsonView(QPlainTextEdit):
    """A read-only monospace view of one JSON value, pretty-printed and coloured."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.highlighter = JsonHighlighter(self.document())

    def show_value(self, value: Any) -> None:
        """Show ``value`` as pretty JSON, coloured unless it is very long."""
        self.show_text(pretty_json(value))

    def show_text(self, text: str) -> None:
        """Show JSON text already written, coloured unless it is very long."""
        coloured = len(text) <= COLOURED_CHARACTERS
        if (self.highlighter.document() is not None) != coloured:
            self.highlighter.setDocument(self.document() if coloured else None)
        self.setPlainText(text)

    def show_nothing(self, reason: str) -> None:
        """Show no value, with ``reason`` greyed in its place (e.g. "No output yet")."""
        self.clear()
        self.setPlaceholderText(reason)
