"""The node drawer's execution overrides: a model override and a system prompt addition."""

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QWidget

from studio.model import AgentDefinition, Node
from studio.model.overrides import MODEL_OVERRIDE_CAP, prompt_addition_cap
from studio.ui.panels.commit_text_edit import CommitTextEdit
from studio.ui.panels.form_section import FormSection, stacked_column
from studio.ui.panels.inline_message import InlineMessage, message_colour

AGENT_DEFAULT_MODEL = "Agent's default model"


class NodeOverridesSection(FormSection):
    """Model override (an editable list of the agent's models) and the prompt addition with a
    live character count against the cap; an over-cap value is allowed, with a warning,
    because the engine skips it (never truncates it) and still runs the node."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Execution overrides", parent)
        self.cap = prompt_addition_cap()
        self.model_combo = QComboBox()
        self.model_combo.setEditable(True)
        self.model_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        model_line = QLineEdit()  # the combo's own line edit, kept so it is never None here
        model_line.setPlaceholderText(AGENT_DEFAULT_MODEL)
        self.model_combo.setLineEdit(model_line)
        self.model_combo.activated.connect(self._on_model_committed)
        model_line.editingFinished.connect(self._on_model_committed)
        self.model_message = InlineMessage()
        self.prompt_edit = CommitTextEdit()
        self.prompt_edit.set_visible_lines(5)
        self.prompt_edit.setPlaceholderText("Appended to the agent's system prompt for this node")
        self.prompt_edit.textChanged.connect(self._update_counter)
        self.prompt_edit.committed.connect(self.edited)
        self.counter = QLabel()
        self.counter.setObjectName("promptCounter")
        self.counter.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.counter_warning = InlineMessage()
        self.add_row("Model override", stacked_column(self.model_combo, self.model_message))
        self.add_row(
            "System prompt\naddition",
            stacked_column(self.prompt_edit, self.counter, self.counter_warning),
        )
        self._update_counter()

    def load(self, node: Node, agent: AgentDefinition | None) -> None:
        """Show the node's overrides, offering the agent's models."""
        self.set_models(agent.models if agent else [])
        self.model_combo.setEditText(node.configuration.model_override or "")
        self._check_model()
        self.prompt_edit.set_text_quietly(node.configuration.system_prompt_addition or "")

    def set_models(self, models: list[str]) -> None:
        """Offer these models in the list, keeping whatever is typed in the box."""
        typed = self.model_combo.currentText()
        self.model_combo.blockSignals(True)
        self.model_combo.clear()
        self.model_combo.addItem("", None)
        for model in models:
            self.model_combo.addItem(model, model)
        self.model_combo.setEditText(typed)
        self.model_combo.blockSignals(False)

    def write(self, data: dict[str, Any]) -> None:
        """Put both overrides into a node's data; empty boxes mean "no override"."""
        configuration = data["configuration"]
        configuration["model_override"] = self.model_combo.currentText().strip() or None
        prompt = self.prompt_edit.toPlainText()
        configuration["system_prompt_addition"] = prompt if prompt.strip() else None

    def blocking_problem(self) -> str | None:
        """None: over-cap values are warned about, not refused, as the engine skips them."""
        return None

    def _on_model_committed(self) -> None:
        self._check_model()
        self.edited.emit()

    def _check_model(self) -> None:
        length = len(self.model_combo.currentText().strip())
        self.model_message.show_warning(
            f"{length} characters is over the {MODEL_OVERRIDE_CAP}-character cap: the engine "
            "will skip this override and use the agent's default model."
            if length > MODEL_OVERRIDE_CAP
            else None
        )

    def _update_counter(self) -> None:
        count = len(self.prompt_edit.toPlainText())
        over = count > self.cap
        self.counter.setText(f"⚠ {count} / {self.cap}" if over else f"{count} / {self.cap}")
        colour = f"color: {message_colour('warning')}; font-weight: bold;"
        self.counter.setStyleSheet(colour if over else "")
        self.counter_warning.show_warning(
            f"Over the {self.cap}-character cap by {count - self.cap}. The engine will skip the "
            "whole addition with a warning (it never cuts it short) and run the node without it."
            if over
            else None
        )
