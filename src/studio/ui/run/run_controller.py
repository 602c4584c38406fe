"""Runs started from the window, driven on the app's one asyncio (qasync) loop.

The engine writes every transition to the store and then announces it on the workspace's
event bus; the controller turns those announcements into a Qt signal, so the canvas, the
history and the approvals panel all follow the same events whether a run was started here,
resumed after a crash, or decided by a person."""

import asyncio
import getpass
import logging
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from studio.engine.runner import StepRunner
from studio.model.errors import ONLY_PUBLISHED_RUN, NotAllowedError, StudioError
from studio.model.execution import WAITING, ExecutionRecord
from studio.store.errors import StorageFaultError
from studio.store.human_tasks import HumanTask
from studio.workspace import Workspace

log = logging.getLogger(__name__)


class RunController(QObject):
    """Starts, resumes, cancels and decides runs; reports what happens as signals."""

    eventArrived = Signal(object)  # an ExecutionEvent, after the store has it
    runStarted = Signal(str, str)  # execution id, workflow id
    runEnded = Signal(str, str)  # execution id, the status it stopped in
    problem = Signal(str)  # a message for the person, e.g. why a run could not start
    storageFault = Signal(object, bool)  # a StorageFaultError; whether it stopped a run

    def __init__(self, workspace: Workspace, runner: StepRunner | None = None, parent=None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.runner = runner or workspace.runner()
        self._tasks: dict[str, asyncio.Future] = {}
        self._stopping: list[asyncio.Future] = []
        self._unsubscribe = self.runner.bus.subscribe(self.eventArrived.emit)
        self.user = getpass.getuser()

    # Starting -------------------------------------------------------------------------

    def start(self, workflow_id: str, execution_input: Any) -> ExecutionRecord | None:
        """Run the workflow's published version with this input."""
        return self._launch(lambda: self.runner.start(workflow_id, execution_input))

    def rerun(self, execution_id: str) -> ExecutionRecord | None:
        """Run the same workflow again with the input of an earlier execution."""
        try:
            earlier = self.workspace.executions.get(execution_id)
        except StudioError as failure:
            self.problem.emit(str(failure))
            return None
        return self.start(earlier.workflow_id, earlier.input)

    def run_from(self, execution_id: str, node_id: str) -> ExecutionRecord | None:
        """Re-run a node and what depends on it, reusing the execution's other results."""
        return self._launch(lambda: self.runner.start_from(execution_id, node_id))

    def resume(self, execution_id: str) -> None:
        """Drive an interrupted or waiting execution on from where its store says it is."""
        self._drive(execution_id)

    def cancel(self, execution_id: str) -> ExecutionRecord | None:
        """Cancel a pending, running or waiting execution."""
        try:
            return self.runner.cancel(execution_id)
        except StudioError as failure:
            self.problem.emit(str(failure))
            return None

    def decide(
        self, execution_id: str, node_id: str, approved: bool, comment: str | None
    ) -> HumanTask:
        """Record this user's decision and, when the run waits for it, drive it on.

        Errors (already decided, not a node that waits) are raised for the caller to show."""
        task = self.runner.decide(
            execution_id, node_id, approved=approved, by=self.user, comment=comment
        )
        if self.workspace.executions.get(execution_id).status == WAITING:
            self._drive(execution_id)
        return task

    # State ----------------------------------------------------------------------------

    def is_driving(self, execution_id: str) -> bool:
        """Whether this window is driving the execution right now."""
        return execution_id in self._tasks

    def driving(self) -> list[str]:
        """Executions this window drives right now."""
        return list(self._tasks)

    def is_interrupted(self, record: ExecutionRecord) -> bool:
        """Whether an unfinished execution lost its runner and can be resumed."""
        return self.runner.is_interrupted(record)

    def shutdown(self) -> None:
        """Stop driving (the window closes): runs stay resumable from the store."""
        self._unsubscribe()
        for future in list(self._tasks.values()):
            future.cancel()
            self._stopping.append(future)
        self._stopping.extend(self.runner.stop_all())

    async def stopped(self) -> None:
        """Wait until the runs cancelled by ``shutdown`` have let go of their executions."""
        await asyncio.gather(*self._stopping, return_exceptions=True)
        self._stopping.clear()

    # Driving --------------------------------------------------------------------------

    def _launch(self, create) -> ExecutionRecord | None:
        try:
            record = create()
        except NotAllowedError as refused:
            message = str(refused)
            if message == ONLY_PUBLISHED_RUN:
                message += ". Publish it first (Ctrl+Shift+P)."
            self.problem.emit(message)
            return None
        except StorageFaultError as fault:
            self.storageFault.emit(fault, False)
            return None
        except StudioError as failure:
            self.problem.emit(str(failure))
            return None
        # Announced from the next pass of the loop: creating the execution and drawing it on
        # the canvas are two short pauses of the window instead of one long one.
        QTimer.singleShot(0, lambda: self.runStarted.emit(record.execution_id, record.workflow_id))
        self._drive(record.execution_id)
        return record

    def _drive(self, execution_id: str) -> None:
        if execution_id in self._tasks:
            return
        future = asyncio.ensure_future(self.runner.run(execution_id))
        self._tasks[execution_id] = future
        future.add_done_callback(lambda done: self._finished(execution_id, done))

    def _finished(self, execution_id: str, future: asyncio.Future) -> None:
        self._tasks.pop(execution_id, None)
        if future.cancelled():
            return
        failure = future.exception()
        if isinstance(failure, StorageFaultError):  # the run stays resumable
            log.warning("run %s stopped: %s", execution_id, failure)
            self.storageFault.emit(failure, True)
            self.runEnded.emit(execution_id, "interrupted")
            return
        if failure is not None:
            log.error("run %s stopped: %s", execution_id, failure, exc_info=failure)
            self.problem.emit(f"The run stopped: {failure}")
            self.runEnded.emit(execution_id, "interrupted")
            return
        self.runEnded.emit(execution_id, future.result().status)
