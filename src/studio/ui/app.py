"""Start the Qt application with its one qasync event loop and show the main window."""

import asyncio
import gc
import sys
from collections.abc import Callable
from typing import Any

import qasync
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from studio import __version__
from studio.model.errors import StudioError
from studio.store.errors import StorageFaultError
from studio.ui.storage_fault_notice import show_unusable_database
from studio.ui.store_calls import StoreCalls
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace

ORGANIZATION = "Studio"
APPLICATION = "Studio"
EXIT_UNUSABLE_DATABASE = 2


SWITCH_INTERVAL_S = 0.001
"""How long a busy Python thread (the store thread running a run, a graph being laid out)
holds the interpreter before the UI thread gets its turn: Python's 5 ms default lets a few
of them add up to a visible stutter; 1 ms keeps the window's longest wait short."""


def create_application(argv: list[str] | None = None) -> QApplication:
    """The QApplication, created once, with the names QSettings files itself under."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)
    QCoreApplication.setApplicationVersion(__version__)
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    return QApplication(argv if argv is not None else sys.argv[:1])


def freeze_startup_objects() -> None:
    """Keep the garbage collector away from everything made at startup.

    Qt wrappers, the agent registry, the parsed blueprints and the canvas are tens of
    thousands of objects that live as long as the app; a full collection that walks them all
    takes tens of milliseconds, long enough to stutter a canvas that is drawing a run. Frozen,
    they are never scanned again; objects made later are collected as usual."""
    gc.collect()
    gc.freeze()


def run_app(workspace: Workspace, file: str | None = None, mode: str | None = None) -> int:
    """Show the main window (in ``mode``, or the mode it was last in) and run the event loop
    until the last window closes.

    Returns 2, after a dialog that says why, when the database cannot be opened or read."""
    app = create_application()
    try:
        _ = workspace.database  # opened, checked and migrated before anything is drawn
        window = MainWindow(workspace, mode)
    except StudioError as failure:  # a full disk, a read-only or damaged file, a newer schema
        show_unusable_database(failure)
        return EXIT_UNUSABLE_DATABASE
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    loop.set_exception_handler(storage_faults_shown_by(window))
    store = StoreCalls(parent=window)  # runs are driven on the store thread's loop
    store.store_thread.loop.set_exception_handler(storage_faults_shown_by(window, store.post))
    window.status.storage_faults.catch_uncaught()
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    if file:
        window.workflows.files.open_workflow_file(file)
    window.show()
    freeze_startup_objects()

    async def session() -> None:
        await closed.wait()
        # Runs cut short stay resumable; let them record that.
        await window.workflows.runs.stopped()

    with loop:
        loop.run_until_complete(session())
    store.store_thread.stop()
    return 0


LoopExceptionHandler = Callable[[asyncio.AbstractEventLoop, dict[str, Any]], None]


def storage_faults_shown_by(
    window: MainWindow, post: Callable[[Callable[[], object]], None] | None = None
) -> LoopExceptionHandler:
    """A loop's exception handler: a storage fault in a task is shown, not just logged.

    ``post`` carries the showing to the UI thread, for a loop that runs on another thread."""

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        failure = context.get("exception")
        if not isinstance(failure, StorageFaultError):
            loop.default_exception_handler(context)
        elif post is None:
            window.status.storage_faults.report(failure)
        else:
            post(lambda: window.status.storage_faults.report(failure))

    return handle
