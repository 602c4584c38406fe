"""What the File and Workflow menus do with whole workflows: create, open files, rename,
duplicate, delete, export, save, validate and publish."""

from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

from studio.model import (
    DefinitionError,
    Workflow,
    WorkflowFileError,
    load_workflow,
    write_workflow,
)
from studio.model.layout import laid_out_if_needed
from studio.model.problems import Problem
from studio.model.validation import publish_readiness
from studio.ui.store_calls import StoreCalls
from studio.ui.window.action_table import ActionSpec, Key
from studio.ui.window.answers import after_store, answered, joined, refused, then
from studio.ui.window.recent_files import RecentFiles
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.stored_lists import StoredLists
from studio.ui.window.workflow_panels import WorkflowPanels
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace

T = TypeVar("T")
WORKFLOW_FILE_FILTER = "Workflows (*.yaml *.yml *.json);;All files (*)"


def as_new_draft(workflow: Workflow) -> Workflow:
    """A workflow read from a file as a draft to store, laid out if its nodes would lie on
    top of one another."""
    return laid_out_if_needed(workflow.model_copy(update={"is_blueprint": False}))


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
        self.store = StoreCalls(parent=self)
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

    def new_workflow(self) -> "Future[WorkflowTab | None]":
        """Create an empty draft and open it (stored off the UI thread; the answer is its
        tab)."""
        return self._create_and_open(lambda: Workflow(name="Untitled workflow"))

    def open_workflow_file(
        self, path: str, read: Workflow | None = None
    ) -> "Future[WorkflowTab | None]":
        """Import a workflow file as a new draft and open it; a bad file changes nothing.
        ``read``: what the file holds, when it was read already."""
        try:
            workflow = read if read is not None else load_workflow(path)
        except (WorkflowFileError, DefinitionError) as failure:
            QMessageBox.warning(
                self._parent, "Cannot open workflow", f"{Path(path).name}\n\n{failure}"
            )
            return answered(None)
        opening = self._create_and_open(lambda: as_new_draft(workflow))
        return then(opening, lambda tab: self._remember(path, tab))

    def _remember(self, path: str, tab: WorkflowTab | None) -> WorkflowTab | None:
        if tab is not None:
            self.recent.remember(path)
        return tab

    def import_file(self) -> None:
        """Choose a YAML or JSON file and open it as a new workflow."""
        path, _ = QFileDialog.getOpenFileName(
            self._parent, "Open workflow", "", WORKFLOW_FILE_FILTER
        )
        if path:
            self.open_workflow_file(path)

    # The Workflows dock's intents ---------------------------------------------------------

    def rename_workflow(self, workflow_id: str) -> "Future[None]":
        """Ask for a new name (undoable, in the workflow's tab, opened first if need be)."""
        return then(
            self.tabs.open(workflow_id),
            lambda tab: QTimer.singleShot(0, self, lambda: self._ask_name(tab)),
        )

    def _ask_name(self, tab: WorkflowTab | None) -> None:
        if tab is None:
            return
        name, ok = QInputDialog.getText(
            self._parent, "Rename workflow", "Name:", text=tab.editor.document.properties.name
        )
        if ok and name.strip():
            tab.editor.edit_properties({"name": name.strip()})

    def duplicate_workflow(self, workflow_id: str) -> "Future[WorkflowTab | None]":
        """Store a copy named '<name> (Copy)' and open it."""

        def copy() -> Workflow:
            original = self.workspace.workflows.get(workflow_id)
            return original.model_copy(update={"name": f"{original.name} (Copy)"})

        return self._create_and_open(copy)

    def delete_workflow(self, workflow_id: str) -> "Future[bool]":
        """Delete a draft after confirmation; a published workflow is refused with the reason.
        The answer says whether it was deleted."""
        workflows = self.workspace.workflows
        return joined(
            after_store(
                self.store,
                lambda: workflows.get(workflow_id),
                self._confirm_delete,
                lambda failure: answered(self._not_done("Cannot delete", failure, False)),
                dialog=True,
            )
        )

    def _confirm_delete(self, workflow: Workflow) -> "Future[bool]":
        answer = QMessageBox.question(
            self._parent, "Delete workflow", f"Delete '{workflow.name}' and its run history?"
        )
        if answer != QMessageBox.StandardButton.Yes:
            return answered(False)
        workflow_id = workflow.stored_id
        return after_store(
            self.store,
            lambda: self.workspace.workflows.delete(workflow_id),
            lambda _deleted: self._deleted(workflow_id),
            lambda failure: self._not_done("Cannot delete", failure, False),
        )

    def _deleted(self, workflow_id: str) -> bool:
        self.tabs.forget(workflow_id)
        self.lists.refresh()
        return True

    def _create_and_open(self, workflow: Callable[[], Workflow]) -> "Future[WorkflowTab | None]":
        """Store a new workflow (made on the store thread) and open it."""
        workflows = self.workspace.workflows
        return after_store(
            self.store,
            lambda: workflows.create(workflow()),
            self._open_stored,
            lambda failure: self._not_done("Cannot create workflow", failure, None),
        )

    def _open_stored(self, stored: Workflow) -> WorkflowTab:
        self.lists.refresh()
        return self.tabs.show(stored)

    def _not_done(self, title: str, failure: Exception, answer: T) -> T:
        return refused(self.status, title, failure, answer)

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
        problems, sound = publish_readiness(tab.editor.document.snapshot(), self.workspace.agents)
        self.panels.show_problems(problems, sound)
        errors = sum(p.is_error for p in problems)
        warnings = len(problems) - errors
        self.status.show(f"{errors} error(s), {warnings} warning(s)" if problems else "No problems")
        return problems

    def publish_current(self) -> "Future[bool]":
        """Save, then move DRAFT → PUBLISHED (on the store thread); problems block it and are
        shown. The answer says whether it was published."""
        tab = self.tabs.current()
        if tab is None or not tab.autosaver.save_now():
            return answered(False)
        workspace, workflow_id = self.workspace, tab.workflow_id
        return after_store(
            self.store,
            lambda: workspace.workflows.publish(workflow_id, workspace.agents),
            lambda outcome: self._published(tab, *outcome),
            lambda failure: self._not_done("Cannot publish", failure, False),
        )

    def _published(self, tab: WorkflowTab, published: Workflow, problems: list[Problem]) -> bool:
        self.panels.show_problems(problems)
        if published.status != "PUBLISHED":
            self.status.show("Not published: fix the problems listed below", 8000)
            return False
        if self.tabs.of(published.stored_id) is tab:
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
