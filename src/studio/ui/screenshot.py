"""Render the app offscreen to a PNG, so a change to the UI can be looked at without a screen."""

import gc
import logging
import os
import sys
import tempfile
import time
from concurrent.futures import Future
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from studio.model import Workflow
from studio.workspace import Workspace

T = TypeVar("T")
VIEWS = ("main", "canvas", "knowledge", "work", "catalog")
PICTURE_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
"""The picture a file name asks for, by its extension."""
HARMLESS_QT_MESSAGES = frozenset(
    {
        "This plugin does not support propagateSizeHints()",
        "This plugin does not support raise()",
    }
)
"""What the offscreen platform says of window-manager calls it has no use for: not printed."""
MODAL_CHECK_MS = 50
"""How often a picture being taken looks for a dialog waiting for a click."""
POLL_S = 0.001
"""How long a picture being taken sleeps between looks at what it waits for (the store
thread's answer): a look costs next to nothing, and each sleep is time the picture waits."""
_qt_log = logging.getLogger("studio.qt")


@dataclass(frozen=True)
class KnowledgeShot:
    """What ``--view knowledge`` shows: the layers, the subject, a focus, the moments."""

    subject: str | None = None
    around: str | None = None
    """A node id, or a bare key when one subject alone has it."""
    depth: int = 1
    as_of: datetime | None = None
    compare_to: datetime | None = None
    items: bool = False
    units: bool = False
    sections: bool = False


def parse_size(text: str) -> tuple[int, int]:
    """Parse ``WIDTHxHEIGHT`` into two positive integers."""
    width, sep, height = text.lower().partition("x")
    if not (sep and width.isdigit() and height.isdigit() and int(width) > 0 and int(height) > 0):
        raise ValueError(f"--size must look like 1280x800, got '{text}'")
    return int(width), int(height)


def picture_format(out: str | Path) -> str:
    """The image format ``out``'s extension asks for (PNG or JPEG); ValueError otherwise."""
    suffix = Path(out).suffix.lower()
    if suffix not in PICTURE_FORMATS:
        known = ", ".join(PICTURE_FORMATS)
        raise ValueError(f"cannot write {out}: a picture's name ends in {known}")
    return PICTURE_FORMATS[suffix]


def render_screenshot(
    workspace: Workspace,
    out: Path,
    size: tuple[int, int],
    file: str | None,
    view: str = "main",
    run: str | None = None,
    replay_at: int | None = None,
    mode: str | None = None,
    knowledge: KnowledgeShot | None = None,
    workflow: Workflow | None = None,
) -> int:
    """Build the main window offscreen at ``size``, optionally open a file, and save a
    picture in the format ``out``'s name asks for (PNG or JPEG). ``workflow``: what ``file``
    holds, when the caller has read it already.

    Unless a database was named (or a run is to be shown, which lives in the workspace's own
    database), a file is opened in a throwaway database, so taking a picture never adds
    workflows to the user's own. ``run`` draws that execution on its canvas; ``replay_at``
    replays it, stopped after that many events. ``mode`` shows that mode of the window
    (Workflows, Knowledge or Work) instead of the one it was last in. ``view`` "knowledge"
    pictures the Knowledge mode drawing what ``knowledge`` asks for; "work" the Work mode's
    board once it has read the queue; "catalog" the blueprint catalog browser.

    Nothing waits for a click: a dialog the window opens is closed at once and what it said
    is the error (exit 2). Qt's harmless platform messages are not printed."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import qInstallMessageHandler

    qInstallMessageHandler(_pass_on_qt_message)
    from studio.ui.app import create_application
    from studio.ui.window.main_window import MainWindow

    picture = picture_format(out)
    app = create_application()
    dialogs = DialogRefuser()
    shown_mode = view if view in ("knowledge", "work") else mode
    shot = _Shot(file, workflow, view, shown_mode, run, replay_at)
    with tempfile.TemporaryDirectory() as scratch:
        if not workspace.database_chosen and run is None:
            workspace = Workspace(
                workspace.data_dir, workspace.extra_agent_dirs, str(Path(scratch) / "screenshot.db")
            )
        window = MainWindow(workspace, shot.mode)
        window.resize(*size)
        window.show()
        target = _compose(app, window, shot, knowledge or KnowledgeShot())
        image = None if target is None or dialogs.refused else target.grab()
        _collector_back()
        saved = image is not None and image.save(str(out), picture)
        window.close()
        workspace.close()
    dialogs.stop()
    if dialogs.refused:
        print(f"studio: {dialogs.refused[0]}", file=sys.stderr)
        return 2
    if image is None:
        return 2  # what could not be shown has said why
    if not saved:
        print(f"studio: cannot write {out}", file=sys.stderr)
        return 2
    _report(out, size, (image.width(), image.height()), picture, view)
    return 0


def _collector_back() -> None:
    """The picture is taken: the collector, held off by the command while the window was
    built, comes back on, with what start-up made frozen out of its reach, as in the app.
    Frozen, those objects are also skipped by the collections of the interpreter's exit,
    which otherwise walk them all again (about 0.3 s)."""
    gc.freeze()
    gc.enable()


@dataclass(frozen=True)
class _Shot:
    """What the window is to show before the picture is taken."""

    file: str | None
    workflow: Workflow | None
    """What ``file`` holds, read already (None: read it when opening)."""
    view: str
    mode: str | None
    run: str | None
    replay_at: int | None


def _compose(app, window, shot: _Shot, knowledge: KnowledgeShot):
    """Bring the window to what the shot asks for; the widget to picture, or None (and why on
    stderr) when something cannot be shown."""
    files = window.workflows.files
    opened = files.open_workflow_file(shot.file, shot.workflow) if shot.file else None
    if opened is not None and _answer(app, opened) is None:
        return None
    if shot.mode is not None:
        window.show_mode(shot.mode)  # opening a file brings the Workflows mode forward
    if shot.view == "knowledge" and not _show_knowledge(app, window, knowledge):
        return None
    if shot.view == "work" and not _until(app, lambda: window.work.read is not None):
        print("studio: cannot read the work queue", file=sys.stderr)
        return None
    if shot.run is not None and not _show_run(app, window, shot.run, shot.replay_at):
        return None
    if shot.view == "catalog":
        return _show_catalog(app, window)
    _answer(app, window.workflows.tab_status.summary_shown)  # counted after the first frame
    app.processEvents()
    target = window
    tab = window.workflows.tabs.current()
    if tab is not None:
        tab.editor.view.fit_all()
        if shot.run is not None:
            _show_run_detail(app, window, shot.run)
        if shot.view == "canvas":
            target = tab.editor.view
    app.processEvents()
    return target


def _show_catalog(app, window):
    """The blueprint catalog browser at the window's size, its cards painted; None (and why
    on stderr) when the catalog cannot be read."""
    if _answer(app, window.workflows.catalog.browse()) is None:
        print("studio: cannot read the blueprint catalog", file=sys.stderr)
        return None
    browser = window.workflows.catalog.browser
    browser.resize(window.size())
    app.processEvents()
    return browser


def _report(
    out: Path, asked: tuple[int, int], written: tuple[int, int], picture: str, view: str
) -> None:
    """What was written, at the size it has; a warning when the window could not take the
    size asked for."""
    if view == "main" and written != asked:
        print(
            f"studio: warning: the window cannot be {asked[0]}x{asked[1]}; "
            f"the picture is {written[0]}x{written[1]}",
            file=sys.stderr,
        )
    print(f"wrote {out} ({written[0]}x{written[1]} {picture}, view {view})")


def _pass_on_qt_message(mode, _context, message: str) -> None:
    """Qt's own messages: the harmless platform chatter dropped, the rest logged."""
    from PySide6.QtCore import QtMsgType

    if message in HARMLESS_QT_MESSAGES:
        return
    levels = {
        QtMsgType.QtDebugMsg: logging.DEBUG,
        QtMsgType.QtInfoMsg: logging.INFO,
        QtMsgType.QtWarningMsg: logging.WARNING,
    }
    _qt_log.log(levels.get(mode, logging.ERROR), "Qt: %s", message)


class DialogRefuser:
    """Closes any dialog that waits for a click while a picture is taken, keeping what it
    said: a headless command reports it on stderr instead of waiting."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.refused: list[str] = []
        self._timer = QTimer()
        self._timer.setInterval(MODAL_CHECK_MS)
        self._timer.timeout.connect(self._close_dialog)
        self._timer.start()

    def _close_dialog(self) -> None:
        from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QDialog):
            return
        words = [dialog.windowTitle()]
        if isinstance(dialog, QMessageBox):
            words += [dialog.text(), dialog.informativeText()]
        self.refused.append(": ".join(" ".join(w.split()) for w in words if w.strip()))
        dialog.reject()

    def stop(self) -> None:
        """Stop looking (the picture is taken)."""
        self._timer.stop()


def _answer(app, future: "Future[T]") -> T | None:
    """Let the window work until a command's answer is there (None after a minute)."""
    return future.result() if _until(app, future.done) else None


def _show_run(app, window, execution_id: str, replay_at: int | None) -> bool:
    """Draw the run (replayed to ``replay_at`` when given); False, and why on stderr, when it
    cannot be drawn."""
    if replay_at is None:
        shown = _answer(app, window.workflows.run_canvas.show_execution(execution_id))
    else:
        shown = bar = _answer(app, window.workflows.run_docks.replay(execution_id))
        if bar is not None:
            bar.seek(replay_at)
    if shown is None:
        print(f"studio: cannot draw the run {execution_id}", file=sys.stderr)
    return shown is not None


def _show_knowledge(app, window, shot: KnowledgeShot) -> bool:
    """Draw the knowledge graph as the shot asks; False (and why, on stderr) when it cannot."""
    from studio.knowledge.graph_view import ViewQuery, resolve_node
    from studio.knowledge.projection import UnknownNodeError

    mode = window.knowledge
    query = ViewQuery(
        items=shot.items,
        units=shot.units,
        sections=shot.sections,
        subject=shot.subject,
        as_of=shot.as_of,
        compare_to=shot.compare_to,
        depth=shot.depth,
    )
    mode.session.query = query
    history = _answer(app, mode.session.reload())
    if history is None or not _until(app, lambda: mode.session.history is history):
        print("studio: cannot read the knowledge store", file=sys.stderr)
        return False
    query = mode.session.query  # the subject is chosen when the store holds one alone
    if shot.around is not None:
        try:
            node = resolve_node(history, query, shot.around)
        except UnknownNodeError as unknown:
            print(f"studio: --around: {unknown.args[0]}", file=sys.stderr)
            return False
        query = replace(query, focus=node, revealed=frozenset({node}))
    mode.show_query(query)
    drawn = _until(app, lambda: _drawn(mode, query))
    if not drawn:
        print("studio: the knowledge view was not drawn within a minute", file=sys.stderr)
        return False
    mode.canvas.fit_all()
    if query.focus is not None:
        mode.canvas.select_node(query.focus)
    return True


def _drawn(mode, query) -> bool:
    current = mode.session.current
    return current is not None and current.view.query == query and not mode.canvas.is_drawing()


def _until(app, done, seconds: float = 60) -> bool:
    """Let the window work until ``done()`` holds (False after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(POLL_S)
    return bool(done())


def _show_run_detail(app, window, execution_id: str) -> None:
    """The Runs panel in front with the run selected and its detail read, as a person would
    look at it."""
    history = window.workflows.run_docks.history
    window.workflows.run_docks.show_history()
    _until(app, lambda: history.select_execution(execution_id))
    _until(app, lambda: history.detail.execution_id == execution_id)
