"""The main window in its Work mode over a real queue in a fresh SQLite file, with an item in
every status, and the waits a person would make (the board read, the detail filled)."""

from pathlib import Path

from PySide6.QtCore import Qt

from studio.fabric.queue import WorkQueue
from studio.ui.window.main_window import MainWindow
from studio.ui.work.work_mode import WorkMode
from studio.workspace import Workspace
from tests.ui.work.queue_items import ready_queue, seed_every_status

WAIT_MS = 10_000


def open_work_window(qtbot, tmp_path: Path) -> tuple[MainWindow, WorkQueue, dict[str, str]]:
    """The window in its Work mode, the queue it shows, and an item id of each status."""
    workspace = Workspace(tmp_path / "data", (), str(tmp_path / "studio.db"))
    queue = ready_queue(workspace)
    seeded = seed_every_status(queue)
    window = MainWindow(workspace, "work")
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.work.read is not None, timeout=WAIT_MS)
    return window, queue, seeded


def click_card(qtbot, mode: WorkMode, item_id: str) -> None:
    """Click the item's card and wait for its detail, read in full."""
    card = mode.board.card(item_id)
    assert card is not None, f"no card for {item_id}"
    qtbot.mouseClick(card, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: mode.detail.item is not None and mode.detail.item.id == item_id,
        timeout=WAIT_MS,
    )


def column_of_card(mode: WorkMode, item_id: str) -> str | None:
    """The column the board shows the item in, or None."""
    return next(
        (name for name in mode.board.columns if item_id in mode.board.column_ids(name)), None
    )
