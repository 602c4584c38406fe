"""The workflow editor: a canvas whose gestures become undo commands on one QUndoStack."""

import re
from collections.abc import Callable
from functools import partial

import shiboken6
from PySide6.QtCore import QPoint, QPointF, Signal
from PySide6.QtGui import QGuiApplication, QResizeEvent, QUndoStack
from PySide6.QtWidgets import QMenu, QVBoxLayout, QWidget

from studio.model import AgentRegistry, Edge, Node, Position, Workflow
from studio.model.document import WorkflowDocument
from studio.model.layout import layout_positions
from studio.ui.agent_editor.dialog import AgentEditorDialog
from studio.ui.canvas.annotation_editing import AnnotationEditing
from studio.ui.canvas.clipboard import pasted_elements, selection_text
from studio.ui.canvas.commands import (
    AddElements,
    MoveNodes,
    RemoveElements,
    ReplaceAll,
    ReplaceEdge,
    ReplaceNode,
    SetProperties,
)
from studio.ui.canvas.minimap import Minimap
from studio.ui.canvas.palette import NodePalette
from studio.ui.canvas.scene import WorkflowScene
from studio.ui.canvas.style import NODE_HEIGHT, NODE_WIDTH
from studio.ui.canvas.view import WorkflowView, snapped


class WorkflowEditor(QWidget):
    """One open workflow: its document, canvas and undo history."""

    nodeSelected = Signal(str)  # the one selected node, for the drawer
    edgeSelected = Signal(str)  # the one selected edge, for the condition editor
    selectionCleared = Signal()
    nodeActivated = Signal(str)  # double-click: open the drawer
    message = Signal(str)  # something to tell the person, in the status bar

    def __init__(
        self, workflow: Workflow, agents: AgentRegistry, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.agents = agents
        self.document = WorkflowDocument(workflow)
        self.undo_stack = QUndoStack(self)
        self.scene = WorkflowScene(self.document, agents, self)
        self.view = WorkflowView(self.scene)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self.minimap = Minimap(self.view)
        self.annotations = AnnotationEditing(
            self.document, self.undo_stack, self.scene, self.view, self
        )
        self.node_palette: NodePalette | None = None
        self.agent_editor: AgentEditorDialog | None = None
        self._palette_position = QPointF()
        self.node_actions: list[tuple[str, Callable[[str], object]]] = []
        """Extra commands the window offers on a node's context menu (e.g. Run from here)."""
        self._connect_intents()

    def _connect_intents(self) -> None:
        self.view.nodesMoved.connect(self.move_nodes)
        self.view.linkRequested.connect(self.connect_nodes)
        self.view.nodeActivated.connect(self.nodeActivated)
        self.view.paletteRequested.connect(self.open_palette)
        self.view.deleteRequested.connect(self.delete_selection)
        self.view.menuRequested.connect(self.show_context_menu)
        self.scene.selectionChanged.connect(self._announce_selection)

    # Intents → commands ------------------------------------------------------------------

    def add_node(self, agent_id: str, where: QPointF | None = None) -> str:
        """Add a node running ``agent_id`` centred at ``where`` (scene coordinates)."""
        agent = self.agents.get(agent_id)
        where = (
            where
            if where is not None
            else self.view.mapToScene(self.view.viewport().rect().center())
        )
        base = re.sub(r"[^a-z0-9]+", "-", (agent.name if agent else agent_id).lower()).strip("-")
        node_id = self.document.unique_node_id(base or "node")
        position = Position(x=where.x() - NODE_WIDTH / 2, y=where.y() - NODE_HEIGHT / 2)
        if self.view.snap_to_grid:
            position = snapped(position)
        node = Node(
            id=node_id, agent_id=agent_id, name=agent.name if agent else "", position=position
        )
        self.undo_stack.push(AddElements(self.document, nodes=[node], text=f"Add {node.label}"))
        self.scene.select_only([node_id])
        return node_id

    def connect_nodes(self, source: str, target: str, where: QPointF | None = None) -> bool:
        """Link two nodes; a link that would close a cycle, or exists, is refused with a message."""
        reason = None
        if self.document.would_close_cycle(source, target):
            reason = f"'{target}' already leads to '{source}': this link would close a cycle"
        elif any(e.source == source and e.target == target for e in self.document.edges):
            reason = f"'{source}' is already connected to '{target}'"
        if reason is not None:
            if where is not None:
                self.view.show_message_at(where, reason)
            self.message.emit(reason)
            return False
        edge = Edge(id=self.document.unique_edge_id(source, target), source=source, target=target)
        self.undo_stack.push(
            AddElements(self.document, edges=[edge], text=f"Connect {source} → {target}")
        )
        return True

    def move_nodes(self, before: dict, after: dict) -> None:
        """A finished drag: one undo step however many nodes moved."""
        count = len(after)
        text = f"Move {count} nodes" if count > 1 else f"Move {next(iter(after))}"
        self.undo_stack.push(MoveNodes(self.document, before, after, text))

    def delete_selection(self) -> None:
        """Delete the selected nodes (with their edges), edges, notes and group frames."""
        if self.view.is_typing():
            return
        node_ids, edge_ids = self.scene.selected_node_ids(), self.scene.selected_edge_ids()
        annotations = self.annotations.removal_of_selection()
        if not node_ids and not edge_ids and annotations is None:
            return
        self.undo_stack.beginMacro(f"Delete {len(self.scene.selectedItems())} item(s)")
        if annotations is not None:  # before the nodes, which may empty a group
            self.undo_stack.push(annotations)
        if node_ids or edge_ids:
            self.undo_stack.push(RemoveElements(self.document, node_ids, edge_ids))
        self.undo_stack.endMacro()

    def edit_node(self, node: Node) -> None:
        """A change from the node drawer."""
        before = self.document.node(node.id)
        if before is not None and before != node:
            self.undo_stack.push(ReplaceNode(self.document, before, node, f"Edit {node.label}"))

    def edit_edge(self, edge: Edge) -> None:
        """A change from the condition editor."""
        before = self.document.edge(edge.id)
        if before is not None and before != edge:
            self.undo_stack.push(ReplaceEdge(self.document, before, edge))

    def edit_properties(self, changes: dict) -> None:
        """A change from the workflow configuration panel."""
        if changes:
            self.undo_stack.push(SetProperties(self.document, changes))

    def auto_layout(self) -> None:
        """Lay the graph out left to right by generation, as one undo step."""
        after = layout_positions(self.document.snapshot())
        before = {node.id: node.position for node in self.document.nodes}
        changed = {
            node_id: position for node_id, position in after.items() if before[node_id] != position
        }
        if changed:
            self.undo_stack.push(
                MoveNodes(self.document, {k: before[k] for k in changed}, changed, "Auto-layout")
            )
            self.view.fit_all()

    def replace_workflow(
        self, workflow: Workflow, text: str, blueprint_version: int | None = None
    ) -> None:
        """Load, import, clear or take a blueprint update (then ``blueprint_version`` is the
        version taken in): one undo step."""
        self.undo_stack.push(ReplaceAll(self.document, workflow, text, blueprint_version))
        self.view.fit_all()

    def clear(self) -> None:
        """Remove every node and edge (undoable)."""
        properties = self.document.properties
        self.replace_workflow(properties.model_copy(update={"nodes": [], "edges": []}), "Clear")

    # Clipboard ---------------------------------------------------------------------------

    def copy_selection(self) -> bool:
        """Put the selected nodes (and the edges between them) on the clipboard."""
        node_ids = self.scene.selected_node_ids()
        if not node_ids:
            return False
        QGuiApplication.clipboard().setText(selection_text(self.document, node_ids))
        return True

    def cut_selection(self) -> None:
        """Copy, then delete."""
        if self.copy_selection():
            self.delete_selection()

    def paste(self) -> None:
        """Add the clipboard's nodes and edges as one step, and select them."""
        try:
            nodes, edges = pasted_elements(self.document, QGuiApplication.clipboard().text())
        except ValueError as failure:
            self.message.emit(str(failure))
            return
        if nodes:
            self.undo_stack.push(
                AddElements(self.document, nodes, edges, f"Paste {len(nodes)} node(s)")
            )
            self.scene.select_only([node.id for node in nodes])

    def duplicate_selection(self) -> None:
        """Copy and paste in one go."""
        if self.copy_selection():
            self.paste()

    # Finding and viewing -----------------------------------------------------------------

    def select_all(self) -> None:
        """Select every node and edge."""
        self.scene.select_only(
            [n.id for n in self.document.nodes], [e.id for e in self.document.edges]
        )

    def find_node(self, text: str, after: str | None = None) -> str | None:
        """The next node whose name or agent contains ``text``; it is selected and centred."""
        query = text.strip().lower()
        if not query:
            return None
        found = [
            n.id for n in self.document.nodes if query in f"{n.label} {n.agent_id} {n.id}".lower()
        ]
        if not found:
            self.message.emit(f"no node matches '{text}'")
            return None
        following = found[(found.index(after) + 1) % len(found)] if after in found else found[0]
        self.view.center_on_node(following)
        return following

    def open_palette(self, where: QPointF) -> NodePalette:
        """Show the palette; the chosen agent becomes a node at ``where``."""
        self._palette_position = where
        palette = NodePalette(list(self.agents), self)
        palette.agentChosen.connect(
            lambda agent_id: self.add_node(agent_id, self._palette_position)
        )
        palette.kindChosen.connect(self.make_agent)
        palette.move(self.view.mapToGlobal(self.view.mapFromScene(where)))
        palette.show()
        palette.search.setFocus()
        self.node_palette = palette
        return palette

    def make_agent(self, kind: str) -> AgentEditorDialog:
        """Open the agent editor for a new agent of ``kind``; once it is saved, its node is
        placed where the palette was opened."""
        dialog = AgentEditorDialog(kind, self.agents, self)
        dialog.agentSaved.connect(lambda agent_id: self.add_node(agent_id, self._palette_position))
        dialog.open()
        self.agent_editor = dialog
        return dialog

    def context_menu(self, where: QPointF, node_id: str) -> QMenu:
        """What a right-click offers: on a node, what can be done to it; elsewhere, the canvas."""
        menu = QMenu(self)
        if node_id:
            menu.addAction("Configure…", lambda: self.nodeActivated.emit(node_id))
            menu.addAction("Duplicate", self.duplicate_selection)
            menu.addAction("Copy", self.copy_selection)
            menu.addAction("Delete", self.delete_selection)
            if self.node_actions:
                menu.addSeparator()
            for text, act in self.node_actions:
                menu.addAction(text, partial(act, node_id))
            self.annotations.add_node_entries(menu, node_id)
        elif not self.annotations.fill_menu(menu, where):
            menu.addAction("Add node…", lambda: self.open_palette(where))
            menu.addAction("Add note", lambda: self.annotations.add_note(where))
            menu.addAction("Paste", self.paste)
            menu.addSeparator()
            menu.addAction("Auto-layout", self.auto_layout)
            menu.addAction("Fit to view", self.view.fit_all)
        return menu

    def show_context_menu(self, where: QPointF, at: QPoint, node_id: str) -> None:
        """Show the context menu at the cursor."""
        self.context_menu(where, node_id).exec(at)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.minimap.refit()

    def _announce_selection(self) -> None:
        if not shiboken6.isValid(self.scene):
            return  # the scene is being destroyed with the window; nobody is listening
        node_ids, edge_ids = self.scene.selected_node_ids(), self.scene.selected_edge_ids()
        if len(node_ids) == 1 and not edge_ids:
            self.nodeSelected.emit(node_ids[0])
        elif len(edge_ids) == 1 and not node_ids:
            self.edgeSelected.emit(edge_ids[0])
        elif not node_ids and not edge_ids:
            self.selectionCleared.emit()
