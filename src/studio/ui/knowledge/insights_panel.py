"""Insights: the coverage gaps and suspect links of the graph shown, listed to go to.

A gap is a node traceability expects to be linked (a requirement no story covers, …); a
suspect link was written before the thing it relies on was revised. Both carry the style's
warning icon. Selecting a gap asks the view to go to its node; selecting a suspect link asks
for the link as the projection stores it, (source, type, target). The list is
``InsightsModel``, which costs nothing per entry until a row is drawn.
"""

from collections.abc import Sequence

from PySide6.QtCore import QItemSelection, QSize, Signal
from PySide6.QtWidgets import QStyle, QVBoxLayout, QWidget

from studio.knowledge.insight import Gap, Suspect
from studio.ui.knowledge.entry_lists import empty_state, entry_view, tree_or_empty
from studio.ui.knowledge.insights_model import InsightsModel, NodeNamer, qualified_id

EMPTY_TEXT = "No coverage gaps or suspect links"


class InsightsPanel(QWidget):
    """Coverage gaps and suspect links in two groups; selecting one emits ``nodeRequested``
    (a node id) or ``edgeRequested`` ((source, type, target))."""

    nodeRequested = Signal(str)
    edgeRequested = Signal(object)

    def __init__(self, node_id: NodeNamer = qualified_id, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._node_id = node_id
        self._model = InsightsModel(self)
        self.tree = entry_view("Coverage gaps and suspect links")
        self.tree.setIconSize(QSize(16, 16))
        self.tree.setModel(self._model)
        self.tree.selectionModel().selectionChanged.connect(self._on_selected)
        self.empty = empty_state(EMPTY_TEXT, "insightsEmpty")
        self.stack = tree_or_empty(self.tree, self.empty)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.stack, 1)
        self.show_insights([], [])

    def set_node_id(self, node_id: NodeNamer) -> None:
        """How the view names a node now; applies from the next ``show_insights``."""
        self._node_id = node_id

    def show_insights(self, gaps: Sequence[Gap], suspects: Sequence[Suspect]) -> None:
        """List these gaps and suspect links (a group is left out when it has none)."""
        warning = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        self._model.show(gaps, suspects, self._node_id, warning)
        self._expand_groups()
        self.stack.setCurrentWidget(self.tree if self._model.rowCount() else self.empty)

    def group_titles(self) -> list[str]:
        """The groups shown, with their counts: "Coverage gaps (2)", …"""
        return self._model.group_titles()

    def _expand_groups(self) -> None:
        # A reset forgets which rows were expanded. Expanding the groups one by one, rather than
        # expandAll(), only notes them: the view lays the rows out once, on its next pass.
        for row in range(self._model.rowCount()):
            self.tree.expand(self._model.index(row, 0))

    def _on_selected(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        chosen = selected.indexes()
        target = self._model.target(chosen[0]) if chosen else None
        if isinstance(target, str):
            self.nodeRequested.emit(target)
        elif target is not None:
            self.edgeRequested.emit(target)
