"""One thread with its own asyncio loop for a program's database work.

A program with a window must not wait on SQLite: another process may hold the write lock for
seconds. Everything it asks of the store goes to this thread instead, in the order asked:
plain calls (a query, a save) and coroutines (a ``StepRunner.run``, driven exactly as the CLI
drives it under ``asyncio.run``). Each submission returns a ``concurrent.futures.Future``."""

import asyncio
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")

THREAD_NAME = "studio-store"
STOP_TIMEOUT = 10.0
"""Seconds ``stop`` waits for the thread's pending work to end."""


class StoreThreadStoppedError(RuntimeError):
    """Work was submitted to a store thread that has stopped."""


class StoreThread:
    """A daemon thread running an asyncio loop; work submitted to it runs there in order."""

    def __init__(self, name: str = THREAD_NAME) -> None:
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()
        self._ready.wait()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.call_soon(self._ready.set)
        try:
            self.loop.run_forever()
        finally:
            self._cancel_leftovers()
            self.loop.close()

    def _cancel_leftovers(self) -> None:
        pending = [task for task in asyncio.all_tasks(self.loop) if not task.done()]
        for task in pending:
            task.cancel()
        if pending:
            self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))

    @property
    def is_running(self) -> bool:
        """Whether the thread still takes work."""
        return self._thread.is_alive() and not self.loop.is_closed()

    def in_thread(self) -> bool:
        """Whether the caller is this thread (its work may call the store directly)."""
        return threading.current_thread() is self._thread

    def call(self, function: Callable[[], T]) -> "Future[T]":
        """Run ``function()`` on the thread, after the work submitted before it.

        The thread lets go of ``function`` before the future is done: what it holds (a
        window's widget, say) is then released by the caller's thread, never by this one."""
        future: Future[T] = Future()
        work: list[Callable[[], T]] = [function]
        del function

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                work.clear()
                return
            try:
                result = work.pop()()
            except BaseException as failure:  # handed to whoever waits on the future
                future.set_exception(failure)
            else:
                future.set_result(result)

        self._schedule(run)
        return future

    def run(self, coroutine: Coroutine[Any, Any, T]) -> "Future[T]":
        """Run a coroutine as a task of the thread's loop (cancelling the future cancels it)."""
        if not self.is_running:
            coroutine.close()
            raise StoreThreadStoppedError("the store thread has stopped")
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    def _schedule(self, callback: Callable[[], None]) -> None:
        try:
            self.loop.call_soon_threadsafe(callback)
        except RuntimeError as closed:  # the loop is closed
            raise StoreThreadStoppedError("the store thread has stopped") from closed

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """Finish the work already submitted, cancel the tasks left and end the thread."""
        if not self.is_running:
            return
        if self.in_thread():
            self.loop.stop()
            return
        try:
            self.loop.call_soon_threadsafe(self.loop.stop)
        except RuntimeError:  # closed meanwhile
            return
        self._thread.join(timeout)


_shared: StoreThread | None = None
_shared_lock = threading.Lock()


def shared_store_thread() -> StoreThread:
    """The program's one store thread, started on first use (and again after ``stop``)."""
    global _shared
    with _shared_lock:
        if _shared is None or not _shared.is_running:
            _shared = StoreThread()
        return _shared
