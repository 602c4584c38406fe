"""The store thread lets go of the work it ran before it says the work is done, so whatever
that work held is released by the thread that asked for it."""

import weakref
from collections.abc import Iterator

import pytest

from studio.engine.store_thread import StoreThread


class Work:
    """A call whose lifetime the test can watch."""

    def __call__(self) -> int:
        return 7


@pytest.fixture
def thread() -> Iterator[StoreThread]:
    started = StoreThread("test-store")
    yield started
    started.stop()


def test_a_call_lets_go_of_its_work_before_its_future_is_done(thread: StoreThread) -> None:
    work = Work()
    watched = weakref.ref(work)
    future = thread.call(work)
    del work
    alive_when_done: list[bool] = []
    future.add_done_callback(lambda _done: alive_when_done.append(watched() is not None))

    assert future.result(5) == 7
    assert alive_when_done == [False]
