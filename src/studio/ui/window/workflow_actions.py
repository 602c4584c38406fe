"""What the File and Workflow menus do with whole workflows: create, open files, rename,
duplicate, delete, export, save, validate and publish."""

from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

from studio.model import (
    DefinitionError,
    Workflow,
    WorkflowFileError,
    load_workflow,
    validate_definition,
    write_workflow,
)
from studio.model.errors import StudioError
from studio.model.problems import Problem
from studio.ui.window.action_table import ActionSpec, Key
from studio.ui.window.recent_files import RecentFiles
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.stored_lists import StoredLists
from studio.ui.window.workflow_panels import WorkflowPanels
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace

WORKFLOW_FILE_FILTER = "Workflows (*.yaml *.yml *.json);;All files (*)"


class WorkflowActions(QObject):
    """Workflow-level commands; the Workflows dock's intents land here too."""

    def __init__(
        self,
        workspace: Workspace,
        tabs: WorkflowTabs,
        status: StatusSink,
        lists: StoredLists,
        panels: WorkflowPanels,
        recent: RecentFiles,
    ) -> None:
        super().__init__(tabs)
        self.workspace, self.tabs, self.status = workspace, tabs, status
        self.lists, self.panels, self.recent = lists, panels, recent
        panel = lists.panel
        panel.openRequested.connect(tabs.open)
        panel.newRequested.connect(self.new_workflow)
        panel.renameRequested.connect(self.rename_workflow)
        panel.duplicateRequested.connect(self.duplicate_workflow)
        panel.deleteRequested.connect(self.delete_workflow)
        recent.openRequested.connect(self.open_workflow_file)

    def action_specs(self) -> list[ActionSpec]:
        """The File and Workflow menus' commands on whole workflows."""
        spec = ActionSpec
        return [
            spec("new", "&New Workflow", Key.New, self.new_workflow),
            spec("open", "&Open / Import…", Key.Open, self.import_file),
            spec("save", "&Save", Key.Save, self.save_current),
            spec("export", "&Export…", "Ctrl+E", self.export_file),
            spec("close", "&Close Tab", Key.Close, self.tabs.close_current),
            spec("validate", "&Validate", "F7", self.validate_current),
            spec("publish", "&Publish", "Ctrl+Shift+P", self.publish_current),
            spec("clear", "C&lear Canvas", None, self.clear_current),
        ]

    @property
    def _parent(self) -> QWidget:
        return self.status.dialog_parent()

    # Creating and opening -----------------------------------------------------------------

    def new_workflow(self) -> WorkflowTab | None:
        """Create an empty draft and open it."""
        stored = self.workspace.workflows.create(Workflow(name="Untitled workflow"))
        self.lists.refresh()
        return self.tabs.open(stored.stored_id)

    def open_workflow_file(self, path: str) -> WorkflowTab | None:
        """Import a workflow file as a new draft and open it; a bad file changes nothing."""
        try:
            workflow = load_workflow(path)
        except (WorkflowFileError, DefinitionError) as failure:
            QMessageBox.warning(
                self._parent, "Cannot open workflow", f"{Path(path).name}\n\n{failure}"
            )
            return None
        stored = self.workspace.workflows.create(
            workflow.model_copy(update={"is_blueprint": False})
        )
        self.recent.remember(path)
        self.lists.refresh()
        return self.tabs.open(stored.stored_id)

    def import_file(self) -> None:
        """Choose a YAML or JSON file and open it as a new workflow."""
        path, _ = QFileDialog.getOpenFileName(
            self._parent, "Open workflow", "", WORKFLOW_FILE_FILTER
        )
        if path:
            self.open_workflow_file(path)

    # The Workflows dock's intents ---------------------------------------------------------

    def rename_workflow(self, workflow_id: str) -> None:
        """Ask for a new name (undoable, in the workflow's tab)."""
        tab = self.tabs.open(workflow_id)
        if tab is None:
            return
        name, ok = QInputDialog.getText(
            self._parent, "Rename workflow", "Name:", text=tab.editor.document.properties.name
        )
        if ok and name.strip():
            tab.editor.edit_properties({"name": name.strip()})

    def duplicate_workflow(self, workflow_id: str) -> None:
        """Store a copy named '<name> (Copy)' and open it."""
        original = self.workspace.workflows.get(workflow_id)
        copy = self.workspace.workflows.create(
            original.model_copy(update={"name": f"{original.name} (Copy)"})
        )
        self.lists.refresh()
        self.tabs.open(copy.stored_id)

    def delete_workflow(self, workflow_id: str) -> None:
        """Delete a draft after confirmation; a published workflow is refused with the reason."""
        workflow = self.workspace.workflows.get(workflow_id)
        answer = QMessageBox.question(
            self._parent, "Delete workflow", f"Delete '{workflow.name}' and its run history?"
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            self.workspace.workflows.delete(workflow_id)
        except StudioError as failure:
            QMessageBox.warning(self._parent, "Cannot delete", str(failure))
            return
        self.tabs.forget(workflow_id)
        self.lists.refresh()

    # The workflow in front ----------------------------------------------------------------

    def export_file(self) -> None:
        """Write the current workflow as formatted YAML or JSON (by the chosen extension)."""
        tab = self.tabs.current()
        if tab is None:
            return
        name = tab.editor.document.properties.name
        path, _ = QFileDialog.getSaveFileName(
            self._parent, "Export workflow", f"{name}.yaml", WORKFLOW_FILE_FILTER
        )
        if path:
            try:
                write_workflow(tab.editor.document.snapshot(), path)
            except (OSError, WorkflowFileError) as failure:
                QMessageBox.warning(self._parent, "Cannot export", str(failure))
                return
            self.status.show(f"Exported to {path}")

    def save_current(self) -> None:
        """Save now instead of waiting for autosave."""
        tab = self.tabs.current()
        if tab is not None and tab.autosaver.save_now():
            self.status.show("Saved", 3000)

    def validate_current(self) -> list[Problem]:
        """Check the workflow for publishing; the problems panel lists what is wrong."""
        tab = self.tabs.current()
        if tab is None:
            return []
        data = tab.editor.document.snapshot().model_dump(mode="json", by_alias=True)
        problems = validate_definition(data, publish=True, known_agents=self.workspace.agents)
        self.panels.show_problems(problems)
        errors = sum(p.is_error for p in problems)
        warnings = len(problems) - errors
        self.status.show(f"{errors} error(s), {warnings} warning(s)" if problems else "No problems")
        return problems

    def publish_current(self) -> bool:
        """Save, then move DRAFT → PUBLISHED; problems block it and are shown."""
        tab = self.tabs.current()
        if tab is None or not tab.autosaver.save_now():
            return False
        published, problems = self.workspace.workflows.publish(
            tab.workflow_id, self.workspace.agents
        )
        self.panels.show_problems(problems)
        if published.status != "PUBLISHED":
            self.status.show("Not published: fix the problems listed below", 8000)
            return False
        tab.autosaver.stored_elsewhere(published)
        self.lists.refresh()
        self.status.show(f"Published '{published.name}' as version {published.version}")
        return True

    def clear_current(self) -> None:
        """Remove every node and edge after confirmation (undoable)."""
        tab = self.tabs.current()
        if tab is None or not tab.editor.document.nodes:
            return
        answer = QMessageBox.question(
            self._parent, "Clear canvas", "Remove every node and edge? (Undo brings them back.)"
        )
        if answer == QMessageBox.StandardButton.Yes:
            tab.editor.clear()
