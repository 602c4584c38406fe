"""Start the Qt application with its one qasync event loop and show the main window."""

import asyncio
import gc
import sys

import qasync
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from studio import __version__
from studio.model.errors import StudioError
from studio.store.errors import StorageFaultError
from studio.ui.main_window import MainWindow
from studio.ui.storage_fault_notice import show_unusable_database
from studio.workspace import Workspace

ORGANIZATION = "Studio"
APPLICATION = "Studio"
EXIT_UNUSABLE_DATABASE = 2


def create_application(argv: list[str] | None = None) -> QApplication:
    """The QApplication, created once, with the names QSettings files itself under."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)
    QCoreApplication.setApplicationVersion(__version__)
    return QApplication(argv if argv is not None else sys.argv[:1])


def freeze_startup_objects() -> None:
    """Keep the garbage collector away from everything made at startup.

    Qt wrappers, the agent registry, the parsed blueprints and the canvas are tens of
    thousands of objects that live as long as the app; a full collection that walks them all
    takes tens of milliseconds, long enough to stutter a canvas that is drawing a run. Frozen,
    they are never scanned again; objects made later are collected as usual."""
    gc.collect()
    gc.freeze()


def run_app(workspace: Workspace, file: str | None = None) -> int:
    """Show the main window and run the event loop until the last window closes.

    Returns 2, after a dialog that says why, when the database cannot be opened or read."""
    app = create_application()
    try:
        _ = workspace.database  # opened, checked and migrated before anything is drawn
        window = MainWindow(workspace)
    except StudioError as failure:  # a full disk, a read-only or damaged file, a newer schema
        show_unusable_database(failure)
        return EXIT_UNUSABLE_DATABASE
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    loop.set_exception_handler(storage_faults_shown_by(window))
    window.storage_faults.catch_uncaught()
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    if file:
        window.open_workflow_file(file)
    window.show()
    freeze_startup_objects()

    async def session() -> None:
        await closed.wait()
        await window.runs.stopped()  # runs cut short stay resumable; let them record that

    with loop:
        loop.run_until_complete(session())
    return 0


def storage_faults_shown_by(window: MainWindow):
    """The loop's exception handler: a storage fault in a task is shown, not just logged."""

    def handle(loop: asyncio.AbstractEventLoop, context: dict) -> None:
        failure = context.get("exception")
        if isinstance(failure, StorageFaultError):
            window.storage_faults.report(failure)
        else:
            loop.default_exception_handler(context)

    return handle
