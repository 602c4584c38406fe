"""Use in app: the catalog's import flow. The apps and the workflow names are read off the UI
thread, the dialog asks where the copy goes and which agents fill its placeholders, and the
import (with a new app, when one is named) runs on the store thread; the copy opens on the
canvas. A refused import changes nothing: a new app made for it is deleted again."""

from collections.abc import Callable
from concurrent.futures import Future

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog

from studio.model import Workflow
from studio.model.apps import App
from studio.ui.catalog.use_in_app_dialog import UseInAppChoice, UseInAppDialog
from studio.ui.store_calls import StoreCalls
from studio.ui.window.answers import after_store, answered, joined, refused
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.stored_lists import StoredLists
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace


class UseInApp(QObject):
    """Imports a blueprint into an app, as a person asks in the Use in app dialog."""

    def __init__(
        self, workspace: Workspace, tabs: WorkflowTabs, status: StatusSink, lists: StoredLists
    ) -> None:
        super().__init__(tabs)
        self.workspace, self.tabs, self.status, self.lists = workspace, tabs, status, lists
        self.store = StoreCalls(parent=self)

    def use(self, blueprint: Workflow) -> "Future[WorkflowTab | None]":
        """Ask, import and open; the answer is the copy's tab, or None when cancelled or
        refused (the refusal is shown)."""
        return self.use_found(lambda: blueprint)

    def use_found(self, find: Callable[[], Workflow | None]) -> "Future[WorkflowTab | None]":
        """``use`` for the blueprint ``find()`` reads on the store thread (None: nothing)."""
        workspace = self.workspace

        def read() -> tuple[Workflow | None, list[App], set[str]]:
            names = {workflow.name for workflow in workspace.workflows.find(blueprints=False)}
            return find(), workspace.apps.find(), names

        return joined(
            after_store(
                self.store,
                read,
                lambda found: self._ask(*found),
                lambda failure: answered(refused(self.status, "Cannot read", failure, None)),
                dialog=True,
            )
        )

    def _ask(
        self, blueprint: Workflow | None, apps: list[App], names: set[str]
    ) -> "Future[WorkflowTab | None]":
        if blueprint is None:
            return answered(None)
        agents = list(self.workspace.agents)
        dialog = UseInAppDialog(blueprint, apps, agents, names, self.status.dialog_parent())
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return answered(None)
        choice = dialog.choice()
        return after_store(
            self.store,
            lambda: self._import(blueprint, choice),
            self._opened,
            lambda failure: refused(self.status, "Cannot use the blueprint", failure, None),
        )

    def _import(self, blueprint: Workflow, choice: UseInAppChoice) -> Workflow:
        apps = self.workspace.apps
        created = apps.create(choice.new_app) if choice.app_id is None and choice.new_app else None
        app_id = created.id if created is not None else choice.app_id
        try:
            return apps.import_blueprint(
                blueprint,
                str(app_id),
                choice.mapping,
                name=choice.name,
                keep_placeholders=choice.keep_placeholders,
            )
        except Exception:
            if created is not None:
                apps.delete(created.id, created.version)
            raise

    def _opened(self, copy: Workflow) -> WorkflowTab:
        self.lists.refresh()
        window = self.status.dialog_parent().window()
        window.raise_()
        window.activateWindow()  # from the catalog's window, back to the canvas
        self.status.show(f"'{copy.name}' is in its app, as a draft")
        return self.tabs.show(copy)
