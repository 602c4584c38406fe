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
        drive(loop, asyncio.gather(*pending, return_exceptions=True))
    loop.close()
    asyncio.set_event_loop(None)


def drive(loop, coroutine) -> object:
    """Run the loop until ``coroutine`` is done and return its result.

    Unlike qasync's run_until_complete this does not process Qt events once more after the
    loop has stopped, which would run the engine's pending callbacks outside a running loop.
    """
    task = asyncio.ensure_future(coroutine)
    task.add_done_callback(lambda _task: loop.stop())
    loop.run_forever()
    return task.result()


def until(loop, condition: Callable[[], object], timeout: float = 20.0, step: float = 0.01):
    """Run the loop until ``condition()`` is true; fail after ``timeout`` seconds."""

    async def wait() -> object:
        deadline = time.monotonic() + timeout
        while not (value := condition()):
            if time.monotonic() > deadline:
                raise AssertionError(f"still not true after {timeout} s: {condition}")
            await asyncio.sleep(step)
        return value

    return drive(loop, wait())


def pause(loop, seconds: float) -> None:
    """Let the loop run for a while."""
    drive(loop, asyncio.sleep(seconds))


def act(loop, action: Callable[..., object], *args, **kwargs) -> None:
    """Do ``action`` (a click, a key) from inside the running loop, as in the app.

    Qt may deliver pending timer events while a test sends input; under the app's loop those
    run asyncio callbacks, which must find their loop running."""

    async def inside() -> None:
        action(*args, **kwargs)

    drive(loop, inside())
