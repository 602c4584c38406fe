"""Undo commands for notes and groups; like the others they change the document only through
its methods and remember enough to put everything back exactly."""

from collections.abc import Iterable, Mapping

from studio.model import Position
from studio.model.annotations import Group, Note
from studio.model.document import WorkflowDocument
from studio.ui.canvas.commands import DocumentCommand


class AddNote(DocumentCommand):
    """A new note."""

    def __init__(self, document: WorkflowDocument, note: Note, text: str = "Add note") -> None:
        super().__init__(document, text)
        self.note = note

    def redo(self) -> None:
        self.document.add_note(self.note)

    def undo(self) -> None:
        self.document.remove_note(self.note.id)


class ReplaceNote(DocumentCommand):
    """A note's text, colour or size changed."""

    def __init__(self, document: WorkflowDocument, before: Note, after: Note, text: str) -> None:
        super().__init__(document, text)
        self.before, self.after = before, after

    def redo(self) -> None:
        self.document.replace_note(self.after)

    def undo(self) -> None:
        self.document.replace_note(self.before)


class MoveNotes(DocumentCommand):
    """Notes dragged, alone or with nodes (then inside one macro)."""

    def __init__(
        self,
        document: WorkflowDocument,
        before: Mapping[str, Position],
        after: Mapping[str, Position],
        text: str = "Move notes",
    ) -> None:
        super().__init__(document, text)
        self.before, self.after = dict(before), dict(after)

    def _place(self, positions: dict[str, Position]) -> None:
        for note_id, position in positions.items():
            note = self.document.note(note_id)
            if note is not None:
                self.document.replace_note(note.model_copy(update={"position": position}))

    def redo(self) -> None:
        self._place(self.after)

    def undo(self) -> None:
        self._place(self.before)


class RemoveAnnotations(DocumentCommand):
    """Delete notes and take group frames away (their nodes stay); undo puts them back."""

    def __init__(
        self,
        document: WorkflowDocument,
        note_ids: Iterable[str] = (),
        group_ids: Iterable[str] = (),
        text: str = "Delete",
    ) -> None:
        super().__init__(document, text)
        self.note_ids, self.group_ids = list(note_ids), list(group_ids)
        self._notes: list[tuple[Note, int]] = []
        self._groups: list[tuple[Group, int]] = []

    def redo(self) -> None:
        self._notes = [self.document.remove_note(note_id) for note_id in self.note_ids]
        self._groups = [self.document.remove_group(group_id) for group_id in self.group_ids]

    def undo(self) -> None:
        for group, index in reversed(self._groups):
            self.document.add_group(group, index)
        for note, index in reversed(self._notes):
            self.document.add_note(note, index)


class GroupNodes(DocumentCommand):
    """A new group of nodes, which leave the groups they were in."""

    def __init__(self, document: WorkflowDocument, group: Group) -> None:
        super().__init__(document, f"Group {len(group.node_ids)} node(s)")
        self.group = group
        self._released: list[tuple[Group, int]] = []

    def redo(self) -> None:
        self._released = self.document.release_nodes(self.group.node_ids)
        self.document.add_group(self.group)

    def undo(self) -> None:
        self.document.remove_group(self.group.id)
        self.document.restore_groups(self._released)


class ReplaceGroup(DocumentCommand):
    """A group renamed, recoloured, collapsed or expanded."""

    def __init__(self, document: WorkflowDocument, before: Group, after: Group, text: str) -> None:
        super().__init__(document, text)
        self.before, self.after = before, after

    def redo(self) -> None:
        self.document.replace_group(self.after)

    def undo(self) -> None:
        self.document.replace_group(self.before)
