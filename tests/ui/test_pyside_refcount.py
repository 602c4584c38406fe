"""Guard against the PySide6 release that leaks references to None on void method calls.

PySide6 6.12.0 on CPython 3.11 drops a reference to ``None`` on every call of a void method
(``setPos``, ``setPen``, ``cubicTo``, ...); after a few thousand calls the interpreter aborts
with "Fatal Python error: none_dealloc". pyproject.toml pins PySide6 below 6.12; this test
catches a bump to a release that still has the bug.
"""

import sys

import pytest
from PySide6.QtWidgets import QGraphicsRectItem

CALLS = 10_000


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None is immortal from Python 3.12 on")
def test_void_method_calls_keep_the_reference_count_of_none(qapp) -> None:
    item = QGraphicsRectItem(0, 0, 10, 10)
    before = sys.getrefcount(None)
    for step in range(CALLS):
        item.setPos(step, step)
    after = sys.getrefcount(None)
    assert after >= before - 10, f"None lost {before - after} references over {CALLS} setPos calls"
