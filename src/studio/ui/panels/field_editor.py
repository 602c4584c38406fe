"""The base of every schema field editor: an input, a hint and an inline message."""

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from studio.model.agent_parameters import field_problem
from studio.ui.panels.inline_message import InlineMessage, message_colour


def same_value(first: Any, second: Any) -> bool:
    """Equal and of the same type, so ``1``, ``1.0`` and ``True`` count as different edits."""
    return type(first) is type(second) and first == second


def humanise(name: str) -> str:
    """A label from a field name: ``max_retries`` or ``maxRetries`` becomes "Max retries"."""
    spaced = "".join(f" {c.lower()}" if c.isupper() else c for c in name).replace("_", " ")
    spaced = " ".join(spaced.split())
    return spaced[:1].upper() + spaced[1:]


class FieldEditor(QWidget):
    """Edits one value described by a JSON schema and emits it when the person commits.

    ``value()`` is the current value (None for "not set"); it means nothing while ``error()``
    is not None. ``changed`` carries a committed, valid value that differs from the last one
    committed or set; an invalid value shows a message under the field and is never emitted.
    A value is valid when the input can be read and the field's JSON Schema holds for it (the
    message is the one publishing and the engine give, see :mod:`studio.model.agent_parameters`).
    """

    changed = Signal(object)

    def __init__(self, name: str, schema: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.schema = schema
        self._committed: Any = None
        self._external_error: str | None = None
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(2)
        self.message = InlineMessage()
        self._layout.addWidget(self.message)

    def label(self) -> str:
        """The text for the field's label: the schema's title, else the name in words."""
        return str(self.schema.get("title") or humanise(self.name))

    def value(self) -> Any:
        """The value in the input now; None when it is not set."""
        raise NotImplementedError

    def set_value(self, value: Any) -> None:
        """Show ``value`` without emitting ``changed``; None shows the field as not set."""
        self._show_value(value)
        self._committed = self.value() if self._input_error() is None else value
        self._external_error = None
        self.message.show_error(self._problem())

    def error(self) -> str | None:
        """Why the value in the input cannot be used, or None when it can."""
        return self._problem() or self._external_error

    def show_error(self, message: str | None) -> None:
        """Show a message found by a check outside this field (a model rule, say)."""
        self._external_error = message
        self.message.show_error(self.error())

    def set_placeholder(self, text: str) -> None:
        """Show ``text`` in the empty input; editors without room for it ignore it."""

    def _show_value(self, value: Any) -> None:
        raise NotImplementedError

    def _input_error(self) -> str | None:
        """Why the text in the input cannot be read as a value (editors that parse say)."""
        return None

    def _problem(self) -> str | None:
        """The input's own error, else what the schema says of the value (None when unset)."""
        input_error = self._input_error()
        if input_error is not None:
            return input_error
        value = self.value()
        return None if value is None else field_problem(self.schema, value)

    def _add_input(self, widget: QWidget) -> None:
        """Place the input above the message, with the schema's description as a hint."""
        self._layout.insertWidget(0, widget)
        description = self.schema.get("description")
        if description:
            widget.setToolTip(str(description))
            hint = QLabel(str(description))
            hint.setWordWrap(True)
            hint.setStyleSheet(f"color: {message_colour('note')};")
            hint.setObjectName("fieldHint")
            self._layout.insertWidget(1, hint)
        self.setFocusProxy(widget)

    def _commit(self) -> None:
        """Check the input; emit its value if it is valid and new."""
        self._external_error = None
        problem = self._problem()
        self.message.show_error(problem)
        if problem is not None:
            return
        value = self.value()
        if same_value(value, self._committed):
            return
        self._committed = value
        self.changed.emit(value)


def default_placeholder(schema: dict[str, Any]) -> str:
    """The placeholder that shows a schema default: "Default: 3", or "" without one."""
    if "default" not in schema:
        return ""
    default = schema["default"]
    if isinstance(default, bool):
        return f"Default: {'true' if default else 'false'}"
    return f"Default: {format_number(default) if isinstance(default, float) else default}"


def format_number(value: float | int) -> str:
    """A number as a person writes it: ``60.0`` as "60", ``0.5`` as "0.5"."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)
