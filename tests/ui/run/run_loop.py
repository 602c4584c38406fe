"""Driving the app's qasync loop from a test: Qt events and engine tasks both make progress."""

import asyncio
import time
from collections.abc import Callable

import pytest
import qasync


@pytest.fixture
def run_loop(qapp):
    """The qasync loop the window's runs are driven on, as in the app."""
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    yield loop
    pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    loop.close()
    asyncio.set_event_loop(None)


def until(loop, condition: Callable[[], object], timeout: float = 20.0, step: float = 0.01):
    """Run the loop until ``condition()`` is true; fail after ``timeout`` seconds."""

    async def wait() -> object:
        deadline = time.monotonic() + timeout
        while not (value := condition()):
            if time.monotonic() > deadline:
                raise AssertionError(f"still not true after {timeout} s: {condition}")
            await asyncio.sleep(step)
        return value

    return loop.run_until_complete(wait())


def pause(loop, seconds: float) -> None:
    """Let the loop run for a while."""
    loop.run_until_complete(asyncio.sleep(seconds))
