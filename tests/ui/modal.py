"""Acting on a modal dialog: it runs an event loop of its own, so a test acts on it from a timer
that fires inside that loop, as a person would once it is up."""

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog

D = TypeVar("D", bound=QDialog)
POLL_MS, GIVE_UP_MS = 20, 20_000
"""How often to look for the dialog, and when to stop (so a test that failed before its dialog
came leaves nothing looking into the tests after it)."""


def when_modal_opens(kind: type[D], act: Callable[[D], None]) -> list[str]:
    """Once a modal dialog of ``kind`` is up, ``act`` on it; what went wrong inside is listed
    (an assertion there cannot stop the test, so the dialog is closed and the test told)."""
    failures: list[str] = []
    tries = iter(range(GIVE_UP_MS // POLL_MS))

    def poll() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, kind):
            if next(tries, None) is None:
                failures.append(f"no {kind.__name__} came up")
            else:
                QTimer.singleShot(POLL_MS, poll)
            return
        try:
            act(dialog)
        except AssertionError as failure:
            failures.append(str(failure) or repr(failure))
            dialog.reject()

    QTimer.singleShot(0, poll)
    return failures
