"""The open workflows: one tab each, a welcome page when there are none.

Opening, closing, finding and iterating tabs happen here and nowhere else; the controllers
ask this object instead of walking the tab widget themselves."""

from collections.abc import Callable, Iterator
from concurrent.futures import Future

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox, QStackedWidget, QTabBar, QTabWidget, QWidget

from studio.model import Workflow
from studio.model.errors import StudioError
from studio.ui.canvas.editor import WorkflowEditor
from studio.ui.store_calls import StoreCalls
from studio.ui.window.answers import after_store, answered
from studio.ui.window.welcome_page import WelcomePage
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace


class WorkflowTabs(QObject):
    """The tab widget of open workflows and the page shown when none is open."""

    currentChanged = Signal(object)  # the WorkflowTab in front, or None
    opened = Signal(object)  # a WorkflowTab just opened
    storedChanged = Signal()  # a tab saved or stored a copy: lists of workflows are stale
    broughtForward = Signal()  # a workflow was opened or brought to the front

    def __init__(self, workspace: Workspace, parent: QWidget) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.parent_widget = parent
        self.store = StoreCalls(parent=self)
        self.tab_widget = QTabWidget(parent)
        self.tab_widget.setDocumentMode(True)
        self.tab_widget.setTabsClosable(True)
        self.tab_widget.setMovable(True)
        self.tab_widget.tabCloseRequested.connect(self.close)
        self.tab_widget.currentChanged.connect(lambda _i: self.currentChanged.emit(self.current()))
        self.welcome = WelcomePage(parent)
        self.widget = QStackedWidget(parent)
        self.widget.addWidget(self.welcome)
        self.widget.addWidget(self.tab_widget)

    # Finding ------------------------------------------------------------------------------

    def current(self) -> WorkflowTab | None:
        """The workflow in front, if any."""
        widget = self.tab_widget.currentWidget()
        return widget if isinstance(widget, WorkflowTab) else None

    def __iter__(self) -> Iterator[WorkflowTab]:
        tabs = (self.tab_widget.widget(index) for index in range(self.tab_widget.count()))
        return iter([tab for tab in tabs if isinstance(tab, WorkflowTab)])

    def __len__(self) -> int:
        return self.tab_widget.count()

    def of(self, workflow_id: str) -> WorkflowTab | None:
        """The open tab of a workflow."""
        return next((tab for tab in self if tab.workflow_id == workflow_id), None)

    def with_editor(self, action: Callable[[WorkflowEditor], object]) -> None:
        """Do something with the editor in front, if there is one."""
        tab = self.current()
        if tab is not None:
            action(tab.editor)

    # Opening and closing ------------------------------------------------------------------

    def open(self, workflow_id: str) -> "Future[WorkflowTab | None]":
        """Show a stored workflow in its tab, opening one if needed (read off the UI thread);
        the answer is the tab, or None when the workflow could not be read (the person is
        told why)."""
        tab = self.of(workflow_id)
        if tab is not None:
            return answered(self._bring_forward(tab))
        return after_store(
            self.store,
            lambda: self.workspace.workflows.get(workflow_id),
            self.show,
            lambda failure: self._cannot_open(workflow_id, failure),
        )

    def show(self, workflow: Workflow) -> WorkflowTab:
        """Bring a workflow just read from the store to the front, in a new tab if it has
        none."""
        tab = self.of(workflow.stored_id)
        if tab is not None:
            return self._bring_forward(tab)
        tab = self._bring_forward(self._add(workflow))
        tab.editor.view.fit_all()
        return tab

    def _bring_forward(self, tab: WorkflowTab) -> WorkflowTab:
        self.tab_widget.setCurrentWidget(tab)
        self.widget.setCurrentWidget(self.tab_widget)
        self.broughtForward.emit()
        return tab

    def _add(self, workflow: Workflow) -> WorkflowTab:
        tab = WorkflowTab(workflow, self.workspace.agents, self.workspace.workflows)
        tab.titleChanged.connect(lambda title, t=tab: self._retitle(t, title))
        tab.copyCreated.connect(self._open_copy)
        tab.autosaver.saved.connect(lambda _stored: self.storedChanged.emit())
        self._name_close_button(self.tab_widget.addTab(tab, tab.title()), tab.title())
        self.opened.emit(tab)
        return tab

    def _cannot_open(self, workflow_id: str, failure: Exception) -> None:
        if not isinstance(failure, StudioError):
            raise failure
        QMessageBox.warning(
            self.parent_widget, "Cannot open workflow", f"{failure}\n\n(workflow {workflow_id})"
        )

    def close(self, index: int) -> bool:
        """Close a tab, saving first; unsaved changes that cannot be saved are asked about."""
        tab = self.tab_widget.widget(index)
        if not isinstance(tab, WorkflowTab):
            return True
        if tab.autosaver.has_unsaved_changes and not tab.autosaver.save_now():
            answer = QMessageBox.question(
                self.parent_widget,
                "Unsaved changes",
                f"'{tab.editor.document.properties.name}' could not be saved "
                f"({tab.autosaver.last_error}). Close it anyway and lose the changes?",
            )
            if answer != QMessageBox.StandardButton.Yes:
                return False
        self._discard(index, tab)
        return True

    def close_current(self) -> bool:
        """Close the tab in front."""
        return self.close(self.tab_widget.currentIndex())

    def close_all(self) -> bool:
        """Close every tab (the window closes); False when the person keeps one open."""
        return all(self.close(index) for index in reversed(range(self.tab_widget.count())))

    def forget(self, workflow_id: str) -> None:
        """Close a deleted workflow's tab without saving it."""
        tab = self.of(workflow_id)
        if tab is not None:
            tab.autosaver.discard_changes()
            self._discard(self.tab_widget.indexOf(tab), tab)

    def _discard(self, index: int, tab: WorkflowTab) -> None:
        tab.editor.scene.detach()
        self.tab_widget.removeTab(index)
        tab.deleteLater()
        if self.tab_widget.count() == 0:
            self.widget.setCurrentWidget(self.welcome)

    def _open_copy(self, copy: Workflow) -> None:
        """After a conflict, "keep mine as a copy" stored mine as a new workflow: open it."""
        self.storedChanged.emit()
        self.open(copy.stored_id)

    def _name_close_button(self, index: int, title: str) -> None:
        """A tab's close button, drawn as a cross by the style, says what it closes."""
        bar = self.tab_widget.tabBar()
        sides = (QTabBar.ButtonPosition.RightSide, QTabBar.ButtonPosition.LeftSide)
        for button in filter(None, (bar.tabButton(index, side) for side in sides)):
            button.setAccessibleName(f"Close {title}")
            button.setToolTip(f"Close {title} (Ctrl+F4)")

    def _retitle(self, tab: WorkflowTab, title: str) -> None:
        index = self.tab_widget.indexOf(tab)
        if index >= 0:
            self.tab_widget.setTabText(index, title)
            self._name_close_button(index, title)
            self.tab_widget.setTabToolTip(index, tab.autosaver.last_error or "")
