"""Render the app offscreen to a PNG, so a change to the UI can be looked at without a screen."""

import os
import sys
import tempfile
from pathlib import Path

from studio.workspace import Workspace

VIEWS = ("main", "canvas")


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
) -> int:
    """Build the main window offscreen at ``size``, optionally open a file, and save a PNG.

    Unless a database was named (or a run is to be shown, which lives in the workspace's own
    database), a file is opened in a throwaway database, so taking a picture never adds
    workflows to the user's own. ``run`` draws that execution on its canvas; ``replay_at``
    replays it, stopped after that many events. ``mode`` shows that mode of the window
    (Workflows, Knowledge or Work) instead of the one it was last in."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QWidget

    from studio.ui.app import create_application
    from studio.ui.window.main_window import MainWindow

    app = create_application()
    with tempfile.TemporaryDirectory() as scratch:
        if not workspace.database_chosen and run is None:
            workspace = Workspace(
                workspace.data_dir, workspace.extra_agent_dirs, str(Path(scratch) / "screenshot.db")
            )
        window = MainWindow(workspace, mode)
        window.resize(*size)
        window.show()
        if file and window.workflows.files.open_workflow_file(file) is None:
            return 2
        if mode is not None:
            window.show_mode(mode)  # opening a file brings the Workflows mode forward
        if run is not None and not _show_run(window, run, replay_at):
            return 2
        app.processEvents()
        target: QWidget = window
        tab = window.workflows.tabs.current()
        if tab is not None:
            tab.editor.view.fit_all()
            if run is not None:
                _show_run_detail(window, run)
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


def _show_run(window, execution_id: str, replay_at: int | None) -> bool:
    if replay_at is None:
        return window.workflows.run_canvas.show_execution(execution_id) is not None
    bar = window.workflows.run_docks.replay(execution_id)
    if bar is not None:
        bar.seek(replay_at)
    return bar is not None


def _show_run_detail(window, execution_id: str) -> None:
    """The Runs panel in front with the run selected, as a person would look at it."""
    window.workflows.run_docks.show_history()
    window.workflows.run_docks.history.select_execution(execution_id)
