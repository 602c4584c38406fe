"""Linked blueprints: a workflow imported from a blueprint remembers the version it came from.
When the blueprint has a newer version, the status bar says so beside the workflow in front;
Review update shows what the new version changes beside the local edits, and applying it
merges them into the canvas as one undoable step."""

from concurrent.futures import Future

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QDialog, QToolButton, QWidget

from studio.model import Workflow
from studio.ui.catalog.update_review import UpdateReviewDialog
from studio.ui.icons import icon
from studio.ui.store_calls import StoreCalls
from studio.ui.window.action_table import ActionSpec
from studio.ui.window.answers import after_store, answered, joined, refused
from studio.ui.window.status_sink import StatusSink
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace

Versions = tuple[Workflow, Workflow]
"""The blueprint version a workflow came from, and the blueprint's latest."""


class BlueprintUpdates(QObject):
    """Watches the workflow in front for a newer version of its blueprint, and takes it in."""

    def __init__(
        self, workspace: Workspace, tabs: WorkflowTabs, status: StatusSink, parent: QWidget
    ) -> None:
        super().__init__(tabs)
        self.workspace, self.tabs, self.status = workspace, tabs, status
        self.store = StoreCalls(parent=self)
        self.badge = QToolButton(parent)
        self.badge.setObjectName("blueprintUpdate")
        self.badge.setAutoRaise(True)
        self.badge.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.badge.hide()
        self.badge.clicked.connect(self.review)
        self.latest: dict[str, int] = {}
        """The latest version of each blueprint, by id, as last read."""
        tabs.currentChanged.connect(lambda _tab: self.check())
        tabs.opened.connect(self._watch)

    def action_specs(self) -> list[ActionSpec]:
        """Review the update of the workflow in front."""
        return [ActionSpec("review_update", "Review Blueprint &Update…", None, self.review)]

    def check(self) -> "Future[int | None]":
        """Read the latest version of the front workflow's blueprint (off the UI thread) and
        show or hide the badge; the answer is that version (None: not from a blueprint)."""
        tab = self.tabs.current()
        link = _link(tab)
        if link is None:
            self._show_badge(None)
            return answered(None)
        blueprint_id, _version = link
        workspace = self.workspace
        return after_store(
            self.store,
            lambda: workspace.latest_blueprint(blueprint_id),
            lambda latest: self._got_latest(blueprint_id, latest),
            lambda _failure: self._got_latest(blueprint_id, None),
        )

    def review(self) -> "Future[bool]":
        """Show what the blueprint's newer version changes beside the local edits; applying
        it replaces the canvas with the merge, as one undoable step. Answers whether it did."""
        tab = self.tabs.current()
        link = _link(tab)
        if tab is None or link is None:
            self.status.show("The workflow in front was not made from a blueprint")
            return answered(False)
        workspace = self.workspace
        return joined(
            after_store(
                self.store,
                lambda: workspace.blueprint_versions(*link),
                lambda versions: answered(self._ask(tab, versions)),
                lambda failure: answered(refused(self.status, "Cannot read", failure, False)),
                dialog=True,
            )
        )

    def _ask(self, tab: WorkflowTab, versions: Versions) -> bool:
        base, theirs = versions
        if theirs.version <= base.version:
            self.status.show(f"'{tab.editor.document.properties.name}' has its blueprint's latest")
            return False
        ours = tab.editor.document.snapshot()
        dialog = UpdateReviewDialog(base, theirs, ours, self.status.dialog_parent())
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.merged() is None:
            return False
        merged = dialog.merged()
        assert merged is not None
        text = f"Take version {theirs.version} of {theirs.name}"
        tab.editor.replace_workflow(merged, text, blueprint_version=theirs.version)
        self.status.show(f"{text}: Undo (Ctrl+Z) puts the workflow back as it was")
        return True

    def _got_latest(self, blueprint_id: str, latest: Workflow | None) -> int | None:
        if latest is None:
            self.latest.pop(blueprint_id, None)
        else:
            self.latest[blueprint_id] = latest.version
        self._show_badge(self.tabs.current())
        return None if latest is None else latest.version

    def _show_badge(self, tab: WorkflowTab | None) -> None:
        link = _link(tab)
        newer = None if link is None else self.latest.get(link[0])
        if link is None or newer is None or newer <= link[1]:
            self.badge.hide()
            return
        self.badge.setIcon(icon("review_update"))
        self.badge.setText(f"Blueprint update: version {newer}")
        self.badge.setToolTip("Its blueprint has a newer version: review what it changes")
        self.badge.show()

    def _watch(self, tab: WorkflowTab) -> None:
        """An undo or redo can move the version the workflow has taken in."""
        tab.editor.document.subscribe(
            lambda event: self._show_badge(tab) if event.kind == "reset" else None
        )


def _link(tab: WorkflowTab | None) -> tuple[str, int] | None:
    """The blueprint id and version a tab's workflow came from, if it came from one."""
    if tab is None:
        return None
    properties = tab.editor.document.properties
    if properties.blueprint_id is None or properties.blueprint_version is None:
        return None
    return properties.blueprint_id, properties.blueprint_version
