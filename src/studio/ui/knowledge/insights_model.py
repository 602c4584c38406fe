"""The Insights dock's list as a model: the coverage gaps and suspect links of the graph
shown, in two groups, with where selecting each goes.

A large store has thousands of suspect links, so nothing is built per entry: ``InsightsModel``
keeps the gaps and suspect links as given, and an entry's text, tooltip, icon and target are
worked out only when the view asks for them, that is for the rows it draws. Showing a new list
is a model reset. Node ids are the view's: the caller says how a (subject, key) is named, since
a view of one subject uses plain keys.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, overload

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QFont, QIcon

from studio.knowledge.insight import RELIES_BACKWARD, Gap, Suspect, day

TARGET_ROLE = Qt.ItemDataRole.UserRole
NodeNamer = Callable[[str, str], str]
"""(subject, key) -> the node's id in the view."""
Entry = Gap | Suspect
Target = str | tuple[str, str, str]
"""A gap's node id, or a suspect link's (source, type, target)."""
Index = QModelIndex | QPersistentModelIndex

GROUP_ID = 0
"""The internal id of a group row; an entry's is its group's row + 1, so ``parent`` needs no
lookup."""
ROOT = QModelIndex()
"""The invisible parent of the groups."""
GROUP_FLAGS = Qt.ItemFlag.ItemIsEnabled
ENTRY_FLAGS = (
    Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
)
"""An entry is a leaf: saying so spares the view asking each one for its children."""


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
        f"{day(suspect.target_revised)}, after the link ({day(suspect.item_written)})"
    )


def suspect_edge(suspect: Suspect, node_id: NodeNamer) -> tuple[str, str, str]:
    """The link as stored: from the relying node, except where reliance runs against the edge
    (a unit relies on the story whose IMPLEMENTS edge points at it)."""
    item, target = node_id(suspect.subject, suspect.item), node_id(suspect.subject, suspect.target)
    if suspect.link in RELIES_BACKWARD:
        return target, suspect.link, item
    return item, suspect.link, target


def entry_target(entry: Entry, node_id: NodeNamer) -> Target:
    """Where selecting the entry goes: a gap's node, a suspect link's edge."""
    if isinstance(entry, Gap):
        return node_id(entry.subject, entry.key)
    return suspect_edge(entry, node_id)


@dataclass(frozen=True)
class _Group:
    title: str
    entries: Sequence[Entry]


class InsightsModel(QAbstractItemModel):
    """Two levels, one column: the groups ("Coverage gaps (N)", in bold) and their entries."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._groups: list[_Group] = []
        self._node_id: NodeNamer = qualified_id
        self._icon = QIcon()
        self._bold = QFont()
        self._bold.setBold(True)  # only the weight is set: the view's font gives the rest

    def show(
        self, gaps: Sequence[Gap], suspects: Sequence[Suspect], node_id: NodeNamer, icon: QIcon
    ) -> None:
        """List these (a group is left out when it has none), naming nodes with ``node_id``."""
        self.beginResetModel()
        groups = [
            _Group(f"Coverage gaps ({len(gaps)})", gaps),
            _Group(f"Suspect links ({len(suspects)})", suspects),
        ]
        self._groups = [group for group in groups if group.entries]
        self._node_id, self._icon = node_id, icon
        self.endResetModel()

    def group_titles(self) -> list[str]:
        """The groups listed, with their counts."""
        return [group.title for group in self._groups]

    def target(self, index: Index) -> Target | None:
        """Where the entry at ``index`` goes; None for a group."""
        entry = self._entry(index)
        return None if entry is None else entry_target(entry, self._node_id)

    def index(self, row: int, column: int, parent: Index = ROOT) -> QModelIndex:
        """The index of a group (no parent) or of an entry of the group ``parent``."""
        # The view asks once for every row it lays out, so this one stays lean.
        if not parent.isValid():
            rows, internal_id = len(self._groups), GROUP_ID
        elif parent.internalId() == GROUP_ID:
            rows, internal_id = len(self._groups[parent.row()].entries), parent.row() + 1
        else:
            return QModelIndex()
        if column != 0 or not 0 <= row < rows:
            return QModelIndex()
        return self.createIndex(row, 0, internal_id)

    @overload
    def parent(self) -> QObject | None: ...
    @overload
    def parent(self, child: Index) -> QModelIndex: ...
    def parent(self, child: Index | None = None) -> QObject | QModelIndex | None:
        """An entry's group; nothing for a group (and, called bare, the owning QObject)."""
        if child is None:
            return super().parent()
        if not child.isValid() or child.internalId() == GROUP_ID:
            return QModelIndex()
        return self.createIndex(child.internalId() - 1, 0, GROUP_ID)

    def rowCount(self, parent: Index = ROOT) -> int:
        """Groups at the top, entries under a group, nothing under an entry."""
        if not parent.isValid():
            return len(self._groups)
        if parent.internalId() == GROUP_ID and parent.column() == 0:
            return len(self._groups[parent.row()].entries)
        return 0

    def columnCount(self, parent: Index = ROOT) -> int:
        """One column: the text."""
        return 1

    def flags(self, index: Index) -> Qt.ItemFlag:
        """Entries can be selected and never have children; groups only head them."""
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return GROUP_FLAGS if index.internalId() == GROUP_ID else ENTRY_FLAGS

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """A group's title and bold font; an entry's text, tooltip, icon and target."""
        if not index.isValid():
            return None
        if index.internalId() == GROUP_ID:
            return self._group_data(self._groups[index.row()], role)
        entry = self._entry(index)
        return None if entry is None else self._entry_data(entry, role)

    def _group_data(self, group: _Group, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return group.title
        if role == Qt.ItemDataRole.FontRole:
            return self._bold
        return None

    def _entry_data(self, entry: Entry, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return gap_text(entry) if isinstance(entry, Gap) else suspect_text(entry)
        if role == Qt.ItemDataRole.ToolTipRole:
            return entry.message
        if role == Qt.ItemDataRole.DecorationRole:
            return self._icon
        if role == TARGET_ROLE:
            target = entry_target(entry, self._node_id)
            return target if isinstance(target, str) else list(target)
        return None

    def _entry(self, index: Index) -> Entry | None:
        group = index.internalId() - 1 if index.isValid() else -1
        return self._groups[group].entries[index.row()] if group >= 0 else None
