"""Where the knowledge view's parts meet: the session's views go to the canvas, the timeline,
the insights and the changes; what a person picks in any of them goes back to the session or
to the artifact pane. Every read runs off the UI thread."""

from PySide6.QtCore import QObject, QTimer, Signal

from studio.knowledge.graph_search import Found, find_nodes
from studio.knowledge.graph_view import GraphView, node_id
from studio.knowledge.knowledge_history import KnowledgeHistory
from studio.knowledge.projection import Direction
from studio.ui.knowledge.artifact_reads import ArtifactReads
from studio.ui.knowledge.changes_list import ChangesList
from studio.ui.knowledge.filters_panel import FiltersPanel
from studio.ui.knowledge.graph_canvas import KnowledgeCanvas
from studio.ui.knowledge.graph_session import DrawnView, GraphSession
from studio.ui.knowledge.insights_panel import InsightsPanel
from studio.ui.knowledge.timeline import Timeline
from studio.ui.window.status_sink import StatusSink


class GraphBrowser(QObject):
    """Wires the knowledge view's widgets to its session."""

    runRequested = Signal(str)  # an execution id: show that run on its workflow canvas
    historyShown = Signal(bool)  # whether anything has landed

    def __init__(
        self,
        session: GraphSession,
        canvas: KnowledgeCanvas,
        timeline: Timeline,
        filters: FiltersPanel,
        insights: InsightsPanel,
        changes: ChangesList,
        artifacts: ArtifactReads,
        status: StatusSink,
    ) -> None:
        super().__init__(session)
        self.session, self.canvas, self.timeline = session, canvas, timeline
        self.filters, self.insights, self.changes = filters, insights, changes
        self.artifacts, self.status = artifacts, status
        self.lineage: tuple[str, Direction] | None = None
        self._go_to_when_drawn: str | None = None
        self._insights_shown: object = None
        self._wire()

    def _wire(self) -> None:
        session, filters = self.session, self.filters
        session.historyChanged.connect(self._show_history)
        session.viewChanged.connect(self._show_view)
        session.failed.connect(lambda message: self.status.show(f"Knowledge: {message}"))
        filters.layersChanged.connect(
            lambda items, units, sections: session.change(
                items=items, units=units, sections=sections
            )
        )
        filters.subjectChanged.connect(lambda subject: self._refocus(subject=subject))
        filters.kindsChanged.connect(lambda kinds: session.change(kinds=kinds))
        filters.itemTypesChanged.connect(lambda types: session.change(item_types=types))
        filters.searchAsked.connect(self.search)
        filters.resultChosen.connect(self.go_to)
        self.timeline.positionChanged.connect(lambda moment: session.change(as_of=moment))
        self.timeline.compareChanged.connect(lambda moment: session.change(compare_to=moment))
        self.canvas.nodeSelected.connect(self._selected)
        self.canvas.nodeActivated.connect(lambda node: self.focus(node))
        self.canvas.expandRequested.connect(self.expand)
        self.insights.nodeRequested.connect(self.go_to)
        self.insights.edgeRequested.connect(lambda edge: self.go_to(edge[0]))
        self.changes.nodeRequested.connect(self.go_to)
        self.artifacts.pane.nodeRequested.connect(self.go_to)
        self.artifacts.pane.provenanceRequested.connect(self._provenance)

    # What a person asks for -------------------------------------------------------------

    def focus(self, node: str | None, depth: int | None = None) -> None:
        """Show only the node's neighbourhood (None: the whole graph again)."""
        depth = self.session.query.depth if depth is None else depth
        self.lineage = None
        self.session.change(focus=node, depth=depth)

    def expand(self, node: str) -> None:
        """Show the neighbours the node's "N more hidden" counts."""
        self.session.change(expanded=self.session.query.expanded | {node})

    def trace(self, direction: Direction | None) -> None:
        """Highlight the selected node's lineage up or down (None: clear it)."""
        node = self.canvas.selected_node()
        self.lineage = (node, direction) if node and direction else None
        self._mark_lineage()
        if self.lineage is None and direction is not None:
            self.status.show("Select a node first to trace its lineage")

    def go_to(self, node: str) -> None:
        """Select and centre a node, showing it first when the filters hide it."""
        view = self.session.current
        if view is not None and node in view.view.projection.graph:
            self.canvas.select_node(node)
            self.canvas.center_on(node)
            return
        self._go_to_when_drawn = node
        self.session.change(revealed=self.session.query.revealed | {node}, focus=None)

    def search(self, words: str) -> None:
        """Search the store; the results go to the filters panel."""
        history, query = self.session.history, self.session.query
        knowledge = self.session.workspace.knowledge
        self.session.store.call(
            lambda: find_nodes(knowledge, history, query, words),
            self._show_results,
            lambda error: self.status.show(f"Search failed: {error}"),
        )

    def show_run(self, execution_id: str) -> None:
        """Focus the graph on what a run produced."""
        subjects = self._subjects_of_run(execution_id)
        if not subjects:
            self.status.show(f"Run {execution_id} landed no artifacts")
            return
        subject = subjects[0] if len(subjects) == 1 else None
        key = f"run:{execution_id}"
        run_node = key if subject is not None else f"{subjects[0]}/{key}"
        self.lineage = None
        self.session.change(subject=subject, focus=run_node, depth=1, as_of=None)

    # What the session answers -----------------------------------------------------------

    def _show_history(self, history: KnowledgeHistory) -> None:
        query = self.session.query
        self.filters.set_choices(history.subjects, query.subject, history.kinds, history.item_types)
        self.timeline.set_moments(history.moments)
        self.historyShown.emit(not history.empty)
        if history.damaged:
            names = ", ".join(d.ref for d in history.damaged)
            self.status.show(f"Damaged and left out of the graph: {names}", 15000)

    def _show_view(self, drawn: DrawnView) -> None:
        view = drawn.view
        self.canvas.show_graph(view.projection, drawn.positions, drawn.drawing)
        self._mark_changes(view, drawn)
        self._mark_lineage()
        # The insights on a turn of their own: a new history lists them all again.
        QTimer.singleShot(0, self, lambda: self._show_insights_of(drawn))
        if view.lost_focus:
            self.status.show(f"{view.query.focus} is not in the graph at this moment")
        pending, self._go_to_when_drawn = self._go_to_when_drawn, None
        if pending is not None:
            if pending in view.projection.graph:
                self.go_to(pending)
            else:
                self.status.show(f"{pending} is not in the graph at this moment")

    def _show_insights_of(self, drawn: DrawnView) -> None:
        if self.session.current is drawn:  # not when a newer view came meanwhile
            self._show_insights(drawn.view)

    def _show_insights(self, view: GraphView) -> None:
        """Gaps and suspect links on the canvas and in the Insights dock, when they changed
        (a timeline step seldom changes them, and a thousand of them take a while to list)."""
        shown = (view.query.subject, view.gaps, view.suspects)
        if shown == self._insights_shown:
            return
        self._insights_shown = shown
        self.canvas.set_gaps({node: gap.message for node, gap in view.gaps.items()})
        self.canvas.set_suspect_edges({edge: s.message for edge, s in view.suspects.items()})
        query = view.query
        self.insights.set_node_id(lambda subject, key: node_id(query, subject, key))
        self.insights.show_insights(list(view.gaps.values()), list(view.suspects.values()))

    def _mark_changes(self, view: GraphView, drawn: DrawnView) -> None:
        changes = view.changes
        if changes is None:
            self.canvas.clear_changes()
            self.changes.clear()
            return
        removed = {n["id"]: n for n in changes.nodes_removed}
        self.canvas.set_changes(
            added={n["id"] for n in changes.nodes_added},
            removed=removed,
            changed={c.id for c in changes.nodes_changed},
            removed_positions={n: drawn.positions[n] for n in removed if n in drawn.positions},
        )
        self.changes.show_diff(changes)

    def _mark_lineage(self) -> None:
        current = self.session.current
        if self.lineage is None or current is None:
            self.canvas.set_dimmed(None)
            return
        node, direction = self.lineage
        self.canvas.set_dimmed(current.view.lineage(node, direction) or None)

    def _selected(self, node: str) -> None:
        current = self.session.current
        if not node or current is None or node not in current.view.projection.graph:
            return
        self.artifacts.show_node(current.view.projection.graph.nodes[node], self.session.history)

    def _show_results(self, found: list[Found]) -> None:
        self.filters.show_results([(f.node, f.title, f.detail) for f in found])

    def _refocus(self, **choices: object) -> None:
        self.lineage = None
        self.session.change(focus=None, expanded=frozenset(), revealed=frozenset(), **choices)

    def _provenance(self, produced_by: dict) -> None:
        execution = produced_by.get("execution")
        if isinstance(execution, str) and execution:
            self.runRequested.emit(execution)
        else:
            self.status.show("This artifact does not name the run that produced it")

    def _subjects_of_run(self, execution_id: str) -> list[str]:
        history = self.session.history
        return sorted(
            {
                v.subject
                for v in history.versions
                if v.front.produced_by.get("execution") == execution_id
            }
        )
