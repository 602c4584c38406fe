"""The blueprint catalog from the canvas: use a blueprint as a new draft, save the canvas to
the catalog, load a blueprint onto the canvas."""

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from studio.model import Workflow
from studio.ui.catalog_dialogs import LoadFromCatalogDialog, SaveToCatalogDialog
from studio.ui.window.action_table import ActionSpec
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.stored_lists import StoredLists
from studio.ui.window.workflow_panels import WorkflowPanels
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace


class CatalogActions(QObject):
    """Blueprint commands of the Workflow menu and the Workflows dock."""

    def __init__(
        self,
        workspace: Workspace,
        tabs: WorkflowTabs,
        status: StatusSink,
        lists: StoredLists,
        panels: WorkflowPanels,
    ) -> None:
        super().__init__(tabs)
        self.workspace, self.tabs, self.status = workspace, tabs, status
        self.lists, self.panels = lists, panels
        lists.panel.blueprintRequested.connect(self.use_blueprint)

    def action_specs(self) -> list[ActionSpec]:
        """Save to and load from the catalog."""
        return [
            ActionSpec("save_catalog", "Save to &Catalog…", None, self.save_to_catalog),
            ActionSpec("load_catalog", "Load from Ca&talog…", None, self.load_from_catalog),
        ]

    @property
    def _parent(self) -> QWidget:
        return self.status.dialog_parent()

    def use_blueprint(self, slug: str) -> WorkflowTab | None:
        """Import a blueprint as a new draft '<name> (Copy)'; the blueprint stays unchanged."""
        source = self.lists.blueprint_source(slug)
        if source is None:
            return None
        copy = self.workspace.workflows.create(
            source.model_copy(update={"name": f"{source.name} (Copy)", "is_blueprint": False})
        )
        self.lists.refresh()
        return self.tabs.open(copy.stored_id)

    def save_to_catalog(self) -> Workflow | None:
        """Store the canvas as a published blueprint, after asking for its name and category."""
        tab = self.tabs.current()
        if tab is None:
            return None
        current = tab.editor.document.snapshot()
        dialog = SaveToCatalogDialog(current.name, current.category, self._parent)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return self.store_blueprint(current, *dialog.entered())

    def store_blueprint(self, workflow: Workflow, name: str, category: str) -> Workflow | None:
        """Create and publish a blueprint from a workflow; problems are shown and block it."""
        draft = self.workspace.workflows.create(
            workflow.model_copy(update={"name": name, "category": category, "is_blueprint": True})
        )
        published, problems = self.workspace.workflows.publish(
            draft.stored_id, self.workspace.agents
        )
        self.panels.show_problems(problems)
        if published.status != "PUBLISHED":
            self.workspace.workflows.delete(draft.stored_id)
            self.status.show("Not saved to the catalog: fix the problems listed", 8000)
            return None
        self.lists.refresh()
        self.status.show(f"Saved '{name}' to the blueprint catalog")
        return published

    def load_from_catalog(self) -> None:
        """Replace the canvas with a blueprint from the catalog (confirmed, undoable)."""
        tab = self.tabs.current() or self._new_tab()
        if tab is None:
            return
        dialog = LoadFromCatalogDialog(self.lists.catalog(), self._parent)
        chosen = dialog.chosen() if dialog.exec() == QDialog.DialogCode.Accepted else None
        if chosen is not None:
            self.load_blueprint_into(tab, chosen)

    def load_blueprint_into(self, tab: WorkflowTab, blueprint: Workflow) -> None:
        """Put a blueprint's nodes on a canvas, asking first when that replaces work."""
        if tab.editor.document.nodes:
            answer = QMessageBox.question(
                self._parent,
                "Load blueprint",
                f"Replace the canvas with '{blueprint.name}'? (Undo brings it back.)",
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        kept = tab.editor.document.properties
        loaded = blueprint.model_copy(update={"name": kept.name, "is_blueprint": False})
        tab.editor.replace_workflow(loaded, f"Load {blueprint.name}")

    def _new_tab(self) -> WorkflowTab | None:
        stored = self.workspace.workflows.create(Workflow(name="Untitled workflow"))
        self.lists.refresh()
        return self.tabs.open(stored.stored_id)
