"""The knowledge graph canvas: the graph view with its legend, minimap and find box, and the
marks the Knowledge view puts on it (lineage, compare, gaps, suspect links).

Positions come from the layout (``studio.knowledge.graph_layout``): the top-left corner of each
node's NODE_W by NODE_H slot in scene coordinates, the node's shape centred in it. The canvas
never moves a node on its own, so showing another projection leaves every surviving node where
it was."""

import math
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from PySide6.QtCore import QEvent, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from studio.knowledge.projection import Projection
from studio.ui.canvas.minimap import NodeBox, SceneMinimap
from studio.ui.canvas.style import CanvasColors
from studio.ui.knowledge.canvas_view import CanvasView
from studio.ui.knowledge.graph_items import EdgeKey, NodeItem
from studio.ui.knowledge.graph_marks import GraphMarks
from studio.ui.knowledge.graph_scene import Drawing, GraphScene, Position
from studio.ui.knowledge.legend import Legend

OVERLAY_MARGIN = 8
STEP_BUDGET_S = 0.008
"""How long one turn of the event loop may spend drawing a big graph."""
DRAW_AT_ONCE = 400
"""A graph this small (nodes before and after, together) is drawn in one go."""


class KnowledgeCanvas(QWidget):
    """Draws a projection of the knowledge graph and reports what a person does with it."""

    nodeSelected = Signal(str)  # the selected node's id; "" when the selection is cleared
    nodeActivated = Signal(str)  # double-click: focus the node's neighbourhood
    expandRequested = Signal(str)  # a click on the node's "+N hidden" chip
    graphDrawn = Signal()  # the last graph shown is drawn whole

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scene = GraphScene(self)
        self.view = CanvasView(self.scene)
        self.marks = GraphMarks(self.scene)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self.legend = Legend(self.view)
        self.minimap = GraphMinimap(self.view)
        self.find_box = FindBox(self.view)
        self.find_box.hide()
        self._selected: str | None = None
        self._steps: Iterator[None] | None = None
        self._first = False
        self._outline_shown = -1
        """The scene's outline count when the legend and minimap were last drawn."""
        self._more = QTimer(self)
        self._more.setSingleShot(True)
        self._more.setInterval(0)
        self._more.timeout.connect(self._draw_some)
        self.view.nodeClicked.connect(self.select_node)
        self.view.nodeActivated.connect(self.nodeActivated)
        self.view.chipClicked.connect(self.expandRequested)
        self.view.fitRequested.connect(self.fit_all)
        self.view.findRequested.connect(self.open_find)
        self.view.zoomed.connect(self._place_overlays)
        self.find_box.edit.textEdited.connect(lambda text: self.find_node(text))
        self.find_box.edit.returnPressed.connect(lambda: self.find_node(self.find_box.text(), True))

    # Showing ------------------------------------------------------------------------------

    def show_graph(
        self,
        projection: Projection,
        positions: Mapping[str, Position],
        drawing: Drawing | None = None,
    ) -> None:
        """Draw ``projection`` with nodes at ``positions`` (slot corners); the items of nodes
        still present are kept where they are. The first graph shown is fitted into the view.
        ``drawing`` is the projection's, if it was worked out already (off the UI thread).

        A big change is drawn over several turns of the event loop, STEP_BUDGET_S at a time, so
        the window stays responsive; ``graphDrawn`` is emitted when the graph is drawn whole
        (``is_drawing`` says whether it is not yet). A graph shown while another is being drawn
        replaces it."""
        self._first = self._first or not self.scene.nodes
        if self._first:
            self.scene.detail_area = QRectF()  # no text before the fit says what is in view
            self.view.holding = True
        self._steps = self.scene.show_in_steps(projection, positions, drawing)
        small = projection.graph.number_of_nodes() + len(self.scene.nodes) <= DRAW_AT_ONCE
        self._draw_some(deadline=math.inf if small else None)

    def is_drawing(self) -> bool:
        """Whether the last graph shown is still being drawn."""
        return self._steps is not None

    def finish_drawing(self) -> None:
        """Draw what is left of the last graph shown, now."""
        if self._steps is not None:
            self._draw_some(deadline=math.inf)

    def _draw_some(self, deadline: float | None = None) -> None:
        steps = self._steps
        if steps is None:
            return
        until = time.perf_counter() + STEP_BUDGET_S if deadline is None else deadline
        for _step in steps:
            if time.perf_counter() > until:
                self.view.viewport().setUpdatesEnabled(False)  # no half-drawn graph painted
                self._more.start()
                return
        self._steps = None
        self._more.stop()
        self.view.viewport().setUpdatesEnabled(True)
        self._drawn()

    def _drawn(self) -> None:
        """The graph is drawn whole: marks, selection, legend, minimap, and the first fit."""
        self.marks.reapply()
        if self._selected is not None and self._selected not in self.scene.nodes:
            self.select_node("")
        elif self._selected is not None:
            self.scene.nodes[self._selected].set_selected(True)
        if self.scene.outline != self._outline_shown:  # a step in time seldom changes it
            self._outline_shown = self.scene.outline
            self.legend.show_types(self.scene.shown_looks(), self.scene.edge_types)
            self.minimap.contents_changed()
        if self._first:
            self._first = False
            self.view.holding = False
            self.fit_all()
        self._place_overlays()
        self.graphDrawn.emit()

    def node_ids(self) -> set[str]:
        """The ids of the nodes drawn (ghosts of removed nodes excepted)."""
        return set(self.scene.nodes)

    def node_item(self, node_id: str) -> NodeItem | None:
        """The item drawing a node, or None."""
        return self.scene.nodes.get(node_id)

    # Marks --------------------------------------------------------------------------------

    def set_dimmed(self, keep: set[str] | None) -> None:
        """Dim every node and edge outside ``keep`` (a lineage); None clears the dimming."""
        self.marks.set_dimmed(keep)

    def set_changes(
        self,
        added: set[str],
        removed: Mapping[str, dict[str, Any]],
        changed: set[str],
        removed_positions: Mapping[str, Position],
    ) -> None:
        """Compare mode: added nodes green, changed amber, removed ones as ghosts (dashed,
        faded) at ``removed_positions``."""
        self.marks.set_changes(added, removed, changed, removed_positions)

    def clear_changes(self) -> None:
        """Leave compare mode: plain outlines, no ghosts."""
        self.marks.clear_changes()

    def set_gaps(self, node_ids: Mapping[str, str]) -> None:
        """A warning badge on each node, with its message as the tooltip."""
        self.marks.set_gaps(node_ids)

    def set_suspect_edges(self, edges: Mapping[EdgeKey, str]) -> None:
        """Draw these (source, type, target) edges dashed, with the reason in the tooltip."""
        self.marks.set_suspects(edges)

    # Selection and moving about -----------------------------------------------------------

    def select_node(self, node_id: str | None) -> None:
        """Select a node ("" or None: nothing); nodeSelected is emitted when it changes."""
        self.finish_drawing()
        chosen = node_id if node_id and node_id in self.scene.nodes else None
        if chosen == self._selected:
            return
        if self._selected is not None and self._selected in self.scene.nodes:
            self.scene.nodes[self._selected].set_selected(False)
        self._selected = chosen
        if chosen is not None:
            self.scene.nodes[chosen].set_selected(True)
        self.nodeSelected.emit(chosen or "")

    def selected_node(self) -> str | None:
        """The selected node's id, or None."""
        return self._selected

    def center_on(self, node_id: str) -> None:
        """Scroll so that the node is in the middle of the view."""
        self.finish_drawing()
        item = self.scene.nodes.get(node_id) or self.scene.ghosts.get(node_id)
        if item is not None:
            self.view.centerOn(item.center())

    def fit_all(self) -> None:
        """Show the whole graph (never magnified beyond 100 %), clear of the legend."""
        self.finish_drawing()
        bounds = self.scene.drawn_rect().adjusted(-12, -12, 12, 12)  # badges and chips
        self.view.fit_rect(bounds)
        if self.legend.isVisible() and not bounds.isNull():
            room = (self.legend.width() + OVERLAY_MARGIN) / self.view.zoom_level()
            self.view.fit_rect(bounds.adjusted(-room, 0, 0, 0))

    def zoom_by(self, factor: float) -> None:
        """Zoom in (factor > 1) or out."""
        self.view.zoom_by(factor)

    def zoom_level(self) -> float:
        """The current scale: 1.0 is 100 %."""
        return self.view.zoom_level()

    # Find ---------------------------------------------------------------------------------

    def open_find(self) -> None:
        """Show the find box and put the cursor in it."""
        self.find_box.show()
        self.find_box.raise_()
        self._place_overlays()
        self.find_box.edit.setFocus()
        self.find_box.edit.selectAll()

    def find_node(self, text: str, next_match: bool = False) -> str | None:
        """Select and centre the first node whose label or id contains ``text`` (any case);
        with ``next_match``, the one after the selected node. Returns its id, or None."""
        matches = self._matches(text)
        self.find_box.show_count(len(matches), bool(text))
        if not matches:
            return None
        index = 0
        if next_match and self._selected in matches:
            index = (matches.index(self._selected) + 1) % len(matches)
        self.select_node(matches[index])
        self.center_on(matches[index])
        return matches[index]

    def _matches(self, text: str) -> list[str]:
        wanted = text.strip().lower()
        if not wanted:
            return []
        return sorted(
            node_id
            for node_id, item in self.scene.nodes.items()
            if wanted in node_id.lower() or wanted in item.words[0].lower()
        )

    # Overlays -----------------------------------------------------------------------------

    def _place_overlays(self) -> None:
        area = self.view.viewport().geometry()
        self.legend.move(area.left() + OVERLAY_MARGIN, area.top() + OVERLAY_MARGIN)
        self.legend.raise_()
        self.find_box.adjustSize()
        right = area.right() - self.find_box.width() - OVERLAY_MARGIN
        self.find_box.move(right, area.top() + OVERLAY_MARGIN)
        self.minimap.refit()

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._place_overlays()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.scene.apply_colors()
            self.legend.apply_colors()
            self.minimap.contents_changed()


class GraphMinimap(SceneMinimap):
    """An overview of the whole graph, each node a box in its type's colour."""

    def __init__(self, view: CanvasView) -> None:
        super().__init__(view, view.zoomed)
        self.graph_view = view

    def node_boxes(self) -> Iterable[NodeBox]:
        for item in self.graph_view.graph_scene.nodes.values():
            yield *item.box, item.look.color

    def nodes_bounds(self) -> QRectF:
        return QRectF(self.graph_view.graph_scene.bounds)

    def minimap_colors(self) -> CanvasColors:
        return self.graph_view.graph_scene.colors


class FindBox(QFrame):
    """A small box to find a node by label or id: typing jumps, Enter goes to the next."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphFind")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.edit = QLineEdit(self)
        self.edit.setPlaceholderText("Find a node (Enter: next)")
        self.edit.setClearButtonEnabled(True)
        self.edit.setMinimumWidth(220)
        self.count = QLabel(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 4, 6, 4)
        layout.addWidget(self.edit)
        layout.addWidget(self.count)

    def text(self) -> str:
        """What is being looked for."""
        return self.edit.text()

    def show_count(self, found: int, searched: bool) -> None:
        """Say how many nodes match."""
        self.count.setText("" if not searched else "no match" if not found else f"{found} found")
        self.adjustSize()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.hide()
            parent = self.parentWidget()
            if parent is not None:
                parent.setFocus()
            return
        super().keyPressEvent(event)
