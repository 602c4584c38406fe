"""Start the Qt application with its one qasync event loop and show the main window."""

import asyncio
import gc
import sys

import qasync
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from studio import __version__
from studio.ui.main_window import MainWindow
from studio.workspace import Workspace

ORGANIZATION = "Studio"
APPLICATION = "Studio"


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
    """Show the main window and run the event loop until the last window closes."""
    app = create_application()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    window = MainWindow(workspace)
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
