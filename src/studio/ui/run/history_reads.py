"""What the run history reads from the store, read on the store thread.

Each read names what to do with its answer; answers arrive on the UI thread in the order the
reads were asked for. The list is read once at a time: asked again while it is read, it is
read once more when the answer is in, and the earlier answer is dropped."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from studio.engine.runner import StepRunner
from studio.model import Workflow
from studio.model.errors import NotFoundError
from studio.model.execution import ExecutionRecord
from studio.store.human_tasks import HumanTask
from studio.ui.store_calls import StoreCalls
from studio.workspace import Workspace

T = TypeVar("T")
V = TypeVar("V")
OnError = Callable[[Exception], None]


@dataclass(frozen=True)
class RunDetail:
    """What the detail of one run shows, read together."""

    record: ExecutionRecord
    workflow: Workflow | None
    tasks: list[HumanTask]
    interrupted: bool


@dataclass(frozen=True)
class RunRows:
    """A workflow's runs, newest first, and which of them were interrupted."""

    workflow_id: str
    records: list[ExecutionRecord]
    interrupted: set[str]


class HistoryReads:
    """The history's store reads; ``answered`` is called after each answer is handled."""

    def __init__(
        self,
        workspace: Workspace,
        store: StoreCalls,
        runner: Callable[[], StepRunner],
        answered: Callable[[], None],
    ) -> None:
        self.workspace, self.store = workspace, store
        self._runner, self._answered = runner, answered
        self._versions: dict[tuple[str, int], Workflow | None] = {}  # only the store thread's
        self._pending = 0
        self._list_asked: tuple[str, int, Callable[[RunRows], None], OnError] | None = None
        self._reading_list = False

    def is_reading(self) -> bool:
        """Whether an answer is still on its way."""
        return self._pending > 0 or self._reading_list

    def runs(
        self, workflow_id: str, limit: int, shown: Callable[[RunRows], None], failed: OnError
    ) -> None:
        """Read the workflow's newest runs."""
        self._list_asked = (workflow_id, limit, shown, failed)
        if self._reading_list:
            return
        self._reading_list = True
        runner = self._runner()

        def read() -> RunRows:
            records = self.workspace.executions.find(workflow_id=workflow_id, limit=limit)
            interrupted = {r.execution_id for r in records if runner.is_interrupted(r)}
            return RunRows(workflow_id, records, interrupted)

        asked = self._list_asked
        self._read(
            read,
            lambda rows: self._list_answered(asked, lambda: shown(rows)),
            lambda failure: self._list_answered(asked, lambda: failed(failure)),
            is_list=True,
        )

    def _list_answered(self, asked: object, handle: Callable[[], None]) -> None:
        if self._list_asked is not asked:  # asked again meanwhile: this answer is old
            self._read_list_again()
            return
        self._list_asked = None
        handle()

    def _read_list_again(self) -> None:
        again, self._list_asked = self._list_asked, None
        if again is not None:
            self.runs(*again)

    def detail(
        self, execution_id: str, shown: Callable[[RunDetail], None], failed: OnError
    ) -> None:
        """Read one run with its workflow version and its approvals."""
        runner = self._runner()

        def read() -> RunDetail:
            record = self.workspace.executions.get(execution_id)
            workflow = self._workflow_version(record)
            tasks = self.workspace.human_tasks.for_execution(execution_id)
            return RunDetail(record, workflow, tasks, runner.is_interrupted(record))

        self._read(read, shown, failed)

    def record(self, execution_id: str, found: Callable[[ExecutionRecord], None]) -> None:
        """Read one run's record; an unknown id (or an unreadable store) finds nothing."""
        self._read(lambda: self.workspace.executions.get(execution_id), found, lambda _e: None)

    def _workflow_version(self, record: ExecutionRecord) -> Workflow | None:
        key = (record.workflow_id, record.workflow_version)
        if key not in self._versions:  # a published version never changes
            try:
                self._versions[key] = self.workspace.workflows.get_version(*key)
            except NotFoundError:
                return None
        return self._versions[key]

    def _read(
        self,
        read: Callable[[], T],
        on_result: Callable[[T], None],
        on_error: OnError,
        is_list: bool = False,
    ) -> None:
        self._pending += 1

        def answered(handle: Callable[[V], None], value: V) -> None:
            self._pending -= 1
            if is_list:
                self._reading_list = False
            handle(value)
            self._answered()

        self.store.call(
            read,
            lambda value: answered(on_result, value),
            lambda failure: answered(on_error, failure),
        )
