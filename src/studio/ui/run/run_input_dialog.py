"""Asking for a run's input: a JSON editor filled with the input of the last run."""

import json
from typing import Any

from PySide6.QtGui import QFontDatabase, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from studio.model.input_limits import InputLimitError, load_json_within_limits
from studio.ui.panels.inline_message import InlineMessage
from studio.ui.run.json_view import JsonHighlighter, pretty_json
from studio.ui.run.object_names import named


class RunInputDialog(QDialog):
    """A JSON editor for the input of a run; Run is enabled only while the text is JSON
    within the input limits (depth, text length, finite numbers)."""

    def __init__(self, workflow_name: str, last_input: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Run '{workflow_name}'")
        self.resize(520, 360)
        self.editor = named(QPlainTextEdit(), "runInput")
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.highlighter = JsonHighlighter(self.editor.document())
        self.editor.setPlainText(pretty_json({} if last_input is None else last_input))
        self.problem = named(InlineMessage(), "runInputProblem")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.run_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.run_button.setText("Run")
        self.run_button.setToolTip("Run with this input (Ctrl+Return)")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        QShortcut(QKeySequence("Ctrl+Return"), self, self._run_if_valid)
        hint = "The workflow's input, as JSON. It is filled with the input of the last run."
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(hint, wordWrap=True))
        layout.addWidget(self.editor)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.editor.textChanged.connect(self._check)
        self._check()
        self.editor.setFocus()

    def value(self) -> Any:
        """The input as parsed JSON (only meaningful after the dialog was accepted)."""
        return load_json_within_limits(self.editor.toPlainText() or "null")

    def _check(self) -> None:
        problem = input_problem(self.editor.toPlainText())
        self.problem.show_warning(problem)
        self.run_button.setEnabled(problem is None)

    def _run_if_valid(self) -> None:
        if self.run_button.isEnabled():
            self.accept()


def input_problem(text: str) -> str | None:
    """Why ``text`` cannot be a run's input, or None when it can."""
    try:
        load_json_within_limits(text or "null")
    except json.JSONDecodeError as error:
        return f"Not JSON: line {error.lineno}, column {error.colno}: {error.msg}"
    except InputLimitError as beyond:
        return f"Not accepted: {beyond}"
    return None
