"""The scene's notes and group frames, kept in step with the document's events like its nodes
and edges are. A collapsed group hides its nodes and stands in for them: their edges are drawn
to its box, and an edge between two of them is hidden."""

from collections.abc import Iterable

from PySide6.QtWidgets import QGraphicsScene

from studio.model import Position
from studio.model.annotations import Group, Note
from studio.model.document import WorkflowDocument
from studio.ui.canvas.annotation_look import AnnotationIntents
from studio.ui.canvas.group_item import GroupItem
from studio.ui.canvas.items import EdgeItem, NodeItem
from studio.ui.canvas.note_item import NoteItem


class AnnotationLayer:
    """Note and group items of one scene; it never changes the document."""

    def __init__(
        self,
        scene: QGraphicsScene,
        document: WorkflowDocument,
        node_items: dict[str, NodeItem],
        edge_items: dict[str, EdgeItem],
    ) -> None:
        self.scene, self.document = scene, document
        self.node_items, self.edge_items = node_items, edge_items
        self.intents = AnnotationIntents(scene)
        self.note_items: dict[str, NoteItem] = {}
        self.group_items: dict[str, GroupItem] = {}

    def rebuild(self) -> None:
        """Draw every note and group again (the scene was cleared)."""
        self.note_items.clear()
        self.group_items.clear()
        self.add_notes(note.id for note in self.document.notes)
        self.add_groups(group.id for group in self.document.groups)

    def apply_colors(self) -> None:
        """Repaint in the current theme."""
        for note in self.note_items.values():
            note.apply_colors()
        for group in self.group_items.values():
            group.update_from(self._group(group.group_id))

    # Notes -----------------------------------------------------------------------------

    def add_notes(self, ids: Iterable[str]) -> None:
        """Items for new notes."""
        for note_id in ids:
            item = NoteItem(self._note(note_id), self.intents)
            self.note_items[note_id] = item
            self.scene.addItem(item)

    def remove_notes(self, ids: Iterable[str]) -> None:
        """Take removed notes off the canvas."""
        for note_id in ids:
            self.scene.removeItem(self.note_items.pop(note_id))

    def update_notes(self, ids: Iterable[str]) -> None:
        """Redraw changed notes."""
        for note_id in ids:
            self.note_items[note_id].update_from(self._note(note_id))

    # Groups ----------------------------------------------------------------------------

    def add_groups(self, ids: Iterable[str]) -> None:
        """Frames for new groups."""
        for group_id in ids:
            group = self._group(group_id)
            item = GroupItem(group, self.intents)
            self.group_items[group_id] = item
            self.scene.addItem(item)
            self._settle(group, item)

    def remove_groups(self, ids: Iterable[str]) -> None:
        """Take removed groups off the canvas, showing their nodes again."""
        for group_id in ids:
            item = self.group_items.pop(group_id)
            released = item.members
            item.set_members([])
            self._show(released)
            self.scene.removeItem(item)

    def update_groups(self, ids: Iterable[str]) -> None:
        """Redraw changed groups: name, colour, members, collapsed or not."""
        for group_id in ids:
            self._settle(self._group(group_id), self.group_items[group_id])

    def refresh_groups_for(self, node_ids: Iterable[str]) -> None:
        """Fit the frames of the groups these nodes are in (after they moved or changed)."""
        wanted = set(node_ids)
        for group in self.document.groups:
            item = self.group_items.get(group.id)  # none yet while the scene is rebuilt
            if item is not None and not wanted.isdisjoint(group.node_ids):
                self._settle(group, item)

    def settle_edges(self, edges: Iterable[EdgeItem]) -> None:
        """Hide an edge whose two ends are in one collapsed group; show the others."""
        for edge in edges:
            inside = edge.source.stand_in is not None
            edge.setVisible(not (inside and edge.source.stand_in is edge.target.stand_in))

    def _settle(self, group: Group, item: GroupItem) -> None:
        before = item.members
        members = [self.node_items[i] for i in group.node_ids if i in self.node_items]
        item.update_from(group)
        self._show([member for member in before if member not in members])
        for member in members:
            member.setVisible(not group.collapsed)
            member.stand_in = item if group.collapsed else None
        item.set_members(members)
        self._redraw_edges([*before, *members])

    def _show(self, members: list[NodeItem]) -> None:
        for member in members:
            member.setVisible(True)
            member.stand_in = None
        self._redraw_edges(members)

    def _redraw_edges(self, members: list[NodeItem]) -> None:
        edges = {id(edge): edge for member in members for edge in member.edges}
        for edge in edges.values():
            edge.refresh()
        self.settle_edges(edges.values())

    # Selection -------------------------------------------------------------------------

    def selected_note_ids(self) -> list[str]:
        """Ids of the selected notes, in definition order."""
        selected = {i.note_id for i in self.scene.selectedItems() if isinstance(i, NoteItem)}
        return [note.id for note in self.document.notes if note.id in selected]

    def selected_note_positions(self) -> dict[str, Position]:
        """Where the selected notes are, by id."""
        items = self.note_items
        return {
            note_id: Position(x=items[note_id].pos().x(), y=items[note_id].pos().y())
            for note_id in self.selected_note_ids()
        }

    def selected_group_ids(self) -> list[str]:
        """Ids of the selected group frames, in definition order."""
        selected = {i.group_id for i in self.scene.selectedItems() if isinstance(i, GroupItem)}
        return [group.id for group in self.document.groups if group.id in selected]

    def _note(self, note_id: str) -> Note:
        note = self.document.note(note_id)
        if note is None:
            raise KeyError(f"the document announced note {note_id!r}, which it does not hold")
        return note

    def _group(self, group_id: str) -> Group:
        group = self.document.group(group_id)
        if group is None:
            raise KeyError(f"the document announced group {group_id!r}, which it does not hold")
        return group
