"""Start the Qt application with its one qasync event loop and show the main window."""

import asyncio
import gc
import sys
from collections.abc import Callable
from typing import Any

import qasync
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

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
    """Keep the garbage collector away from everything made at startup, then let it work.

    Qt wrappers, the agent registry, the parsed blueprints and the canvas are tens of
    thousands of objects that live as long as the app; a full collection that walks them all
    takes tens of milliseconds, long enough to stutter a canvas that is drawing a run. Frozen,
    they are never scanned again; objects made later are collected as usual. The desktop
    commands hold the collector off while the window is built (``studio.cli.desktop``): this
    is where it comes back on."""
    gc.collect()
    gc.freeze()
    gc.enable()


FIRST_PAINT_LATEST_MS = 3000
"""How long the collector waits for a first paint that may never come (a window started
minimised is not painted until it is raised)."""


class _FirstPaint(QObject):
    """Runs ``then`` once, after a widget's first paint (or after ``latest_ms`` without one)."""

    def __init__(self, widget: QWidget, then: Callable[[], None], latest_ms: int) -> None:
        super().__init__(widget)
        self.widget, self.then = widget, then
        self.timer = QTimer(self)  # goes with this watcher, and so with the widget
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._run)
        self.timer.start(latest_ms)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.timer.start(0)  # once this paint is on the screen
        return False

    def _run(self) -> None:
        # Stays the widget's child, idle: deleted here, from its own timer's signal, PySide
        # now and then crashed in the next turn of the event loop.
        self.widget.removeEventFilter(self)
        self.then()


def collect_after_first_paint(window: QWidget, latest_ms: int = FIRST_PAINT_LATEST_MS) -> None:
    """Freeze what start-up made and turn the collector back on once ``window`` is drawn: the
    full collection that comes first (about 0.1 s) no longer delays the first frame."""
    _FirstPaint(window, freeze_startup_objects, latest_ms)


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
    collect_after_first_paint(window)
    window.show()

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
