"""Waiting for what a window command did: commands that need the store answer with a Future
the UI thread resolves once the result shows (a tab opened, a run drawn)."""

from concurrent.futures import Future
from typing import TypeVar

from tests.ui.run.run_loop import until

T = TypeVar("T")


def answer(qtbot, future: "Future[T]", timeout_ms: int = 10_000) -> T:
    """Let Qt work until the command is done; what it answered."""
    qtbot.waitUntil(future.done, timeout=timeout_ms)
    return future.result()


def answer_on(loop, future: "Future[T]", timeout: float = 20.0) -> T:
    """The same, with the app's qasync loop running (windows that drive runs)."""
    until(loop, future.done, timeout)
    return future.result()
