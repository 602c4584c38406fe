"""The node drawer's first section: the node's name and the agent it runs."""

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QLineEdit, QWidget

from studio.model import AgentDefinition, Node
from studio.ui.panels.form_section import FormSection
from studio.ui.panels.inline_message import InlineMessage


def agent_choice_text(agent: AgentDefinition) -> str:
    """How an agent appears in a list: its name, then its id."""
    return f"{agent.name} ({agent.id})"


def fill_agent_combo(combo: QComboBox, agents: list[AgentDefinition], current: str) -> bool:
    """List the agents in ``combo`` and select ``current``; an unknown id gets its own entry.

    Returns whether ``current`` is one of the agents.
    """
    combo.blockSignals(True)
    combo.clear()
    for agent in agents:
        combo.addItem(agent_choice_text(agent), agent.id)
    known = any(agent.id == current for agent in agents)
    if current and not known:
        combo.insertItem(0, f"{current} (unknown agent)", current)
    combo.setCurrentIndex(max(combo.findData(current), 0 if combo.count() else -1))
    combo.blockSignals(False)
    return known


class NodeIdentitySection(FormSection):
    """Name and agent; a node whose agent the registry does not know says so plainly."""

    edited = Signal()
    agentChanged = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Node", parent)
        self._known_ids: set[str] = set()
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("Shown on the canvas; the node id when empty")
        self.name_edit.editingFinished.connect(self.edited)
        self.agent_combo = QComboBox()
        self.agent_combo.setToolTip("The agent this node runs, from the agent registry")
        self.agent_combo.currentIndexChanged.connect(self._on_agent_chosen)
        self.agent_notice = InlineMessage()
        self.agent_notice.setObjectName("unknownAgentNotice")
        self.add_row("Name", self.name_edit)
        self.add_row("Agent", self.agent_combo)
        self.add_row("", self.agent_notice)

    def load(self, node: Node, agents: list[AgentDefinition]) -> None:
        """Show the node's name and agent, choosing among ``agents``."""
        self._known_ids = {agent.id for agent in agents}
        self.name_edit.setText(node.name)
        fill_agent_combo(self.agent_combo, agents, node.agent_id)
        self._show_notice()

    def agent_id(self) -> str:
        """The id of the agent chosen in the combo."""
        return str(self.agent_combo.currentData() or "")

    def write(self, data: dict[str, Any]) -> None:
        """Put the name and agent into a node's data."""
        data["name"] = self.name_edit.text().strip()
        data["agent_id"] = self.agent_id()

    def blocking_problem(self) -> str | None:
        """Why no node can be built from the section, or None."""
        return None if self.agent_id() else "Choose an agent."

    def _on_agent_chosen(self) -> None:
        self._show_notice()
        self.agentChanged.emit(self.agent_id())

    def _show_notice(self) -> None:
        agent_id = self.agent_id()
        if not agent_id and not self._known_ids:
            self.agent_notice.show_warning("The agent registry is empty: add agent definitions.")
        elif agent_id not in self._known_ids:
            self.agent_notice.show_warning(
                f"The agent '{agent_id}' is not in the registry, so this node cannot run yet. "
                "Choose an agent from the list."
            )
        else:
            self.agent_notice.clear_message()
