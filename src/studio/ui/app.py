"""Start the Qt application with its one qasync event loop and show the main window."""

import asyncio
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
    with loop:
        loop.run_until_complete(closed.wait())
    return 0
