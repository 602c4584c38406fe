"""Every UI test leaves nothing behind: the windows it opened are closed and deleted, and
what they posted is run or dropped, before the next test starts. A window left to Python's
collector would be deleted in the middle of a later test, on whatever that test is doing."""

import gc
from collections.abc import Iterator

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication


@pytest.fixture(autouse=True)
def _windows_gone_after_the_test(qapp: QApplication) -> Iterator[None]:
    yield
    for widget in QApplication.topLevelWidgets():
        if shiboken6.isValid(widget) and widget.isVisible():
            widget.close()
    gc.collect()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
