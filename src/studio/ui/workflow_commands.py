"""What the main window does with workflows: create, open files, rename, duplicate, delete,
use a blueprint, export, validate, publish, clear and find. A part of MainWindow."""

from pathlib import Path

from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QMessageBox

from studio.model import (
    Blueprint,
    DefinitionError,
    Workflow,
    WorkflowFileError,
    load_workflow,
    validate_definition,
    write_workflow,
)
from studio.model.errors import StudioError
from studio.ui.catalog_dialogs import LoadFromCatalogDialog, SaveToCatalogDialog
from studio.ui.workflow_tab import WorkflowTab

WORKFLOW_FILE_FILTER = "Workflows (*.yaml *.yml *.json);;All files (*)"
STORED_PREFIX = "stored:"
"""Catalog entries saved from the canvas are named by their workflow id, after this."""


class WorkflowCommands:
    """Workflow-level commands of the main window (which provides the attributes used here)."""

    def refresh_lists(self) -> None:
        """Reload the workflows and blueprints docks."""
        self.workflow_list.show_workflows(self.workspace.workflows.find(blueprints=False))
        saved = [
            Blueprint(f"{STORED_PREFIX}{w.id}", Path(), w)
            for w in self.workspace.workflows.find(status="PUBLISHED", blueprints=True)
        ]
        self.workflow_list.show_blueprints(
            sorted([*self.workspace.blueprints, *saved], key=lambda b: b.workflow.name.lower())
        )

    def new_workflow(self) -> WorkflowTab | None:
        """Create an empty draft and open it."""
        stored = self.workspace.workflows.create(Workflow(name="Untitled workflow"))
        self.refresh_lists()
        return self.open_workflow(stored.id)

    def rename_workflow(self, workflow_id: str) -> None:
        """Ask for a new name (undoable when the workflow is open)."""
        tab = self.open_workflow(workflow_id)
        if tab is None:
            return
        name, ok = QInputDialog.getText(
            self, "Rename workflow", "Name:", text=tab.editor.document.properties.name
        )
        if ok and name.strip():
            tab.editor.edit_properties({"name": name.strip()})

    def duplicate_workflow(self, workflow_id: str) -> None:
        """Store a copy named '<name> (Copy)' and open it."""
        original = self.workspace.workflows.get(workflow_id)
        copy = self.workspace.workflows.create(
            original.model_copy(update={"name": f"{original.name} (Copy)"})
        )
        self.refresh_lists()
        self.open_workflow(copy.id)

    def delete_workflow(self, workflow_id: str) -> None:
        """Delete a draft after confirmation; a published workflow is refused with the reason."""
        workflow = self.workspace.workflows.get(workflow_id)
        answer = QMessageBox.question(
            self, "Delete workflow", f"Delete '{workflow.name}' and its run history?"
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            self.workspace.workflows.delete(workflow_id)
        except StudioError as failure:
            QMessageBox.warning(self, "Cannot delete", str(failure))
            return
        for index in reversed(range(self.tabs.count())):
            tab = self.tabs.widget(index)
            if isinstance(tab, WorkflowTab) and tab.workflow_id == workflow_id:
                tab.autosaver.state = tab.autosaver.state.SAVED
                self.close_tab(index)
        self.refresh_lists()

    def use_blueprint(self, slug: str) -> WorkflowTab | None:
        """Import a blueprint as a new draft '<name> (Copy)'; the blueprint stays unchanged."""
        if slug.startswith(STORED_PREFIX):
            source = self.workspace.workflows.get(slug.removeprefix(STORED_PREFIX))
        else:
            blueprint = next((b for b in self.workspace.blueprints if b.slug == slug), None)
            if blueprint is None:
                return None
            source = blueprint.workflow
        copy = self.workspace.workflows.create(
            source.model_copy(update={"name": f"{source.name} (Copy)", "is_blueprint": False})
        )
        self.refresh_lists()
        return self.open_workflow(copy.id)

    def open_workflow_file(self, path: str) -> WorkflowTab | None:
        """Import a workflow file as a new draft and open it; a bad file changes nothing."""
        try:
            workflow = load_workflow(path)
        except (WorkflowFileError, DefinitionError) as failure:
            QMessageBox.warning(self, "Cannot open workflow", f"{Path(path).name}\n\n{failure}")
            return None
        stored = self.workspace.workflows.create(
            workflow.model_copy(update={"is_blueprint": False})
        )
        self.remember_file(path)
        self.refresh_lists()
        return self.open_workflow(stored.id)

    def import_file(self) -> None:
        """Choose a YAML or JSON file and open it as a new workflow."""
        path, _ = QFileDialog.getOpenFileName(self, "Open workflow", "", WORKFLOW_FILE_FILTER)
        if path:
            self.open_workflow_file(path)

    def export_file(self) -> None:
        """Write the current workflow as formatted YAML or JSON (by the chosen extension)."""
        tab = self.current_tab()
        if tab is None:
            return
        name = tab.editor.document.properties.name
        path, _ = QFileDialog.getSaveFileName(
            self, "Export workflow", f"{name}.yaml", WORKFLOW_FILE_FILTER
        )
        if path:
            try:
                write_workflow(tab.editor.document.snapshot(), path)
            except (OSError, WorkflowFileError) as failure:
                QMessageBox.warning(self, "Cannot export", str(failure))
                return
            self.statusBar().showMessage(f"Exported to {path}", 6000)

    def save_current(self) -> None:
        """Save now instead of waiting for autosave."""
        tab = self.current_tab()
        if tab is not None and tab.autosaver.save_now():
            self.statusBar().showMessage("Saved", 3000)

    def validate_current(self) -> list:
        """Check the workflow for publishing; the problems panel lists what is wrong."""
        tab = self.current_tab()
        if tab is None:
            return []
        data = tab.editor.document.snapshot().model_dump(mode="json", by_alias=True)
        problems = validate_definition(data, publish=True, known_agents=self.workspace.agents)
        self.problems.show_problems(problems)
        errors = sum(p.is_error for p in problems)
        self.statusBar().showMessage(
            f"{errors} error(s), {len(problems) - errors} warning(s)"
            if problems
            else "No problems",
            6000,
        )
        return problems

    def publish_current(self) -> bool:
        """Save, then move DRAFT → PUBLISHED; problems block it and are shown."""
        tab = self.current_tab()
        if tab is None or not tab.autosaver.save_now():
            return False
        published, problems = self.workspace.workflows.publish(
            tab.workflow_id, self.workspace.agents
        )
        self.problems.show_problems(problems)
        if published.status != "PUBLISHED":
            self.statusBar().showMessage("Not published: fix the problems listed below", 8000)
            return False
        tab.autosaver.version = published.version
        self.refresh_lists()
        self.statusBar().showMessage(
            f"Published '{published.name}' as version {published.version}", 6000
        )
        return True

    def clear_current(self) -> None:
        """Remove every node and edge after confirmation (undoable)."""
        tab = self.current_tab()
        if tab is None or not tab.editor.document.nodes:
            return
        answer = QMessageBox.question(
            self, "Clear canvas", "Remove every node and edge? (Undo brings them back.)"
        )
        if answer == QMessageBox.StandardButton.Yes:
            tab.editor.clear()

    def find_node(self) -> None:
        """Ask for text and centre the first node whose name or agent contains it."""
        tab = self.current_tab()
        if tab is None:
            return
        text, ok = QInputDialog.getText(self, "Find node", "Name or agent:")
        if ok:
            tab.editor.find(text)

    def add_node_from_palette(self) -> None:
        """Open the node palette in the middle of the canvas."""
        self._with_editor(
            lambda e: e.open_palette(e.view.mapToScene(e.view.viewport().rect().center()))
        )

    def catalog(self) -> list[Workflow]:
        """Every blueprint: the seed ones and those saved to the catalog, by name."""
        seeds = [blueprint.workflow for blueprint in self.workspace.blueprints]
        saved = self.workspace.workflows.find(status="PUBLISHED", blueprints=True)
        return sorted([*seeds, *saved], key=lambda workflow: workflow.name.lower())

    def save_to_catalog(self) -> Workflow | None:
        """Store the canvas as a published blueprint, after asking for its name and category."""
        tab = self.current_tab()
        if tab is None:
            return None
        current = tab.editor.document.snapshot()
        dialog = SaveToCatalogDialog(current.name, current.category, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return self.store_blueprint(
            current, dialog.name_edit.text().strip(), dialog.category_edit.text().strip()
        )

    def store_blueprint(self, workflow: Workflow, name: str, category: str) -> Workflow | None:
        """Create and publish a blueprint from a workflow; problems are shown and block it."""
        draft = self.workspace.workflows.create(
            workflow.model_copy(update={"name": name, "category": category, "is_blueprint": True})
        )
        published, problems = self.workspace.workflows.publish(draft.id, self.workspace.agents)
        self.problems.show_problems(problems)
        if published.status != "PUBLISHED":
            self.workspace.workflows.delete(draft.id)
            self.statusBar().showMessage("Not saved to the catalog: fix the problems listed", 8000)
            return None
        self.refresh_lists()
        self.statusBar().showMessage(f"Saved '{name}' to the blueprint catalog", 6000)
        return published

    def load_from_catalog(self) -> None:
        """Replace the canvas with a blueprint from the catalog (confirmed, undoable)."""
        tab = self.current_tab() or self.new_workflow()
        dialog = LoadFromCatalogDialog(self.catalog(), self)
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.chosen() is None:
            return
        self.load_blueprint_into(tab, dialog.chosen())

    def load_blueprint_into(self, tab: WorkflowTab, blueprint: Workflow) -> None:
        """Put a blueprint's nodes on a canvas, asking first when that replaces work."""
        if tab.editor.document.nodes:
            answer = QMessageBox.question(
                self,
                "Load blueprint",
                f"Replace the canvas with '{blueprint.name}'? (Undo brings it back.)",
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        kept = tab.editor.document.properties
        loaded = blueprint.model_copy(update={"name": kept.name, "is_blueprint": False})
        tab.editor.replace_workflow(loaded, f"Load {blueprint.name}")
