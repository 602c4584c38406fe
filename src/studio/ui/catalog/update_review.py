"""The "Review update" dialog: what a newer blueprint version changes, beside the local edits.

The dialog merges the three versions when it opens and shows the outcome: the blueprint's
changes and the workflow's local edits side by side, grouped by the node, edge or settings they
touch, with the conflicts marked. It only shows and returns; the caller applies ``merged()``.
"""

from itertools import zip_longest

from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.model import Workflow
from studio.model.blueprint_changes import Change, Key
from studio.model.blueprint_merge import BlueprintMerge, Conflict, merge_blueprint_update
from studio.ui.icons import icon
from studio.ui.panels.inline_message import message_colour

BLUEPRINT_COLUMN, LOCAL_COLUMN = 0, 1


def group_key(key: Key) -> Key:
    """The node, edge or settings a change or conflict belongs to, by its key."""
    size = {"node": 2, "edge": 3}.get(key[0], 1)
    return key[:size]


class UpdateReviewDialog(QDialog):
    """Lists a blueprint update's changes and the local edits, and applies the merge."""

    def __init__(
        self, base: Workflow, theirs: Workflow, ours: Workflow, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Review update")
        self.merge: BlueprintMerge = merge_blueprint_update(base, theirs, ours)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["From the blueprint", "Local edits"])
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QTreeWidget.SelectionMode.NoSelection)
        self.tree.setWordWrap(True)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.apply_button = QPushButton("Apply update")
        buttons.addButton(self.apply_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self._summary(theirs))
        layout.addWidget(self.tree)
        layout.addWidget(buttons)
        self._fill()
        self.apply_button.setFocus()
        self.resize(860, 480)

    def merged(self) -> Workflow | None:
        """The merged workflow once the update was applied; None before or after Cancel."""
        if self.result() != QDialog.DialogCode.Accepted:
            return None
        return self.merge.merged

    def shown_lines(self, column: int) -> list[str]:
        """The changes shown in one column (BLUEPRINT_COLUMN or LOCAL_COLUMN), as
        "place: change" lines, conflicting ones ending in " [conflict]"."""
        lines = []
        for group in self._groups():
            for child in _children(group):
                if child.text(column) and not child.isFirstColumnSpanned():
                    mark = " [conflict]" if child.toolTip(column) else ""
                    lines.append(f"{group.text(0)}: {child.text(column)}{mark}")
        return lines

    def conflict_lines(self) -> list[str]:
        """The conflicts shown, as "place: explanation" lines."""
        return [
            f"{group.text(0)}: {child.text(0).removeprefix('Conflict: ')}"
            for group in self._groups()
            for child in _children(group)
            if child.isFirstColumnSpanned()
        ]

    def _groups(self) -> list[QTreeWidgetItem]:
        return _children(self.tree.invisibleRootItem())

    def _summary(self, theirs: Workflow) -> QLabel:
        merge = self.merge
        counts = (
            f"{_count(len(merge.blueprint_changes), 'change')} from the blueprint, "
            f"{_count(len(merge.local_edits), 'local edit')}, "
            f"{_count(len(merge.conflicts), 'conflict')}."
        )
        advice = " Where both changed the same thing, the local edit is kept." * bool(
            merge.conflicts
        )
        label = QLabel(
            f"Version {theirs.version} of the blueprint '{theirs.name}': {counts}{advice}"
        )
        label.setWordWrap(True)
        return label

    def _fill(self) -> None:
        merge = self.merge
        keys = [group_key(item.key) for item in (*merge.blueprint_changes, *merge.local_edits)]
        keys += [group_key(conflict.key) for conflict in merge.conflicts]
        for key in dict.fromkeys(keys):
            self._add_group(key)
        if not keys:
            self.tree.addTopLevelItem(QTreeWidgetItem(["Neither side changed anything."]))

    def _add_group(self, key: Key) -> None:
        merge = self.merge
        theirs = [change for change in merge.blueprint_changes if group_key(change.key) == key]
        ours = [change for change in merge.local_edits if group_key(change.key) == key]
        conflicts = [conflict for conflict in merge.conflicts if group_key(conflict.key) == key]
        group = QTreeWidgetItem(self.tree, [_place(theirs, ours, conflicts)])
        group.setFirstColumnSpanned(True)
        font = QFont(group.font(0))
        font.setBold(True)
        group.setFont(0, font)
        for blueprint_change, local_edit in zip_longest(theirs, ours):
            row = QTreeWidgetItem(group)
            self._show_change(row, BLUEPRINT_COLUMN, blueprint_change)
            self._show_change(row, LOCAL_COLUMN, local_edit)
        for conflict in conflicts:
            self._show_conflict(QTreeWidgetItem(group), conflict)
        group.setExpanded(True)

    def _show_change(self, row: QTreeWidgetItem, column: int, change: Change | None) -> None:
        if change is None:
            return
        row.setText(column, change.text)
        conflicts = self.merge.conflicts_with(change)
        if conflicts:
            row.setIcon(column, icon("message_warning", message_colour("warning")))
            row.setToolTip(column, "\n".join(conflict.text for conflict in conflicts))

    def _show_conflict(self, row: QTreeWidgetItem, conflict: Conflict) -> None:
        row.setFirstColumnSpanned(True)
        row.setText(0, f"Conflict: {conflict.text}")
        row.setIcon(0, icon("message_warning", message_colour("warning")))
        row.setForeground(0, QBrush(QColor(message_colour("warning"))))


def _children(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    return [child for row in range(item.childCount()) if (child := item.child(row)) is not None]


def _place(theirs: list[Change], ours: list[Change], conflicts: list[Conflict]) -> str:
    """The group's heading: the place named by its first change, else by its first conflict."""
    first = (*theirs, *ours)
    return first[0].place if first else conflicts[0].place


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
