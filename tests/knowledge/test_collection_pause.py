"""The garbage collector is held off around heavy work, nested and from several threads."""

import gc
import threading
from collections.abc import Iterator

import pytest

from studio.knowledge.collection_pause import collection_paused


@pytest.fixture(autouse=True)
def collection_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_collection_is_off_inside_and_on_again_after() -> None:
    with collection_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_nested_pause_leaves_collection_off_until_the_outer_one_ends() -> None:
    with collection_paused():
        with collection_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_collection_off_before_stays_off() -> None:
    gc.disable()
    with collection_paused():
        pass
    assert not gc.isenabled()


def test_an_error_inside_still_turns_collection_back_on() -> None:
    with pytest.raises(ValueError), collection_paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_collection_comes_back_when_the_last_of_two_threads_ends_its_pause() -> None:
    inside, release = threading.Event(), threading.Event()

    def other() -> None:
        with collection_paused():
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=other)
    thread.start()
    assert inside.wait(5)
    with collection_paused():
        pass
    still_off = not gc.isenabled()
    release.set()
    thread.join(5)

    assert still_off
    assert gc.isenabled()
