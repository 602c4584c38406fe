"""Render the app offscreen to a PNG, so a change to the UI can be looked at without a screen."""

import os
import sys
from pathlib import Path

from studio.workspace import Workspace


def parse_size(text: str) -> tuple[int, int]:
    """Parse ``WIDTHxHEIGHT`` into two positive integers."""
    width, sep, height = text.lower().partition("x")
    if not (sep and width.isdigit() and height.isdigit() and int(width) > 0 and int(height) > 0):
        raise ValueError(f"--size must look like 1280x800, got '{text}'")
    return int(width), int(height)


def render_screenshot(
    workspace: Workspace, out: Path, size: tuple[int, int], file: str | None, view: str = "main"
) -> int:
    """Build the main window offscreen at ``size``, optionally open a file, and save a PNG."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from studio.ui.app import create_application
    from studio.ui.main_window import MainWindow

    app = create_application()
    window = MainWindow(workspace)
    if file and not window.open_workflow_file(file):
        return 2
    window.resize(*size)
    window.show()
    app.processEvents()
    if not window.grab().save(str(out), "PNG"):
        print(f"studio: cannot write {out}", file=sys.stderr)
        return 2
    print(f"wrote {out} ({size[0]}x{size[1]}, view {view})")
    return 0
