"""The blueprint catalog from the canvas: browse it, use a blueprint as a new draft, save the
canvas to the catalog, load a blueprint onto the canvas."""

from collections.abc import Callable
from concurrent.futures import Future

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from studio.model import Workflow
from studio.model.problems import Problem
from studio.ui.catalog.catalog_browser import CatalogBrowser
from studio.ui.catalog_dialogs import LoadFromCatalogDialog, SaveToCatalogDialog
from studio.ui.store_calls import StoreCalls
from studio.ui.window.action_table import ActionSpec
from studio.ui.window.answers import after_store, answered, joined, refused, then
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.stored_lists import StoredLists
from studio.ui.window.use_in_app import UseInApp
from studio.ui.window.workflow_panels import WorkflowPanels
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace

FIRST_PUBLISHED_VERSION = 2
"""A blueprint saved to the catalog is stored as a draft (1) and published at once (2)."""


class CatalogActions(QObject):
    """Blueprint commands of the Workflow menu and the Workflows dock."""

    blueprintSaved = Signal(object)  # the published blueprint (new, or a new version)

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
        self.store = StoreCalls(parent=self)
        self.browser: CatalogBrowser | None = None
        self.use_in_app = UseInApp(workspace, tabs, status, lists)
        lists.panel.blueprintRequested.connect(self.use_blueprint_in_app)

    def action_specs(self) -> list[ActionSpec]:
        """Browse, save to and load from the catalog."""
        return [
            ActionSpec("browse_catalog", "&Blueprint Catalog…", "Ctrl+Shift+B", self.browse),
            ActionSpec("save_catalog", "Save to &Catalog…", None, self.save_to_catalog),
            ActionSpec("load_catalog", "Load from Ca&talog…", None, self.load_from_catalog),
        ]

    @property
    def _parent(self) -> QWidget:
        return self.status.dialog_parent()

    def browse(self) -> "Future[int | None]":
        """Bring the catalog browser forward and read the catalog into it again; the answer
        is how many blueprints it shows (None when the catalog could not be read)."""
        if self.browser is None:
            self.browser = CatalogBrowser(self.lists.catalog, self._parent)
            self.browser.setWindowFlag(Qt.WindowType.Window)
            self.browser.resize(self.browser.sizeHint())
            self.browser.useInAppRequested.connect(self.use_in_app.use)
        self.browser.show()
        self.browser.raise_()
        self.browser.activateWindow()
        return self.browser.reload()

    def use_blueprint_in_app(self, slug: str) -> "Future[WorkflowTab | None]":
        """Use a catalog entry (by slug) in an app, through the Use in app dialog."""
        return self.use_in_app.use_found(lambda: self.lists.blueprint_source(slug))

    def use_blueprint(self, slug: str) -> "Future[WorkflowTab | None]":
        """Copy a catalog entry (by slug) into a new draft '<name> (Copy)' in no app, with its
        placeholders as they are, and open it."""
        return self._use(lambda: self.lists.blueprint_source(slug))

    def _use(self, source_of: Callable[[], Workflow | None]) -> "Future[WorkflowTab | None]":
        """Store a copy of the blueprint ``source_of()`` finds (off the UI thread) and open
        it; the blueprint stays unchanged."""
        workflows = self.workspace.workflows

        def use() -> Workflow | None:
            source = source_of()
            if source is None:
                return None
            update = {"name": f"{source.name} (Copy)", "is_blueprint": False}
            return workflows.create(source.model_copy(update=update))

        return after_store(
            self.store,
            use,
            lambda copy: None if copy is None else self._open_stored(copy),
            lambda failure: refused(self.status, "Cannot use blueprint", failure, None),
        )

    def save_to_catalog(self) -> "Future[Workflow | None]":
        """Store the canvas as a published blueprint, after asking for its name and category."""
        tab = self.tabs.current()
        if tab is None:
            return answered(None)
        current = tab.editor.document.snapshot()
        dialog = SaveToCatalogDialog(current.name, current.category, self._parent)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return answered(None)
        return self.store_blueprint(current, *dialog.entered())

    def store_blueprint(
        self, workflow: Workflow, name: str, category: str
    ) -> "Future[Workflow | None]":
        """Create and publish a blueprint from a workflow (on the store thread); problems are
        shown and block it. The answer is the published blueprint, or None."""
        workspace = self.workspace

        def publish() -> tuple[Workflow, list[Problem]]:
            update = {"name": name, "category": category}
            return workspace.workflows.save_blueprint(
                workflow.model_copy(update=update), workspace.agents
            )

        return after_store(
            self.store,
            publish,
            lambda outcome: self._stored_blueprint(*outcome),
            lambda failure: refused(self.status, "Cannot save to the catalog", failure, None),
        )

    def _stored_blueprint(self, published: Workflow, problems: list[Problem]) -> Workflow | None:
        self.panels.show_problems(problems)
        if published.status != "PUBLISHED":
            self.status.show("Not saved to the catalog: fix the problems listed", 8000)
            return None
        self.lists.refresh()
        self.blueprintSaved.emit(published)
        if published.version > FIRST_PUBLISHED_VERSION:
            self.status.show(
                f"Saved '{published.name}' to the catalog as its version {published.version}: "
                "workflows copied from it can review the update"
            )
        else:
            self.status.show(f"Saved '{published.name}' to the blueprint catalog")
        return published

    def load_from_catalog(self) -> "Future[WorkflowTab | None]":
        """Replace the canvas with a blueprint from the catalog (confirmed, undoable); with
        no workflow open, onto a new one. The catalog is read off the UI thread."""
        return joined(
            after_store(
                self.store,
                self.lists.catalog,
                self._choose_blueprint,
                lambda failure: answered(refused(self.status, "Cannot read", failure, None)),
                dialog=True,
            )
        )

    def _choose_blueprint(self, catalog: list[Workflow]) -> "Future[WorkflowTab | None]":
        dialog = LoadFromCatalogDialog(catalog, self._parent)
        chosen = dialog.chosen() if dialog.exec() == QDialog.DialogCode.Accepted else None
        if chosen is None:
            return answered(None)
        tab = self.tabs.current()
        target: Future[WorkflowTab | None] = self._new_tab() if tab is None else answered(tab)
        return then(target, lambda opened: self._load_into(opened, chosen))

    def _load_into(self, tab: WorkflowTab | None, blueprint: Workflow) -> WorkflowTab | None:
        if tab is not None:
            self.load_blueprint_into(tab, blueprint)
        return tab

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

    def _new_tab(self) -> "Future[WorkflowTab | None]":
        workflows = self.workspace.workflows
        return after_store(
            self.store,
            lambda: workflows.create(Workflow(name="Untitled workflow")),
            self._open_stored,
            lambda failure: refused(self.status, "Cannot create workflow", failure, None),
        )

    def _open_stored(self, stored: Workflow) -> WorkflowTab:
        self.lists.refresh()
        return self.tabs.show(stored)
