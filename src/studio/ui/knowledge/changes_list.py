"""The changes between two moments, listed: nodes and links added, removed and changed.

Each group says how many it holds and carries the colour the canvas marks it with in compare
mode (added green, removed red, changed amber), drawn as a small badge so that the words stay
in the palette's text colour and read in both themes. Selecting a node asks the view to go to
it; selecting a link asks for the link (and, for views that only go to nodes, its source).
"""

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QLabel,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.knowledge.projection import GraphDiff, NodeChange
from studio.ui.knowledge.entry_lists import empty_state, entry_tree, tree_or_empty
from studio.ui.knowledge.node_look import ADDED, CHANGED, REMOVED

EMPTY_TEXT = "No changes between these moments"
NODE_ROLE = Qt.ItemDataRole.UserRole
EDGE_ROLE = Qt.ItemDataRole.UserRole + 1
FIXED_KEYS = frozenset({"id", "type", "label", "subject", "ref", "hidden_neighbours"})
"""What a projection's node data holds besides the node's own fields."""
FIELD_WORDS = {"type": "type", "label": "title", "ref": "version", "data": "fields"}
Edge = tuple[str, str, str]


def badge(colour: QColor, mark: str, size: int = 16) -> QIcon:
    """A disc in ``colour`` with a plus, a minus or a dot drawn on it (no font glyphs)."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colour)
    painter.drawEllipse(QRectF(1, 1, size - 2, size - 2))
    centre, arm = size / 2, size / 4
    pen = QPen(QColor("white"), 2)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    painter.setBrush(QColor("white"))
    if mark in ("+", "-"):
        painter.drawLine(QPointF(centre - arm, centre), QPointF(centre + arm, centre))
    if mark == "+":
        painter.drawLine(QPointF(centre, centre - arm), QPointF(centre, centre + arm))
    if mark == ".":
        painter.drawEllipse(QPointF(centre, centre), 2, 2)
    painter.end()
    return QIcon(pixmap)


def node_text(node: dict[str, Any]) -> str:
    """ "REQ-3  Wallet payments (requirement)", or the id alone when the label says nothing more."""
    label, ident, kind = str(node.get("label", "")), str(node["id"]), str(node.get("type", ""))
    key = ident.rsplit("/", 1)[-1]
    named = key if not label or label == key else f"{key}  {label}"
    return f"{named} ({kind})" if kind else named


def change_text(change: NodeChange) -> str:
    """A changed node and what changed about it: "requirements: version, fields"."""
    words = ", ".join(FIELD_WORDS.get(field, field) for field in change.fields)
    return f"{node_text(change.after)}: {words} changed"


def edge_text(edge: Edge) -> str:
    """ "ST-3 COVERS REQ-3", with the subject left off the ends."""
    source, edge_type, target = edge
    return f"{source.rsplit('/', 1)[-1]} {edge_type} {target.rsplit('/', 1)[-1]}"


class ChangesList(QWidget):
    """A GraphDiff as a grouped list; selecting an entry emits ``nodeRequested`` (a node id) or,
    for a link, ``edgeRequested`` ((source, type, target)) and ``nodeRequested`` for its
    source."""

    nodeRequested = Signal(str)
    edgeRequested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._groups: list[QTreeWidgetItem] = []
        self.summary = QLabel()
        self.summary.setObjectName("changesSummary")
        self.summary.setWordWrap(True)
        self.tree = entry_tree("Changes between the two moments")
        self.tree.itemSelectionChanged.connect(self._on_selected)
        self.empty = empty_state(EMPTY_TEXT, "changesEmpty")
        self.stack = tree_or_empty(self.tree, self.empty)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(self.stack, 1)
        self.clear()

    def show_diff(self, diff: GraphDiff) -> None:
        """List what changed; an empty difference shows the empty state."""
        self.tree.clear()
        self._groups = [_group(*spec) for spec in _groups(diff) if spec[3]]
        self.tree.addTopLevelItems(self._groups)
        self.tree.expandAll()
        total = sum(group.childCount() for group in self._groups)
        self.summary.setText(_summary(diff) if total else "")
        self.summary.setVisible(bool(total))
        self.stack.setCurrentWidget(self.tree if total else self.empty)

    def clear(self) -> None:
        """Nothing compared: the empty state."""
        self.show_diff(GraphDiff())

    def group_titles(self) -> list[str]:
        """The groups shown, with their counts: "Added nodes (3)", …"""
        return [group.text(0) for group in self._groups]

    def _on_selected(self) -> None:
        chosen = self.tree.selectedItems()
        if not chosen:
            return
        node, edge = chosen[0].data(0, NODE_ROLE), chosen[0].data(0, EDGE_ROLE)
        if edge:
            self.edgeRequested.emit(tuple(edge))
        if node:
            self.nodeRequested.emit(node)


Entry = tuple[str, str, str, Edge | None]
"""(text, tooltip, node id to go to, the link or None)."""
_GroupSpec = tuple[str, QColor, str, list[Entry]]


def _groups(diff: GraphDiff) -> list[_GroupSpec]:
    def nodes(found: tuple[dict[str, Any], ...]) -> list[Entry]:
        return [(node_text(n), str(n["id"]), str(n["id"]), None) for n in found]

    def edges(found: tuple[Edge, ...]) -> list[Entry]:
        return [(edge_text(e), " ".join(e), e[0], e) for e in found]

    changed: list[Entry] = [
        (change_text(c), _change_tip(c), c.id, None) for c in diff.nodes_changed
    ]
    return [
        ("Added nodes", ADDED, "+", nodes(diff.nodes_added)),
        ("Removed nodes", REMOVED, "-", nodes(diff.nodes_removed)),
        ("Changed nodes", CHANGED, ".", changed),
        ("Added links", ADDED, "+", edges(diff.edges_added)),
        ("Removed links", REMOVED, "-", edges(diff.edges_removed)),
    ]


def _group(title: str, colour: QColor, mark: str, entries: list[Entry]) -> QTreeWidgetItem:
    icon = badge(colour, mark)
    group = QTreeWidgetItem([f"{title} ({len(entries)})"])
    group.setIcon(0, icon)
    group.setFlags(Qt.ItemFlag.ItemIsEnabled)
    font = group.font(0)
    font.setBold(True)
    group.setFont(0, font)
    for text, tip, node, edge in entries:
        item = QTreeWidgetItem([text])
        item.setIcon(0, icon)
        item.setToolTip(0, tip)
        item.setData(0, NODE_ROLE, node)
        item.setData(0, EDGE_ROLE, list(edge) if edge else None)
        group.addChild(item)
    return group


def _change_tip(change: NodeChange) -> str:
    """The node's id and, per changed field, what it was and what it is."""
    lines = [change.id]
    for field in change.fields:
        if field == "data":
            lines.append(f"fields changed: {', '.join(_changed_fields(change))}")
        else:
            before, after = change.before.get(field), change.after.get(field)
            lines.append(f"{FIELD_WORDS[field]}: {before} -> {after}")
    return "\n".join(lines)


def _changed_fields(change: NodeChange) -> list[str]:
    """The names of the node's own fields that differ between the two moments."""
    names = (set(change.before) | set(change.after)) - FIXED_KEYS
    return sorted(n for n in names if change.before.get(n) != change.after.get(n))


def _summary(diff: GraphDiff) -> str:
    nodes = len(diff.nodes_added) + len(diff.nodes_removed) + len(diff.nodes_changed)
    links = len(diff.edges_added) + len(diff.edges_removed)
    return f"{_count(nodes, 'node')} and {_count(links, 'link')} differ"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
