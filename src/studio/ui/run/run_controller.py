"""Runs started from the window, driven on the store thread's asyncio loop.

The engine's ``StepRunner`` runs there exactly as the CLI runs it: it writes every transition
to the store and then announces it on the workspace's event bus. The controller hands each
announcement to the UI thread as a signal, so the canvas, the history and the approvals panel
all follow the same events whether a run was started here, resumed after a crash, or decided
by a person, and the window never waits for a database another process holds."""

import asyncio
import getpass
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from PySide6.QtCore import QObject, Signal

from studio.engine.runner import StepRunner
from studio.model.errors import ONLY_PUBLISHED_RUN, NotAllowedError, StudioError
from studio.model.execution import WAITING, ExecutionEvent, ExecutionRecord
from studio.model.run_view import RunView
from studio.store.errors import StorageFaultError
from studio.store.human_tasks import HumanTask
from studio.ui.store_calls import StoreCalls
from studio.workspace import Workspace

log = logging.getLogger(__name__)

Create = Callable[[], ExecutionRecord]


class RunController(QObject):
    """Starts, resumes, cancels and decides runs; reports what happens as signals.

    Every method returns at once; the work is done on the store thread and its outcome
    arrives as these signals, on the UI thread."""

    eventArrived = Signal(object)  # an ExecutionEvent, after the store has it
    runStarted = Signal(str, str)  # execution id, workflow id
    runEnded = Signal(str, str)  # execution id, the status it stopped in
    problem = Signal(str)  # a message for the person, e.g. why a run could not start
    storageFault = Signal(object, bool)  # a StorageFaultError; whether it stopped a run

    def __init__(
        self,
        workspace: Workspace,
        runner: StepRunner | None = None,
        parent: QObject | None = None,
        store: StoreCalls | None = None,
    ) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self._runner = runner
        self._runner_made = threading.Lock()
        self.store = store or StoreCalls(parent=self)
        self.user = getpass.getuser()
        self._lock = threading.Lock()
        self._driving: dict[str, asyncio.Future[ExecutionRecord]] = {}  # store thread's tasks
        self._first_views: dict[str, RunView] = {}
        self._stopping: Future[None] | None = None
        bus = runner.bus if runner is not None else workspace.bus
        self._unsubscribe = bus.subscribe(self._published)

    @property
    def runner(self) -> StepRunner:
        """The step runner, made when a run first needs it: making it reads the agent
        registry (folders and the agent library), which the window's first frame does not
        need; the first use is on the store thread."""
        with self._runner_made:
            if self._runner is None:
                self._runner = self.workspace.runner()
            return self._runner

    # Starting -------------------------------------------------------------------------

    def start(self, workflow_id: str, execution_input: Any) -> "Future[ExecutionRecord | None]":
        """Run the workflow's published version with this input.

        The future has the new execution once it is stored (None when it could not start:
        ``problem`` or ``storageFault`` says why); the run goes on after that."""
        return self._launch(lambda: self.runner.start(workflow_id, execution_input))

    def rerun(self, execution_id: str) -> "Future[ExecutionRecord | None]":
        """Run the same workflow again with the input of an earlier execution."""

        def create() -> ExecutionRecord:
            earlier = self.workspace.executions.get(execution_id)
            return self.runner.start(earlier.workflow_id, earlier.input)

        return self._launch(create)

    def run_from(self, execution_id: str, node_id: str) -> "Future[ExecutionRecord | None]":
        """Re-run a node and what depends on it, reusing the execution's other results."""
        return self._launch(lambda: self.runner.start_from(execution_id, node_id))

    def resume(self, execution_id: str) -> None:
        """Drive an interrupted or waiting execution on from where its store says it is."""
        self.store.store_thread.call(lambda: self._drive(execution_id))

    def cancel(self, execution_id: str) -> "Future[ExecutionRecord]":
        """Cancel a pending, running or waiting execution (a failure is told by ``problem``)."""
        return self.store.call(lambda: self.runner.cancel(execution_id), None, self._report)

    def decide(
        self, execution_id: str, node_id: str, approved: bool, comment: str | None
    ) -> "Future[HumanTask]":
        """Record this user's decision and, when the run waits for it, drive it on.

        The future fails with the reason a decision is refused (already decided, not a node
        that waits) for the caller to show."""

        def decide_and_drive() -> HumanTask:
            task = self.runner.decide(
                execution_id, node_id, approved=approved, by=self.user, comment=comment
            )
            if self.workspace.executions.get(execution_id).status == WAITING:
                self._drive(execution_id)
            return task

        return self.store.store_thread.call(decide_and_drive)

    # State ----------------------------------------------------------------------------

    def is_driving(self, execution_id: str) -> bool:
        """Whether this window is driving the execution right now."""
        with self._lock:
            return execution_id in self._driving

    def driving(self) -> list[str]:
        """Executions this window drives right now."""
        with self._lock:
            return list(self._driving)

    def is_interrupted(self, record: ExecutionRecord) -> bool:
        """Whether an unfinished execution lost its runner and can be resumed."""
        return self.runner.is_interrupted(record)

    def shutdown(self) -> None:
        """Stop driving (the window closes): runs stay resumable from the store."""
        self._unsubscribe()
        if self._stopping is None and self.store.store_thread.is_running:
            self._stopping = self.store.store_thread.run(self._stop_all())

    async def stopped(self) -> None:
        """Wait until the runs cancelled by ``shutdown`` have let go of their executions."""
        if self._stopping is not None:
            await asyncio.wrap_future(self._stopping)

    # On the store thread ----------------------------------------------------------------

    def _launch(self, create: Create) -> "Future[ExecutionRecord | None]":
        return self.store.call(lambda: self._create_and_drive(create), None, self._report)

    def _create_and_drive(self, create: Create) -> ExecutionRecord | None:
        try:
            record = create()
        except NotAllowedError as refused:
            message = str(refused)
            if message == ONLY_PUBLISHED_RUN:
                message += ". Publish it first (Ctrl+Shift+P)."
            self.store.post(lambda: self.problem.emit(message))
            return None
        except StudioError as failure:  # a storage fault too: it did not start
            refusal = failure
            self.store.post(lambda: self._report(refusal))
            return None
        started = record.execution_id, record.workflow_id
        self._keep_first_view(record.execution_id)
        self.store.post(lambda: self.runStarted.emit(*started))
        self._drive(record.execution_id)
        return record

    def _keep_first_view(self, execution_id: str) -> None:
        """The run as it stands before it is driven, for the canvas (no read is left to the
        UI thread); a failed read only leaves the canvas to read it later."""
        executions = self.workspace.executions
        try:
            first = RunView.folded(
                execution_id, executions.node_ids(execution_id), executions.events(execution_id)
            )
        except StudioError:
            return
        with self._lock:
            self._first_views[execution_id] = first

    def first_view(self, execution_id: str) -> RunView | None:
        """A run this window just started, as it stood before it was driven (read on the
        store thread with its start); taken once."""
        with self._lock:
            return self._first_views.pop(execution_id, None)

    def _drive(self, execution_id: str) -> None:
        with self._lock:
            if execution_id in self._driving or self._stopping is not None:
                return
            task = asyncio.ensure_future(self.runner.run(execution_id))
            self._driving[execution_id] = task
        task.add_done_callback(lambda done: self._drive_ended(execution_id, done))

    def _drive_ended(self, execution_id: str, task: "asyncio.Future[ExecutionRecord]") -> None:
        with self._lock:
            self._driving.pop(execution_id, None)
        if task.cancelled():
            return
        failure = task.exception()
        status = task.result().status if failure is None else "interrupted"
        self.store.post(lambda: self._finished(execution_id, status, failure))

    async def _stop_all(self) -> None:
        with self._lock:
            drives = list(self._driving.values())
        for drive in drives:
            drive.cancel()
        stopped = self._runner.stop_all() if self._runner is not None else []
        await asyncio.gather(*drives, *stopped, return_exceptions=True)

    def _published(self, event: ExecutionEvent) -> None:
        self.store.post(lambda: self.eventArrived.emit(event))

    # On the UI thread ---------------------------------------------------------------------

    def _finished(self, execution_id: str, status: str, failure: BaseException | None) -> None:
        if isinstance(failure, StorageFaultError):  # the run stays resumable
            log.warning("run %s stopped: %s", execution_id, failure)
            self.storageFault.emit(failure, True)
        elif failure is not None:
            log.error("run %s stopped: %s", execution_id, failure, exc_info=failure)
            self.problem.emit(f"The run stopped: {failure}")
        self.runEnded.emit(execution_id, status)

    def _report(self, failure: Exception) -> None:
        if isinstance(failure, StorageFaultError):
            self.storageFault.emit(failure, False)
        else:
            self.problem.emit(str(failure))
