"""The workflow settings' policy sections: compensation and governance."""

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QLabel, QWidget

from studio.model.configuration import CompensationSettings, CompensationTrigger
from studio.model.governance import CircuitBreakerSettings, GovernanceSettings
from studio.ui.panels.field_editors import FieldEditor, editor_for
from studio.ui.panels.form_section import FormSection

_LIST = {"type": "array", "items": {"type": "string"}}
_LISTS = {  # name: (title, placeholder)
    "deny_agents": ("Deny agents", "Agent ids, one per line"),
    "deny_tools": ("Deny tools", "Tool names, one per line"),
    "require_approval": ("Require approval", "Agent ids needing approval, one per line"),
}
_THRESHOLD = {
    "type": "integer",
    "minimum": 1,
    "title": "Breaker threshold",
    "description": "Consecutive failures that open an agent's circuit breaker. "
    "Leave threshold and cooldown empty for no breaker.",
}
_COOLDOWN = {"type": "number", "minimum": 0, "title": "Breaker cooldown (s)"}


def _valid(editor: FieldEditor, fallback: Any) -> Any:
    """The editor's value, or ``fallback`` while what is typed cannot be used."""
    return editor.value() if editor.error() is None else fallback


class CompensationSettingsSection(FormSection):
    """The workflow's opt-in to compensation; the failure mode is fixed to "stop"."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Compensation", parent)
        self.enabled_check = QCheckBox("Compensate if the workflow fails")
        self.enabled_check.setToolTip("Undo completed side effects when the workflow fails")
        self.enabled_check.toggled.connect(self.edited)
        default = CompensationTrigger().min_completed_nodes
        self.min_completed = editor_for(
            "min_completed_nodes",
            {"type": "integer", "minimum": 0, "default": default, "title": "Min completed nodes"},
        )
        self.min_completed.changed.connect(self.edited)
        on_failure = QLabel("stop — the unwind halts at the first compensation that fails")
        on_failure.setWordWrap(True)
        self.add_row("", self.enabled_check)
        self.add_row(self.min_completed.label(), self.min_completed)
        self.add_row("On failure", on_failure)

    def load(self, settings: CompensationSettings | None) -> None:
        """Show the settings; None shows compensation as off."""
        self.enabled_check.blockSignals(True)
        self.enabled_check.setChecked(bool(settings and settings.enabled))
        self.enabled_check.blockSignals(False)
        self.min_completed.set_value(settings.trigger.min_completed_nodes if settings else None)

    def write(self, data: dict[str, Any]) -> None:
        """Put the settings into configuration data; untouched absent settings stay absent."""
        previous = data.get("compensation")
        fallback = previous["trigger"]["min_completed_nodes"] if previous else None
        minimum = _valid(self.min_completed, fallback)
        if previous is None and not self.enabled_check.isChecked() and minimum is None:
            return
        trigger = CompensationTrigger(
            **({} if minimum is None else {"min_completed_nodes": minimum})
        )
        data["compensation"] = CompensationSettings(
            enabled=self.enabled_check.isChecked(), trigger=trigger
        ).model_dump()


class GovernanceSection(FormSection):
    """Deny-lists, approvals and the circuit breaker; empty breaker fields mean no breaker."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Governance", parent)
        self.lists: dict[str, FieldEditor] = {}
        for name, (title, placeholder) in _LISTS.items():
            self.lists[name] = editor_for(name, {**_LIST, "title": title})
            self.lists[name].set_placeholder(placeholder)
        defaults = CircuitBreakerSettings()
        self.threshold = editor_for("failure_threshold", _THRESHOLD)
        self.threshold.set_placeholder(f"Default: {defaults.failure_threshold}")
        self.cooldown = editor_for("cooldown_seconds", _COOLDOWN)
        self.cooldown.set_placeholder(f"Default: {defaults.cooldown_seconds:g}")
        for editor in (*self.lists.values(), self.threshold, self.cooldown):
            editor.changed.connect(self.edited)
            self.add_row(editor.label(), editor)

    def load(self, settings: GovernanceSettings | None) -> None:
        """Show the settings; None shows empty lists and no breaker."""
        for name, editor in self.lists.items():
            editor.set_value(getattr(settings, name) if settings else None)
        breaker = settings.circuit_breaker if settings else None
        self.threshold.set_value(breaker.failure_threshold if breaker else None)
        self.cooldown.set_value(breaker.cooldown_seconds if breaker else None)

    def write(self, data: dict[str, Any]) -> None:
        """Put the settings into configuration data; untouched absent settings stay absent."""
        previous = data.get("governance") or {}
        lists = {
            name: _valid(editor, previous.get(name)) or [] for name, editor in self.lists.items()
        }
        breaker = self._breaker(previous.get("circuit_breaker") or {})
        if not previous and not any(lists.values()) and breaker is None:
            return
        data["governance"] = {**lists, "circuit_breaker": breaker}

    def _breaker(self, previous: dict[str, Any]) -> dict[str, Any] | None:
        threshold = _valid(self.threshold, previous.get("failure_threshold"))
        cooldown = _valid(self.cooldown, previous.get("cooldown_seconds"))
        if threshold is None and cooldown is None:
            return None
        values = {"failure_threshold": threshold, "cooldown_seconds": cooldown}
        return CircuitBreakerSettings(
            **{key: value for key, value in values.items() if value is not None}
        ).model_dump()
