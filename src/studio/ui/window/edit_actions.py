"""The Edit and View menus' commands on the canvas in front: undo and redo, the clipboard,
selection, find, adding a node, zoom, fit, auto-layout and snapping to the grid."""

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QInputDialog

from studio.ui.canvas.editor import WorkflowEditor
from studio.ui.window.action_table import ActionSpec, Key
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace


class EditActions(QObject):
    """Canvas commands; each acts on the editor of the tab in front."""

    def __init__(self, workspace: Workspace, tabs: WorkflowTabs, status: StatusSink) -> None:
        super().__init__(tabs)
        self.workspace, self.tabs, self.status = workspace, tabs, status
        self.snap_to_grid = False
        tabs.opened.connect(self._opened)

    def action_specs(self) -> list[ActionSpec]:
        """The Edit menu, the canvas part of the View menu, Add Node and Auto-Layout."""
        spec, on = ActionSpec, self._on_editor
        return [
            spec("undo", "&Undo", Key.Undo, on(lambda e: e.undo_stack.undo())),
            spec("redo", "&Redo", Key.Redo, on(lambda e: e.undo_stack.redo())),
            spec("cut", "Cu&t", Key.Cut, on(WorkflowEditor.cut_selection)),
            spec("copy", "&Copy", Key.Copy, on(WorkflowEditor.copy_selection)),
            spec("paste", "&Paste", Key.Paste, on(WorkflowEditor.paste)),
            spec("duplicate", "D&uplicate", "Ctrl+D", on(WorkflowEditor.duplicate_selection)),
            spec("delete", "&Delete", Key.Delete, on(WorkflowEditor.delete_selection)),
            spec("select_all", "Select &All", Key.SelectAll, on(WorkflowEditor.select_all)),
            spec("find", "&Find Node…", Key.Find, self.find_node),
            spec("add_node", "Add &Node…", "Tab", on(_open_palette_in_middle)),
            spec("zoom_in", "Zoom &In", Key.ZoomIn, on(lambda e: e.view.zoom_by(1.25))),
            spec("zoom_out", "Zoom &Out", Key.ZoomOut, on(lambda e: e.view.zoom_by(0.8))),
            spec("fit", "&Fit to View", "Ctrl+0", on(lambda e: e.view.fit_all())),
            spec("layout", "Auto-&Layout", "Ctrl+L", on(WorkflowEditor.auto_layout)),
            # The canvas owns these keys (Ctrl+Shift+N, Ctrl+Shift+G): the menu only names them.
            spec(
                "add_note",
                "Add No&te",
                None,
                on(lambda e: e.annotations.add_note()),
                "Add a sticky note (Ctrl+Shift+N)",
            ),
            spec(
                "group",
                "&Group Selection",
                None,
                on(lambda e: e.annotations.group_selection()),
                "Group the selected nodes in a named frame (Ctrl+Shift+G)",
            ),
            spec("snap", "Snap to &Grid", "Ctrl+G", self.set_snap_to_grid, checkable=True),
        ]

    def find_node(self) -> None:
        """Ask for text and centre the first node whose name or agent contains it."""
        tab = self.tabs.current()
        if tab is None:
            return
        text, ok = QInputDialog.getText(self.status.dialog_parent(), "Find node", "Name or agent:")
        if ok:
            tab.editor.find_node(text)

    def set_snap_to_grid(self, on: bool) -> None:
        """Snap dragged nodes to the grid on every canvas, open now or later."""
        self.snap_to_grid = on
        for tab in self.tabs:
            tab.editor.view.snap_to_grid = on

    def _opened(self, tab: WorkflowTab) -> None:
        tab.editor.view.snap_to_grid = self.snap_to_grid

    def _on_editor(self, action: Callable[[WorkflowEditor], object]) -> Callable[[], None]:
        return lambda: self.tabs.with_editor(action)


def _open_palette_in_middle(editor: WorkflowEditor) -> None:
    view = editor.view
    editor.open_palette(view.mapToScene(view.viewport().rect().center()))
