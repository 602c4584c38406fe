"""Every UI test starts clean: what earlier tests left (their windows, closed, and what they
posted) is deleted before the test begins, and the windows a test opened are closed at its
end. A window left to Python's collector was otherwise deleted in the middle of a later test,
and took that test's workflow tab with it."""

import gc
from collections.abc import Iterator

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication


def _delete_what_is_left() -> None:
    gc.collect()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture(autouse=True)
def _clean_slate(qapp: QApplication) -> Iterator[None]:
    # Here, unlike at teardown, pytest no longer holds the last test's arguments: its
    # windows can really go.
    _delete_what_is_left()
    yield
    for widget in QApplication.topLevelWidgets():
        if shiboken6.isValid(widget) and widget.isVisible():
            widget.close()
    _delete_what_is_left()
