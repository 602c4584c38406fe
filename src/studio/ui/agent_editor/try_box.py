"""The "Try it" box: call the agent being made once with sample input and show what it
answered, or why it failed. The call runs on the store thread's loop, never on the UI thread."""

import json
import time
from typing import Any, TypeVar

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    QWidget,
)

from studio.model import AgentDefinition
from studio.ui.agent_editor.kind_forms import KindForm
from studio.ui.agent_editor.trial import failure_text, try_agent
from studio.ui.panels.inline_message import InlineMessage
from studio.ui.store_calls import StoreCalls

W = TypeVar("W", bound=QWidget)
INPUT_HEIGHT = 140
NOT_READY = "Fix the problems marked in the definition first."


class TryBox(QGroupBox):
    """Sample input and parameters, a Try button, and the answer."""

    answered = Signal()  # the output or the error is shown

    def __init__(self, form: KindForm, parent: QWidget | None = None) -> None:
        super().__init__("Try it", parent)
        self.calls = StoreCalls(parent=self)
        self.definition: AgentDefinition | None = None
        self.input_edit = self._mono(QPlainTextEdit(form.sample_input, self))
        self.input_edit.setAccessibleName("Sample input (JSON)")
        self.input_edit.setMaximumHeight(INPUT_HEIGHT)
        self.parameters_edit = QLineEdit("{}", self)
        self.parameters_edit.setAccessibleName("Sample parameters (JSON)")
        self.try_button = QPushButton("Try", self)
        self.try_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPlay))
        self.try_button.setToolTip("Call the agent once with this input (Ctrl+Enter)")
        self.try_button.setShortcut("Ctrl+Return")
        self.try_button.clicked.connect(self.try_once)
        self.status = QLabel(form.note if not form.can_try else "", self)
        self.status.setWordWrap(True)
        self.error = InlineMessage(self)
        self.output = self._mono(QPlainTextEdit(self))
        self.output.setReadOnly(True)
        self.output.setAccessibleName("Output")
        self.output.setPlaceholderText("The agent's output appears here.")
        self._lay_out(form)

    def _lay_out(self, form: KindForm) -> None:
        layout = QFormLayout(self)
        layout.addRow("Input (JSON)", self.input_edit)
        layout.addRow("Parameters (JSON)", self.parameters_edit)
        layout.addRow("", self.try_button)
        layout.addRow(self.status)
        layout.addRow(self.error)
        layout.addRow("Output", self.output)
        self.can_try = form.can_try
        self.try_button.setEnabled(False)

    def _mono(self, widget: W) -> W:
        widget.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        return widget

    def set_definition(self, definition: AgentDefinition | None) -> None:
        """The definition a try calls, or None while it cannot be loaded."""
        self.definition = definition
        self.try_button.setEnabled(self.can_try and definition is not None)
        self.try_button.setToolTip(
            NOT_READY if definition is None else "Call the agent once with this input (Ctrl+Enter)"
        )

    def try_once(self) -> None:
        """Call the agent with the sample input, off the UI thread."""
        if self.definition is None or not self.can_try:
            return
        try:
            node_input = _json(self.input_edit.toPlainText(), "The input")
            parameters = _json(self.parameters_edit.text() or "{}", "The parameters")
        except ValueError as failure:
            self._failed_before(str(failure))
            return
        if not isinstance(parameters, dict):
            self._failed_before('The parameters must be a JSON object, like {"name": 1}.')
            return
        self.try_button.setEnabled(False)
        self.error.clear_message()
        self.status.setText("Calling the agent…")
        started = time.monotonic()
        self.calls.run(
            try_agent(self.definition, node_input, parameters),
            lambda output: self._show_output(output, time.monotonic() - started),
            self._show_failure,
        )

    def _show_output(self, output: Any, seconds: float) -> None:
        self.output.setPlainText(json.dumps(output, indent=2, ensure_ascii=False))
        self.status.setText(f"Answered in {seconds:.2f} s.")
        self._done()

    def _show_failure(self, failure: Exception) -> None:
        self.output.clear()
        self.status.setText("The call failed.")
        self.error.show_error(failure_text(failure))
        self._done()

    def _failed_before(self, text: str) -> None:
        self.status.setText("Nothing was called.")
        self.error.show_error(text)
        self.answered.emit()

    def _done(self) -> None:
        self.set_definition(self.definition)
        self.answered.emit()


def _json(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as failure:
        raise ValueError(
            f"{what} is not JSON: {failure.msg} (line {failure.lineno}, column {failure.colno})."
        ) from None
