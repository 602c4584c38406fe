"""The Problems panel kept up to date: a moment after each edit (or when another workflow
comes to the front) the workflow in front is checked for publishing, off the UI thread, and
what stands in the way is listed, "Not publishable yet: …" when the workflow is sound and
only publishing finds fault with it.

Checking a 2,000-node workflow takes about 0.2 s, so it runs on a thread of its own; a check
overtaken by a newer edit is dropped when it comes back."""

import logging
from concurrent.futures import ThreadPoolExecutor

from PySide6.QtCore import QObject, QTimer

from studio.model.problems import Problem
from studio.model.validation import publish_readiness
from studio.ui.store_calls import StoreCalls
from studio.ui.window.workflow_panels import WorkflowPanels
from studio.ui.window.workflow_tabs import WorkflowTabs
from studio.ui.workflow_tab import WorkflowTab
from studio.workspace import Workspace

log = logging.getLogger("studio.ui")
CHECK_AFTER_MS = 400
"""How long the workflow must rest after an edit before it is checked."""


class LiveProblems(QObject):
    """Checks the workflow in front whenever it rests after a change."""

    def __init__(
        self, workspace: Workspace, tabs: WorkflowTabs, panels: WorkflowPanels, parent: QObject
    ) -> None:
        super().__init__(parent)
        self.workspace, self.tabs, self.panels = workspace, tabs, panels
        self.store = StoreCalls(parent=self)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(CHECK_AFTER_MS)
        self.timer.timeout.connect(self.check_now)
        self._checker = ThreadPoolExecutor(1, thread_name_prefix="studio-check")
        self._asked = 0
        self.destroyed.connect(lambda: self._checker.shutdown(wait=False, cancel_futures=True))
        tabs.opened.connect(self._watch)
        tabs.currentChanged.connect(lambda _tab: self.check_soon())

    def check_soon(self) -> None:
        """Check once the workflow has rested (each change starts the wait again)."""
        self.timer.start()

    def check_now(self) -> None:
        """Check the workflow in front now (its problems arrive a moment later)."""
        self.timer.stop()
        self._asked += 1
        asked, tab = self._asked, self.tabs.current()
        if tab is None:
            self.panels.show_problems([])
            return
        workflow = tab.editor.document.snapshot()
        known = frozenset(agent.id for agent in self.workspace.agents)
        future = self._checker.submit(publish_readiness, workflow, known)
        self.store.deliver(
            future,
            lambda found: self._checked(asked, *found),
            lambda failure: log.warning("could not check the workflow: %s", failure),
        )

    def _watch(self, tab: WorkflowTab) -> None:
        tab.editor.document.subscribe(lambda _event: self._edited(tab))
        self.check_soon()

    def _edited(self, tab: WorkflowTab) -> None:
        if tab is self.tabs.current():
            self.check_soon()

    def _checked(self, asked: int, problems: list[Problem], sound: bool) -> None:
        if asked == self._asked:  # not overtaken by a newer check
            self.panels.show_problems(problems, sound)
