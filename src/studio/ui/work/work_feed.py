"""The board's reads of the queue and a person's actions on it, done on the store thread.

While the Work mode is shown the queue is read about once a second: every item's envelope,
the leases, and the selected item in full. A read is asked for only when the last one has
been answered, so a slow database slows the board down and never piles reads up."""

import getpass
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime

from PySide6.QtCore import QObject, QTimer, Signal

from studio.fabric.queue import WorkQueue
from studio.model.errors import NotFoundError
from studio.model.work_items import Lease, WorkItem
from studio.ui.store_calls import StoreCalls

POLL_MS = 1000
ACTIONS = ("requeue", "kill", "return_to_intake")
"""What a person may do to an item: put it back on the queue, end it, send it to intake."""


@dataclass(frozen=True)
class QueueRead:
    """What one read of the queue found."""

    items: list[WorkItem]
    """Every item's envelope (no sections)."""
    leases: list[tuple[str, Lease]]
    selected: WorkItem | None
    """The selected item in full (None: none selected, or gone)."""
    read_at: datetime


class WorkFeed(QObject):
    """Reads the queue while the board is shown; runs a person's actions on it."""

    queueRead = Signal(object)  # a QueueRead
    itemRead = Signal(object)  # one item in full, read when it was selected
    acted = Signal(str, object)  # the action's name, the item as it is after it
    failed = Signal(str)  # why a read or an action did not work

    def __init__(
        self,
        queue: Callable[[], WorkQueue],
        wanted: Callable[[], bool] = lambda: True,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.queue = queue
        self.wanted = wanted
        """Whether the board is shown: the timer reads the queue only then."""
        self.calls = StoreCalls(parent=self)
        self.person = getpass.getuser()
        self.selected: str | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(lambda: self.poll() if self.wanted() else None)
        self._reading = False

    def start(self) -> None:
        """Read now and then about once a second."""
        self.timer.start()
        self.poll()

    def stop(self) -> None:
        self.timer.stop()

    def poll(self) -> None:
        """Read the queue unless a read is on its way."""
        if self._reading:
            return
        self._reading = True
        selected = self.selected
        self.calls.call(lambda: self._read(selected), self._answered, self._read_failed)

    def select(self, item_id: str | None) -> None:
        """Read this item in full from now on (``itemRead`` has it at once)."""
        self.selected = item_id
        if item_id is not None:
            self.calls.call(
                lambda: self.queue().read(item_id),
                self.itemRead.emit,
                lambda e: self.failed.emit(f"Cannot read {item_id}: {e}"),
            )

    def act(self, action: str, item_id: str, reason: str) -> "Future[WorkItem]":
        """Run a person's action with their reason; ``acted`` or ``failed`` tells how it went."""
        if action not in ACTIONS:
            raise ValueError(f"'{action}' is not one of {', '.join(ACTIONS)}")
        person = self.person

        def run() -> WorkItem:
            queue = self.queue()
            perform = {
                "requeue": queue.requeue,
                "kill": queue.kill,
                "return_to_intake": queue.return_to_intake,
            }[action]
            return perform(item_id, reason, person)

        return self.calls.call(
            run, lambda item: self._acted(action, item), lambda e: self.failed.emit(str(e))
        )

    def _acted(self, action: str, item: WorkItem) -> None:
        self.acted.emit(action, item)
        self.poll()

    def _answered(self, read: QueueRead) -> None:
        self._reading = False
        self.queueRead.emit(read)

    def _read_failed(self, error: Exception) -> None:
        self._reading = False
        self.failed.emit(f"Cannot read the work queue: {error}")

    def _read(self, selected: str | None) -> QueueRead:
        """On the store thread: the items, the leases, the selected item in full."""
        queue = self.queue()
        envelopes = queue.list()
        leases = queue.leases()
        detail = None
        if selected is not None:
            try:
                detail = queue.read(selected)
            except NotFoundError:
                detail = None
        return QueueRead(envelopes, leases, detail, datetime.now(UTC))
