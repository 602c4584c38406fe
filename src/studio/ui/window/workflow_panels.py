"""The panels beside the workflow in front: the Inspector (a node's drawer or an edge's
condition), the workflow's settings and its problems. They follow the tab in front and send
the person's edits to its editor as undoable commands."""

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QStackedWidget, QWidget

from studio.model.problems import Problem
from studio.ui.panels.condition_editor import ConditionEditor
from studio.ui.panels.node_drawer import NodeDrawer
from studio.ui.panels.problems_panel import ProblemsPanel
from studio.ui.panels.workflow_config import WorkflowConfigPanel
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace


class WorkflowPanels(QObject):
    """Inspector, workflow settings and problems, bound to the tab in front."""

    nodeShown = Signal(str)  # a node's drawer came up (the run below follows along)
    titleChanged = Signal(str)  # what the window's title should say
    problemsShown = Signal(int)  # how many problems the Problems panel lists now
    inspected = Signal()  # a node's drawer or an edge's condition came up in the Inspector

    def __init__(self, workspace: Workspace, tabs: WorkflowTabs, parent: QWidget) -> None:
        super().__init__(parent)
        self.workspace, self.tabs = workspace, tabs
        self.node_drawer, self.condition_editor = NodeDrawer(), ConditionEditor()
        self.config_panel, self.problems = WorkflowConfigPanel(), ProblemsPanel()
        self.hint = QLabel("Select a node or an edge to edit it.")
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setWordWrap(True)
        self.inspector = QStackedWidget(parent)
        for widget in (self.hint, self.node_drawer, self.condition_editor):
            self.inspector.addWidget(widget)
        self.node_drawer.nodeEdited.connect(lambda n: tabs.with_editor(lambda e: e.edit_node(n)))
        self.condition_editor.edgeEdited.connect(
            lambda edge: tabs.with_editor(lambda e: e.edit_edge(edge))
        )
        self.config_panel.propertiesEdited.connect(
            lambda changes: tabs.with_editor(lambda e: e.edit_properties(changes))
        )
        self.problems.problemActivated.connect(self.select_problem)
        tabs.opened.connect(self.bind)
        tabs.currentChanged.connect(self.follow)

    def bind(self, tab: WorkflowTab) -> None:
        """Listen to a newly opened tab's selection and document."""
        editor = tab.editor
        editor.nodeSelected.connect(self.show_node)
        editor.nodeActivated.connect(self.show_node)
        editor.edgeSelected.connect(self.show_edge)
        editor.selectionCleared.connect(lambda: self.inspector.setCurrentWidget(self.hint))
        editor.document.subscribe(lambda _event: self._document_changed(tab))

    def follow(self, tab: WorkflowTab | None) -> None:
        """Another tab came to the front (or none is left)."""
        self.inspector.setCurrentWidget(self.hint)
        if tab is None:
            self.titleChanged.emit("Studio")
            return
        self.config_panel.set_agent_ids([agent.id for agent in self.workspace.agents])
        self.config_panel.show_workflow(tab.editor.document.properties)
        self.titleChanged.emit(f"{tab.editor.document.properties.name} — Studio")

    def show_node(self, node_id: str) -> None:
        """The node's drawer in the Inspector."""
        tab = self.tabs.current()
        node = tab.editor.document.node(node_id) if tab else None
        if node is not None:
            self.node_drawer.show_node(node, list(self.workspace.agents))
            self.inspector.setCurrentWidget(self.node_drawer)
            self.nodeShown.emit(node_id)
            self.inspected.emit()

    def show_edge(self, edge_id: str) -> None:
        """The edge's condition in the Inspector."""
        tab = self.tabs.current()
        edge = tab.editor.document.edge(edge_id) if tab else None
        if edge is not None:
            self.condition_editor.show_edge(edge)
            self.inspector.setCurrentWidget(self.condition_editor)
            self.inspected.emit()

    def show_problems(self, problems: list[Problem], sound: bool = False) -> None:
        """List problems under the canvas (``sound``: the workflow is sound, and only
        publishing finds fault with it)."""
        self.problems.show_problems(problems, sound)
        self.problemsShown.emit(len(problems))

    def select_problem(self, problem: Problem) -> None:
        """Go to the node or edge a problem names."""
        tab = self.tabs.current()
        if tab is None:
            return
        if problem.node_id:
            tab.editor.view.center_on_node(problem.node_id)
        elif problem.edge_id:
            tab.editor.scene.select_only(edge_ids=[problem.edge_id])

    def _document_changed(self, tab: WorkflowTab) -> None:
        if tab is not self.tabs.current():
            return
        self.config_panel.show_workflow(tab.editor.document.properties)
        node_ids = tab.editor.scene.selected_node_ids()
        if self.inspector.currentWidget() is self.node_drawer and len(node_ids) == 1:
            self.show_node(node_ids[0])
