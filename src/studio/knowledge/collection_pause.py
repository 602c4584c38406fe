"""Holding the garbage collector off while a burst of objects is built.

Python's cyclic collector walks every tracked object of a generation each time it runs; a
knowledge history of thousands of versions holds hundreds of thousands of them, and building
it (or a view of it, or landing a folder) sets off full collections again and again, each one
holding every thread up. The objects built here hold no reference cycles, so reference
counting alone frees what is dropped, and the pause loses nothing.
"""

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class _CollectionPause:
    """How many threads are in ``collection_paused``, and whether collection was on before."""

    lock = threading.Lock()
    depth = 0
    was_enabled = False


@contextmanager
def collection_paused() -> Iterator[None]:
    """Hold the garbage collector off while a burst of long-lived objects is built.

    A history of thousands of versions holds well over 100,000 tracked objects, and building it
    (or a view of it) sets off full collections that walk every one of them again and again,
    about doubling the time. Nested and concurrent pauses are counted: collection comes back
    on when the last one ends, and only if it was on when the first began."""
    with _CollectionPause.lock:
        if _CollectionPause.depth == 0:
            _CollectionPause.was_enabled = gc.isenabled()
            gc.disable()
        _CollectionPause.depth += 1
    try:
        yield
    finally:
        with _CollectionPause.lock:
            _CollectionPause.depth -= 1
            if _CollectionPause.depth == 0 and _CollectionPause.was_enabled:
                gc.enable()


def keep_out_of_collections() -> None:
    """What is alive now will live long (a history just read): take it out of the collector's
    reach, so later collections walk only what is made after it; without this a step of the
    timeline now and then waits on a full collection of the whole history (hundreds of
    milliseconds at thousands of artifacts). Frozen objects are still freed by reference
    counting when they are dropped (a later history replaces this one). What a freeze costs:
    any reference cycle that happens to be garbage at that moment is kept until the program
    ends, which is why this is done once per history read rather than as a habit."""
    gc.freeze()
