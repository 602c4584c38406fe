"""The node drawer's execution settings: retry policy, timeout and approval."""

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QWidget

from studio.model import Node, RetryPolicy
from studio.ui.panels.field_editors import FieldEditor, editor_for
from studio.ui.panels.form_section import FormSection

DEFAULT_TIMEOUT_SECONDS = 60

_RETRY_FIELDS: dict[str, dict[str, Any]] = {
    "max_retries": {"type": "integer", "minimum": 0, "title": "Max retries"},
    "backoff_base": {"type": "number", "minimum": 0, "title": "Backoff base (s)"},
    "backoff_max": {"type": "number", "minimum": 0, "title": "Backoff max (s)"},
    "retryable_errors": {
        "type": "array",
        "items": {"type": "string"},
        "title": "Retryable errors",
    },
}


class NodeExecutionSection(FormSection):
    """Retries (off means no retry policy), the timeout (empty is the runner's default) and
    whether a person must approve the node before it runs."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Retries, timeout and approval", parent)
        self.retry_check = QCheckBox("Retry when the node fails")
        self.retry_check.toggled.connect(self._on_retry_toggled)
        self.add_row("", self.retry_check)
        self.retry_editors = self._retry_editors()
        self.timeout_editor = editor_for(
            "timeout", {"type": "number", "exclusiveMinimum": 0, "title": "Timeout (s)"}
        )
        self.timeout_editor.set_placeholder(f"Default: {DEFAULT_TIMEOUT_SECONDS}")
        self.timeout_editor.changed.connect(self.edited)
        self.add_row(self.timeout_editor.label(), self.timeout_editor)
        self.approval_check = QCheckBox("Require approval before it runs")
        self.approval_check.setToolTip("A person must approve before this node runs")
        self.approval_check.toggled.connect(self.edited)
        self.add_row("", self.approval_check)

    def load(self, node: Node) -> None:
        """Show the node's retry policy, timeout and approval setting."""
        policy = node.retry_policy
        for widget in (self.retry_check, self.approval_check):
            widget.blockSignals(True)
        self.retry_check.setChecked(policy is not None)
        self.approval_check.setChecked(node.requires_approval)
        for widget in (self.retry_check, self.approval_check):
            widget.blockSignals(False)
        shown = policy or RetryPolicy()
        for name, editor in self.retry_editors.items():
            editor.set_value(getattr(shown, name) if policy else None)
            editor.setEnabled(policy is not None)
        self.timeout_editor.set_value(node.timeout)

    def write(self, data: dict[str, Any]) -> None:
        """Put the valid fields into a node's data; an invalid field keeps the node's value."""
        if not self.retry_check.isChecked():
            data["retry_policy"] = None
        else:
            policy = dict(data["retry_policy"] or {})
            for name, editor in self.retry_editors.items():
                if editor.error() is None:
                    policy.pop(name, None)
                    if editor.value() is not None:
                        policy[name] = editor.value()
            data["retry_policy"] = policy
        if self.timeout_editor.error() is None:
            data["timeout"] = self.timeout_editor.value()
        data["requires_approval"] = self.approval_check.isChecked()

    def blocking_problem(self) -> str | None:
        """None: an invalid field shows its own message and keeps the node's value."""
        return None

    def _retry_editors(self) -> dict[str, FieldEditor]:
        defaults = RetryPolicy()
        editors: dict[str, FieldEditor] = {}
        for name, schema in _RETRY_FIELDS.items():
            default = getattr(defaults, name)
            editor = editor_for(name, {**schema, "default": default} if default != [] else schema)
            editor.changed.connect(self.edited)
            self.add_row(editor.label(), editor)
            editors[name] = editor
        editors["retryable_errors"].set_placeholder("One error type per line; empty retries all")
        return editors

    def _on_retry_toggled(self, enabled: bool) -> None:
        for editor in self.retry_editors.values():
            editor.setEnabled(enabled)
        self.edited.emit()
