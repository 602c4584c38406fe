"""Database work for the window, done on the store thread and answered on the UI thread.

The window never waits on SQLite: it hands a call to the program's one store thread
(``studio.engine.store_thread``) and names what to do with the result or the error; both are
called later on the UI thread, in the order the calls were made.

    calls = StoreCalls(parent=self)
    calls.call(lambda: workspace.executions.find(workflow_id=wid), self.show_runs, self.failed)
"""

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Coroutine
from concurrent.futures import CancelledError, Future
from typing import Any, Generic, TypeVar

import shiboken6
from PySide6.QtCore import QObject, Qt, QTimer, Signal

from studio.engine.store_thread import StoreThread, shared_store_thread

T = TypeVar("T")
OnResult = Callable[[T], object]
OnError = Callable[[Exception], object]

log = logging.getLogger("studio.ui.store")
SLICE_SECONDS = 0.008
"""How long the UI thread runs store answers before it lets timers and painting in."""


class Courier(QObject):
    """Carries callbacks from any thread to the thread it was made on (the UI thread).

    One for the program, never deleted: another thread must never emit a signal of an object
    the UI thread may be deleting at that moment. Callbacks run in the order posted, a slice
    of ``SLICE_SECONDS`` at a time: a burst of run events never holds the window up longer."""

    woken = Signal()

    def __init__(self) -> None:
        super().__init__()
        self._queue: deque[tuple[QObject, Callable[[], object]]] = deque()
        self._lock = threading.Lock()
        self._awake = False
        self.woken.connect(self._drain, Qt.ConnectionType.QueuedConnection)

    def post(self, asker: QObject, callback: Callable[[], object]) -> None:
        """Queue ``callback`` for the UI thread (from any thread)."""
        with self._lock:
            self._queue.append((asker, callback))
            if self._awake:
                return
            self._awake = True
        self.woken.emit()

    def _drain(self) -> None:
        deadline = time.perf_counter() + SLICE_SECONDS
        while time.perf_counter() < deadline:
            with self._lock:
                if not self._queue:
                    self._awake = False
                    return
                asker, callback = self._queue.popleft()
            if shiboken6.isValid(asker):  # dropped when what asked is gone (its window closed)
                callback()
        QTimer.singleShot(0, self._drain)  # timers and painting go first, then the rest


_courier: Courier | None = None


def courier() -> Courier:
    """The program's courier, made on first use: on the UI thread, by the first StoreCalls."""
    global _courier
    if _courier is None:
        _courier = Courier()
    return _courier


class Answer(Generic[T]):
    """What to call with a store call's outcome, on the UI thread. It lets go of both
    callbacks as it is called: the thread that finishes a future also drops it, and a
    widget whose last reference went with it would be deleted on that thread, where Qt
    cannot stop its timers; they would fire later on freed memory."""

    def __init__(self, on_result: OnResult[T] | None, on_error: OnError | None) -> None:
        self.on_result, self.on_error = on_result, on_error

    def __call__(self, done: "Future[T]") -> None:
        on_result, on_error = self.on_result, self.on_error
        self.on_result = self.on_error = None
        if done.cancelled():
            return
        failure = done.exception()
        if failure is None:
            if on_result is not None:
                on_result(done.result())
        elif not isinstance(failure, Exception):
            log.error("store call ended by %r", failure)
        elif on_error is not None:
            on_error(failure)
        else:
            log.error("store call failed", exc_info=failure)


class StoreCalls(QObject):
    """Submits work to the store thread; delivers results and errors on the UI thread."""

    def __init__(self, thread: StoreThread | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store_thread = thread or shared_store_thread()
        self._courier = courier()

    def call(
        self,
        function: Callable[[], T],
        on_result: OnResult[T] | None = None,
        on_error: OnError | None = None,
    ) -> "Future[T]":
        """Run ``function()`` on the store thread; then ``on_result(value)`` or
        ``on_error(exception)`` on the UI thread (an error with no ``on_error`` is logged)."""
        future = self.store_thread.call(function)
        self.deliver(future, on_result, on_error)
        return future

    def run(
        self,
        coroutine: Coroutine[Any, Any, T],
        on_result: OnResult[T] | None = None,
        on_error: OnError | None = None,
    ) -> "Future[T]":
        """Run a coroutine on the store thread's loop; answered like ``call``. Cancelling the
        returned future cancels the coroutine; a cancelled one calls neither callback."""
        future = self.store_thread.run(coroutine)
        self.deliver(future, on_result, on_error)
        return future

    def deliver(
        self,
        future: "Future[T]",
        on_result: OnResult[T] | None = None,
        on_error: OnError | None = None,
    ) -> None:
        """Call ``on_result`` or ``on_error`` on the UI thread once ``future`` is done."""
        answer = Answer(on_result, on_error)
        future.add_done_callback(lambda done: self.post(lambda: answer(done)))

    def post(self, callback: Callable[[], object]) -> None:
        """Call ``callback()`` on the UI thread, after what was posted before it (from any
        thread). Dropped once this object is gone."""
        self._courier.post(self, callback)

    def wait(self, future: "Future[T]", timeout: float) -> bool:
        """Block the UI thread at most ``timeout`` seconds for ``future``; whether it is done.

        Only for moments the person chose to wait for, such as closing a tab with edits."""
        try:
            future.result(timeout)
        except TimeoutError:
            return False
        except (CancelledError, Exception):
            return True
        return True
