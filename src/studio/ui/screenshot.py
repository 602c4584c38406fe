"""Render the app offscreen to a PNG, so a change to the UI can be looked at without a screen."""

import os
import sys
import tempfile
import time
from concurrent.futures import Future
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from studio.workspace import Workspace

T = TypeVar("T")
VIEWS = ("main", "canvas", "knowledge")


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
) -> int:
    """Build the main window offscreen at ``size``, optionally open a file, and save a PNG.

    Unless a database was named (or a run is to be shown, which lives in the workspace's own
    database), a file is opened in a throwaway database, so taking a picture never adds
    workflows to the user's own. ``run`` draws that execution on its canvas; ``replay_at``
    replays it, stopped after that many events. ``mode`` shows that mode of the window
    (Workflows, Knowledge or Work) instead of the one it was last in. ``view`` "knowledge"
    pictures the Knowledge mode drawing what ``knowledge`` asks for."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QWidget

    from studio.ui.app import create_application
    from studio.ui.window.main_window import MainWindow

    app = create_application()
    if view == "knowledge":
        mode = "knowledge"
    with tempfile.TemporaryDirectory() as scratch:
        if not workspace.database_chosen and run is None:
            workspace = Workspace(
                workspace.data_dir, workspace.extra_agent_dirs, str(Path(scratch) / "screenshot.db")
            )
        window = MainWindow(workspace, mode)
        window.resize(*size)
        window.show()
        if file and _answer(app, window.workflows.files.open_workflow_file(file)) is None:
            return 2
        if mode is not None:
            window.show_mode(mode)  # opening a file brings the Workflows mode forward
        if view == "knowledge" and not _show_knowledge(app, window, knowledge or KnowledgeShot()):
            return 2
        if run is not None and not _show_run(app, window, run, replay_at):
            return 2
        app.processEvents()
        target: QWidget = window
        tab = window.workflows.tabs.current()
        if tab is not None:
            tab.editor.view.fit_all()
            if run is not None:
                _show_run_detail(app, window, run)
            if view == "canvas":
                target = tab.editor.view
        app.processEvents()
        saved = target.grab().save(str(out), "PNG")
        window.close()
        workspace.close()
    if not saved:
        print(f"studio: cannot write {out}", file=sys.stderr)
        return 2
    print(f"wrote {out} ({size[0]}x{size[1]}, view {view})")
    return 0


def _answer(app, future: "Future[T]") -> T | None:
    """Let the window work until a command's answer is there (None after a minute)."""
    return future.result() if _until(app, future.done) else None


def _show_run(app, window, execution_id: str, replay_at: int | None) -> bool:
    if replay_at is None:
        return _answer(app, window.workflows.run_canvas.show_execution(execution_id)) is not None
    bar = _answer(app, window.workflows.run_docks.replay(execution_id))
    if bar is not None:
        bar.seek(replay_at)
    return bar is not None


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
        time.sleep(0.01)
    return bool(done())


def _show_run_detail(app, window, execution_id: str) -> None:
    """The Runs panel in front with the run selected and its detail read, as a person would
    look at it."""
    history = window.workflows.run_docks.history
    window.workflows.run_docks.show_history()
    _until(app, lambda: history.select_execution(execution_id))
    _until(app, lambda: history.detail.execution_id == execution_id)
