"""The node drawer's compensation block: the tool that undoes the node's side effect."""

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QWidget

from studio.model import AgentDefinition, Node
from studio.ui.panels.field_editors import editor_for
from studio.ui.panels.form_section import FormSection
from studio.ui.panels.node_identity_section import fill_agent_combo


class NodeCompensationSection(FormSection):
    """Opt-in compensation: a tool (one of the agents), its arguments as YAML, and whether
    the node has a side effect to undo. Unticking removes the block."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Compensation", parent)
        self.enable_check = QCheckBox("Compensate if the workflow fails")
        self.enable_check.setToolTip("Undo this node's side effect when the workflow fails")
        self.enable_check.toggled.connect(self._on_toggled)
        self.tool_combo = QComboBox()
        self.tool_combo.currentIndexChanged.connect(self.edited)
        self.args_editor = editor_for(
            "args",
            {
                "type": "object",
                "title": "Arguments",
                "description": "YAML; ${...} templates are filled in when it runs.",
            },
        )
        self.args_editor.set_placeholder("order_id: ${node.output.order_id}")
        self.args_editor.changed.connect(self.edited)
        self.side_effect_check = QCheckBox("Has a side effect to undo")
        self.side_effect_check.toggled.connect(self.edited)
        self.add_row("", self.enable_check)
        self.add_row("Tool", self.tool_combo)
        self.add_row(self.args_editor.label(), self.args_editor)
        self.add_row("", self.side_effect_check)

    def load(self, node: Node, agents: list[AgentDefinition]) -> None:
        """Show the node's compensation block, offering ``agents`` as tools."""
        block = node.compensation
        fill_agent_combo(self.tool_combo, agents, block.tool if block else "")
        self.args_editor.set_value(block.args if block else None)
        for check, state in (
            (self.enable_check, block is not None),
            (self.side_effect_check, block.side_effecting if block else True),
        ):
            check.blockSignals(True)
            check.setChecked(state)
            check.blockSignals(False)
        self._enable_fields(block is not None)

    def write(self, data: dict[str, Any]) -> None:
        """Put the block into a node's data; invalid arguments keep the node's own."""
        if not self.enable_check.isChecked():
            data["compensation"] = None
            return
        args = (data["compensation"] or {}).get("args", {})
        if self.args_editor.error() is None:
            args = self.args_editor.value() or {}
        data["compensation"] = {
            "tool": str(self.tool_combo.currentData() or ""),
            "args": args,
            "side_effecting": self.side_effect_check.isChecked(),
        }

    def args(self) -> dict[str, Any] | None:
        """The arguments as typed; None when compensation is off or they do not read."""
        if not self.enable_check.isChecked() or self.args_editor.error() is not None:
            return None
        return self.args_editor.value() or {}

    def blocking_problem(self) -> str | None:
        """Why no node can be built from the section (a field's own error is shown there)."""
        if self.enable_check.isChecked() and not self.tool_combo.currentData():
            return "Choose a compensation tool, or untick compensation."
        return None

    def _on_toggled(self, enabled: bool) -> None:
        self._enable_fields(enabled)
        self.edited.emit()

    def _enable_fields(self, enabled: bool) -> None:
        for widget in (self.tool_combo, self.args_editor, self.side_effect_check):
            widget.setEnabled(enabled)
