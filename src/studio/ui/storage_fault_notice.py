"""Telling the person that the database failed under the app (a full disk, a read-only or
damaged file): a dialog that names the database and says what was kept, never a traceback."""

import sys
import time
from collections.abc import Callable
from types import TracebackType

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from studio.store.errors import StorageFaultError

TITLE = "Studio cannot use its database"
QUIET_SECONDS = 60.0
"""The same fault is not shown again for this long: autosave and the run views retry."""

EDITS_KEPT = "Your changes stay in the window and are saved as soon as the database can take them."
RUN_NOT_STARTED = "The run did not start; nothing of it was stored."
RUN_STOPPED = (
    "The run stopped where the database last recorded it. Once that is fixed, "
    "Resume (in the Runs panel) finishes it; nodes that completed do not run again."
)

ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], object]


class StorageFaultNotice:
    """Shows storage faults in a dialog, one at a time."""

    def __init__(self, parent: QWidget | None) -> None:
        self.parent = parent
        self.box: QMessageBox | None = None
        self._last: tuple[str, float] | None = None

    def report(self, fault: StorageFaultError, consequence: str = "") -> QMessageBox | None:
        """Show the fault, unless a dialog is up or this fault was shown moments ago."""
        text = str(fault)
        now = time.monotonic()
        if self.box is not None and self.box.isVisible():
            return None
        if self._last is not None and self._last[0] == text and now - self._last[1] < QUIET_SECONDS:
            return None
        self._last = (text, now)
        box = QMessageBox(QMessageBox.Icon.Critical, TITLE, _sentence(text), parent=self.parent)
        box.setObjectName("storageFault")
        box.setInformativeText(consequence)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(self._closed)
        self.box = box
        box.open()  # not exec(): runs and autosave carry on while it is up
        return box

    def catch_uncaught(self) -> Callable[[], None]:
        """Show a storage fault that escapes any handler (a slot, a timer) in the dialog
        instead of a traceback; returns a function that restores the previous hook."""
        previous: ExceptHook = sys.excepthook

        def hook(kind, value, traceback) -> None:
            if isinstance(value, StorageFaultError):
                self.report(value)
            else:
                previous(kind, value, traceback)

        sys.excepthook = hook

        def restore() -> None:
            sys.excepthook = previous

        return restore

    def _closed(self, _result: int) -> None:
        self.box = None


def show_unusable_database(failure: Exception) -> None:
    """At start-up: the database cannot be opened, so the app cannot start (a modal dialog)."""
    QMessageBox.critical(None, TITLE, _sentence(str(failure)))


def _sentence(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", ")", "`")) else text + "."
