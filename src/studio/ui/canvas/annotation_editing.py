"""Notes and groups on one editor's canvas: what the items report and what the menus and
shortcuts offer become undo commands, one per change."""

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject, QPointF, Qt
from PySide6.QtGui import QAction, QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import QMenu, QWidget

from studio.model import Position
from studio.model.annotations import ANNOTATION_COLOURS, AnnotationColour, Group, Note
from studio.model.document import WorkflowDocument
from studio.model.geometry import Size
from studio.ui.canvas.annotation_commands import (
    AddNote,
    GroupNodes,
    MoveNotes,
    RemoveAnnotations,
    ReplaceGroup,
    ReplaceNote,
)
from studio.ui.canvas.annotation_look import COLOUR_NAMES
from studio.ui.canvas.commands import MoveNodes
from studio.ui.canvas.group_item import GroupItem
from studio.ui.canvas.note_item import NoteItem
from studio.ui.canvas.scene import WorkflowScene
from studio.ui.canvas.view import WorkflowView, snapped

ADD_NOTE_KEYS = "Ctrl+Shift+N"
GROUP_KEYS = "Ctrl+Shift+G"


class AnnotationEditing(QObject):
    """Turns note and group gestures on one canvas into commands on its undo stack."""

    def __init__(
        self,
        document: WorkflowDocument,
        undo_stack: QUndoStack,
        scene: WorkflowScene,
        view: WorkflowView,
        owner: QWidget,
    ) -> None:
        super().__init__(owner)
        self.document, self.undo_stack, self.scene, self.view = document, undo_stack, scene, view
        intents = scene.annotations.intents
        intents.noteTextEdited.connect(self.edit_note_text)
        intents.noteResized.connect(self.resize_note)
        intents.groupDragged.connect(self.move_group)
        intents.groupRenamed.connect(self.rename_group)
        intents.groupToggled.connect(self.toggle_group)
        view.selectionMoved.connect(self.move_selection)
        self.add_note_action = _shortcut(owner, "Add note", ADD_NOTE_KEYS, self.add_note)
        self.group_action = _shortcut(owner, "Group selection", GROUP_KEYS, self.group_selection)

    # Notes -----------------------------------------------------------------------------

    def add_note(self, where: QPointF | None = None) -> str:
        """A new note with its corner at ``where`` (scene), else in the middle of the view,
        selected and open for typing."""
        if where is None:
            where = self.view.mapToScene(self.view.viewport().rect().center())
        position = Position(x=where.x(), y=where.y())
        note = Note(
            id=self.document.unique_annotation_id("note"),
            position=snapped(position) if self.view.snap_to_grid else position,
        )
        self.undo_stack.push(AddNote(self.document, note))
        item = self.scene.annotations.note_items[note.id]
        self.scene.clearSelection()
        item.setSelected(True)
        self.view.setFocus()
        item.begin_editing()
        return note.id

    def edit_note_text(self, note_id: str, text: str) -> None:
        """Text typed into a note."""
        self._change_note(note_id, "Edit note", text=text)

    def recolour_note(self, note_id: str, colour: AnnotationColour) -> None:
        """A colour chosen from the note's menu."""
        self._change_note(note_id, f"Colour note {COLOUR_NAMES[colour].lower()}", colour=colour)

    def resize_note(self, note_id: str, width: float, height: float) -> None:
        """A note resized from its corner."""
        self._change_note(note_id, "Resize note", size=Size(width=width, height=height))

    def _change_note(self, note_id: str, undo_text: str, **changes: object) -> None:
        before = self.document.note(note_id)
        if before is None:
            return
        after = Note.model_validate({**dict(before), **changes})
        if after != before:
            self.undo_stack.push(ReplaceNote(self.document, before, after, undo_text))

    def move_selection(
        self, nodes_before: dict, nodes_after: dict, notes_before: dict, notes_after: dict
    ) -> None:
        """Notes dragged, with or without nodes: one undo step."""
        count = len(nodes_after) + len(notes_after)
        self.undo_stack.beginMacro(f"Move {count} item(s)")
        if nodes_after:
            self.undo_stack.push(MoveNodes(self.document, nodes_before, nodes_after))
        self.undo_stack.push(MoveNotes(self.document, notes_before, notes_after))
        self.undo_stack.endMacro()

    # Groups ----------------------------------------------------------------------------

    def group_selection(self) -> str | None:
        """Group the selected nodes; they leave any group they were in."""
        node_ids = self.scene.selected_node_ids()
        if not node_ids:
            return None
        group_id = self.document.unique_annotation_id("group")
        name = f"Group {group_id.rsplit('-', 1)[-1]}"
        self.undo_stack.push(
            GroupNodes(self.document, Group(id=group_id, name=name, node_ids=node_ids))
        )
        return group_id

    def ungroup(self, group_id: str) -> None:
        """Take the group's frame away; its nodes stay where they are."""
        group = self.document.group(group_id)
        if group is not None:
            text = f"Ungroup {group.label}"
            self.undo_stack.push(RemoveAnnotations(self.document, group_ids=[group_id], text=text))

    def rename_group(self, group_id: str, name: str) -> None:
        """A new name typed into the group's title."""
        self._change_group(group_id, f"Rename group to {name}", name=name)

    def toggle_group(self, group_id: str) -> None:
        """Collapse an expanded group, expand a collapsed one."""
        group = self.document.group(group_id)
        if group is not None:
            verb = "Expand" if group.collapsed else "Collapse"
            self._change_group(group_id, f"{verb} {group.label}", collapsed=not group.collapsed)

    def recolour_group(self, group_id: str, colour: AnnotationColour) -> None:
        """A colour chosen from the group's menu."""
        self._change_group(group_id, f"Colour group {COLOUR_NAMES[colour].lower()}", colour=colour)

    def move_group(self, before: dict, after: dict) -> None:
        """The group's frame dragged: its nodes moved, as one step."""
        self.undo_stack.push(MoveNodes(self.document, before, after, "Move group"))

    def _change_group(self, group_id: str, undo_text: str, **changes: object) -> None:
        before = self.document.group(group_id)
        if before is None:
            return
        after = Group.model_validate({**dict(before), **changes})
        if after != before:
            self.undo_stack.push(ReplaceGroup(self.document, before, after, undo_text))

    # Deleting and menus ----------------------------------------------------------------

    def removal_of_selection(self) -> QUndoCommand | None:
        """The command that deletes the selected notes and group frames, if any."""
        layer = self.scene.annotations
        note_ids, group_ids = layer.selected_note_ids(), layer.selected_group_ids()
        if not note_ids and not group_ids:
            return None
        return RemoveAnnotations(self.document, note_ids, group_ids)

    def item_at(self, where: QPointF) -> NoteItem | GroupItem | None:
        """The note or group frame under a scene point, if any."""
        for item in self.scene.items(where):
            owner = item.parentItem() or item
            if isinstance(owner, NoteItem | GroupItem):
                return owner
        return None

    def fill_menu(self, menu: QMenu, where: QPointF) -> bool:
        """Offer what can be done to the note or group under ``where``; False if none is."""
        item = self.item_at(where)
        if isinstance(item, NoteItem):
            menu.addAction("Edit text", item.begin_editing)
            _colour_menu(menu, item.colour, partial(self.recolour_note, item.note_id))
            menu.addAction("Delete note", partial(self._delete_note, item.note_id))
            return True
        if isinstance(item, GroupItem):
            menu.addAction(
                "Expand" if item.collapsed else "Collapse",
                partial(self.toggle_group, item.group_id),
            )
            menu.addAction("Rename…", item.begin_rename)
            _colour_menu(menu, item.colour, partial(self.recolour_group, item.group_id))
            menu.addAction("Ungroup", partial(self.ungroup, item.group_id))
            return True
        return False

    def add_node_entries(self, menu: QMenu, node_id: str) -> None:
        """Grouping entries on a node's menu."""
        menu.addSeparator()
        menu.addAction(self.group_action)
        group = self.document.group_of(node_id)
        if group is not None:
            menu.addAction(f"Ungroup {group.label}", partial(self.ungroup, group.id))

    def _delete_note(self, note_id: str) -> None:
        self.undo_stack.push(RemoveAnnotations(self.document, [note_id], text="Delete note"))


def _shortcut(owner: QWidget, text: str, keys: str, act: Callable[[], object]) -> QAction:
    """An action on the editor, its shortcut live while the canvas has focus."""
    action = QAction(text, owner)
    action.setShortcut(QKeySequence(keys))
    action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    action.triggered.connect(lambda _checked=False: act())
    owner.addAction(action)
    return action


def _colour_menu(menu: QMenu, current: str, choose: partial) -> None:
    colours = menu.addMenu("Colour")
    for colour in ANNOTATION_COLOURS:
        action = colours.addAction(COLOUR_NAMES[colour], partial(choose, colour))
        action.setCheckable(True)
        action.setChecked(colour == current)
