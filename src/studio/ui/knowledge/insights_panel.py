"""Insights: the coverage gaps and suspect links of the graph shown, listed to go to.

A gap is a node traceability expects to be linked (a requirement no story covers, …); a
suspect link was written before the thing it relies on was revised. Both carry the style's
warning icon. Selecting a gap asks the view to go to its node; selecting a suspect link asks
for the link as the projection stores it, (source, type, target). Node ids are the view's:
the caller says how a (subject, key) is named, since a view of one subject uses plain keys.
"""

from collections.abc import Callable, Sequence

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QStyle,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.knowledge.insight import RELIES_BACKWARD, Gap, Suspect
from studio.ui.knowledge.entry_lists import empty_state, entry_tree, tree_or_empty

EMPTY_TEXT = "No coverage gaps or suspect links"
TARGET_ROLE = Qt.ItemDataRole.UserRole
NodeNamer = Callable[[str, str], str]
"""(subject, key) -> the node's id in the view."""


def qualified_id(subject: str, key: str) -> str:
    """A node's id in a view of every subject: "<subject>/<key>"."""
    return f"{subject}/{key}"


def gap_text(gap: Gap) -> str:
    """ "REQ-3 Wallet payments: no story covers it"."""
    named = gap.key if gap.label in ("", gap.key) else f"{gap.key} {gap.label}"
    return f"{named}: {gap.missing}"


def suspect_text(suspect: Suspect) -> str:
    """ "ST-1 COVERS REQ-1: REQ-1 revised 2026-09-08, after the link (2026-09-02)"."""
    return (
        f"{suspect.item} {suspect.link} {suspect.target}: {suspect.target} revised "
        f"{suspect.target_revised:%Y-%m-%d}, after the link ({suspect.item_written:%Y-%m-%d})"
    )


def suspect_edge(suspect: Suspect, node_id: NodeNamer) -> tuple[str, str, str]:
    """The link as stored: from the relying node, except where reliance runs against the edge
    (a unit relies on the story whose IMPLEMENTS edge points at it)."""
    item, target = node_id(suspect.subject, suspect.item), node_id(suspect.subject, suspect.target)
    if suspect.link in RELIES_BACKWARD:
        return target, suspect.link, item
    return item, suspect.link, target


class InsightsPanel(QWidget):
    """Coverage gaps and suspect links in two groups; selecting one emits ``nodeRequested``
    (a node id) or ``edgeRequested`` ((source, type, target))."""

    nodeRequested = Signal(str)
    edgeRequested = Signal(object)

    def __init__(self, node_id: NodeNamer = qualified_id, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._node_id = node_id
        self._groups: list[QTreeWidgetItem] = []
        self.tree = entry_tree("Coverage gaps and suspect links")
        self.tree.setIconSize(QSize(16, 16))
        self.tree.itemSelectionChanged.connect(self._on_selected)
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
        self.tree.clear()
        warning = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        self._groups = []
        if gaps:
            self._groups.append(_group(f"Coverage gaps ({len(gaps)})"))
            for gap in gaps:
                node = self._node_id(gap.subject, gap.key)
                _entry(self._groups[-1], gap_text(gap), gap.message, node, warning)
        if suspects:
            self._groups.append(_group(f"Suspect links ({len(suspects)})"))
            for suspect in suspects:
                edge = suspect_edge(suspect, self._node_id)
                _entry(self._groups[-1], suspect_text(suspect), suspect.message, edge, warning)
        self.tree.addTopLevelItems(self._groups)
        self.tree.expandAll()
        self.stack.setCurrentWidget(self.tree if self._groups else self.empty)

    def group_titles(self) -> list[str]:
        """The groups shown, with their counts: "Coverage gaps (2)", …"""
        return [group.text(0) for group in self._groups]

    def _on_selected(self) -> None:
        chosen = self.tree.selectedItems()
        target = chosen[0].data(0, TARGET_ROLE) if chosen else None
        if isinstance(target, str):
            self.nodeRequested.emit(target)
        elif isinstance(target, list):
            self.edgeRequested.emit(tuple(target))


def _group(title: str) -> QTreeWidgetItem:
    group = QTreeWidgetItem([title])
    group.setFlags(Qt.ItemFlag.ItemIsEnabled)
    font = group.font(0)
    font.setBold(True)
    group.setFont(0, font)
    return group


def _entry(
    group: QTreeWidgetItem,
    text: str,
    tip: str,
    target: str | tuple[str, str, str],
    icon: QIcon,
) -> None:
    item = QTreeWidgetItem([text])
    item.setToolTip(0, tip)
    item.setData(0, TARGET_ROLE, target if isinstance(target, str) else list(target))
    item.setIcon(0, icon)
    group.addChild(item)
