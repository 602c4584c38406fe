"""The node drawer: every setting of one node, emitted as a complete new Node on each edit."""

from pydantic import ValidationError
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from studio.model import AgentDefinition, Node
from studio.ui.panels.form_section import align_label_columns, empty_state
from studio.ui.panels.inline_message import InlineMessage
from studio.ui.panels.node_compensation_section import NodeCompensationSection
from studio.ui.panels.node_execution_section import NodeExecutionSection
from studio.ui.panels.node_identity_section import NodeIdentitySection
from studio.ui.panels.node_overrides_section import NodeOverridesSection
from studio.ui.panels.node_parameters_section import NodeParametersSection
from studio.ui.panels.node_sample_section import NodeSampleSection
from studio.ui.panels.validation_messages import describe_validation_error


class NodeDrawer(QWidget):
    """Shows one node's settings; emits ``nodeEdited`` with a validated, changed Node.

    The drawer never changes the model: whoever listens turns the new Node into a command,
    and may call ``show_node`` with the result (showing the same node again is a no-op).
    """

    nodeEdited = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._node: Node | None = None
        self._agents: dict[str, AgentDefinition] = {}
        self.title = QLabel()
        self.title.setObjectName("drawerTitle")
        self.title.setStyleSheet("font-weight: bold;")
        self.message = InlineMessage()
        self.identity = NodeIdentitySection()
        self.overrides = NodeOverridesSection()
        self.parameters = NodeParametersSection()
        self.execution = NodeExecutionSection()
        self.compensation = NodeCompensationSection()
        self.sample = NodeSampleSection()
        self._sections = (
            self.identity,
            self.overrides,
            self.parameters,
            self.execution,
            self.compensation,
            self.sample,
        )
        self.stack = QStackedWidget()
        self.stack.addWidget(empty_state("Select a node on the canvas to configure it."))
        self.stack.addWidget(self._form_page())
        layout = QVBoxLayout(self)
        layout.addWidget(self.stack)
        for section in self._sections:
            section.edited.connect(self._emit_if_changed)
        self.identity.agentChanged.connect(self._on_agent_changed)
        self.compensation.edited.connect(self._preview_templates)

    def show_node(self, node: Node, agents: list[AgentDefinition]) -> None:
        """Show ``node``, offering ``agents`` to choose from."""
        registry = {agent.id: agent for agent in agents}
        if self._node is not None and _same_node(node, self._node) and registry == self._agents:
            return  # the echo of our own edit: keep the person's cursor where it is
        self._node, self._agents = node, registry
        self.title.setText(f"Node {node.id}")
        self.message.clear_message()
        agent = registry.get(node.agent_id)
        self.identity.load(node, agents)
        self.overrides.load(node, agent)
        self.parameters.load(agent, node.configuration.parameters)
        self.execution.load(node)
        self.compensation.load(node, agents)
        self.sample.load(node)
        self._preview_templates()
        align_label_columns(self._sections)
        self.stack.setCurrentIndex(1)

    def clear(self) -> None:
        """Show nothing: no node is selected."""
        self._node = None
        self.stack.setCurrentIndex(0)

    def node(self) -> Node | None:
        """The node as last shown or emitted."""
        return self._node

    def _on_agent_changed(self, agent_id: str) -> None:
        agent = self._agents.get(agent_id)
        self.overrides.set_models(agent.models if agent else [])
        parameters = self._node.configuration.parameters if self._node else {}
        self.parameters.load(agent, parameters)
        align_label_columns(self._sections)
        self._emit_if_changed()

    def _emit_if_changed(self) -> None:
        if self._node is None:
            return
        problem = next((p for s in self._sections if (p := s.blocking_problem())), None)
        if problem is not None:
            self.message.show_error(problem)
            return
        data = self._node.model_dump()
        for section in self._sections:
            section.write(data)
        try:
            node = Node.model_validate(data)
        except ValidationError as invalid:
            self.message.show_error(describe_validation_error(invalid))
            return
        self.message.clear_message()
        if _same_node(node, self._node):
            return
        self._node = node
        self.sample.load(node)
        self._preview_templates()
        self.nodeEdited.emit(node)

    def _preview_templates(self) -> None:
        self.sample.preview(self.compensation.args())

    def _form_page(self) -> QWidget:
        content = QWidget()
        column = QVBoxLayout(content)
        for section in self._sections:
            column.addWidget(section)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(content)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.message)
        layout.addWidget(scroll, 1)
        return page


def _same_node(first: Node, second: Node) -> bool:
    # JSON comparison, so a parameter changing from 1 to true counts as a change
    return first.model_dump_json() == second.model_dump_json()
