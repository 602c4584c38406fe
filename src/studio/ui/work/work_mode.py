"""The Work mode: the board of work items by status in the middle, the selected item below
it with the workers and their leases beside that, and a person's commands: enqueue an item,
put one back on the queue, kill it, return it to intake.

The queue is read on the store thread about once a second while the mode is shown; every
lease counts down between reads."""

from collections.abc import Callable
from datetime import UTC, datetime

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QMainWindow, QVBoxLayout, QWidget

from studio.model.work_items import WorkItem
from studio.ui.window.action_table import ActionSpec, build_toolbar
from studio.ui.window.mode import Mode
from studio.ui.window.status_sink import StatusSink
from studio.ui.work.enqueue_dialog import EnqueueDialog
from studio.ui.work.item_actions import ITEM_ACTIONS, ItemAction, ask_reason
from studio.ui.work.item_detail import ItemDetail
from studio.ui.work.leases_panel import LeasesPanel
from studio.ui.work.work_board import WorkBoard
from studio.ui.work.work_feed import QueueRead, WorkFeed
from studio.workspace import Workspace

Area = Qt.DockWidgetArea
TOOLBAR = ["work_enqueue", None, "work_release", "work_kill", "work_return", None, "work_refresh"]
SHORT_TEXTS = {
    "work_enqueue": "Enqueue",
    "work_release": "Release",
    "work_kill": "Kill",
    "work_return": "To intake",
    "work_refresh": "Reload",
}
TICK_MS = 500
"""How often the leases' time left is counted down."""
FIRST_DETAIL_HEIGHT, FIRST_WORKERS_WIDTH = 400, 380


class WorkMode(Mode):
    """The Fabric work queue as a board a person watches and acts on."""

    def __init__(self, workspace: Workspace, status: StatusSink, parent: QMainWindow) -> None:
        super().__init__("work", "Work", "Ctrl+3", parent)
        self.workspace, self.status = workspace, status
        self.board = WorkBoard()
        self.notice = QLabel()
        self.notice.setObjectName("workNotice")
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #c5221f; padding: 4px 8px;")
        self.notice.hide()
        self.page = QWidget()
        self.page.setObjectName("workPage")
        layout = QVBoxLayout(self.page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.notice)
        layout.addWidget(self.board, 1)
        self.detail = ItemDetail()
        self.leases = LeasesPanel()
        self.feed = WorkFeed(lambda: workspace.work_queue, self.board.isVisible, self)
        self.item_dock = self.add_dock("Work Item", self.detail, Area.BottomDockWidgetArea)
        self.workers_dock = self.add_dock("Workers", self.leases, Area.BottomDockWidgetArea)
        self.ticker = QTimer(self)
        self.ticker.setInterval(TICK_MS)
        self.ticker.timeout.connect(self._tick)
        self.actions: dict[str, QAction] = {}
        self.read: QueueRead | None = None
        self._started = self._placed = False
        self._wire()

    def _wire(self) -> None:
        self.board.picked.connect(self.select)
        self.leases.picked.connect(self.select)
        self.feed.queueRead.connect(self._queue_read)
        self.feed.itemRead.connect(self._item_read)
        self.feed.acted.connect(self._acted)
        self.feed.failed.connect(self._failed)

    # Mode --------------------------------------------------------------------------------

    def central(self) -> QWidget:
        return self.page

    def action_specs(self) -> list[ActionSpec]:
        spec = ActionSpec
        return [
            spec("work_enqueue", "&Enqueue Work Item…", "Ctrl+N", self.enqueue),
            *[
                spec(action.name, action.text, action.shortcut, self._acting(action))
                for action in ITEM_ACTIONS
            ],
            spec("work_refresh", "Re&load Queue", "F5", self.feed.poll),
        ]

    def install_actions(self, actions: dict[str, QAction]) -> None:
        self.actions = actions
        for name, text in SHORT_TEXTS.items():
            actions[name].setIconText(text)
        self.toolbar = build_toolbar(self.window, "Work", actions, TOOLBAR)
        self._sync_actions()

    def place_docks(self) -> None:
        self.window.splitDockWidget(self.item_dock, self.workers_dock, Qt.Orientation.Horizontal)

    def first_show(self) -> None:
        self.window.resizeDocks([self.item_dock], [FIRST_DETAIL_HEIGHT], Qt.Orientation.Vertical)
        self.window.resizeDocks(
            [self.item_dock, self.workers_dock],
            [self.window.width() - FIRST_WORKERS_WIDTH, FIRST_WORKERS_WIDTH],
            Qt.Orientation.Horizontal,
        )

    def start(self) -> None:
        """Start reading the queue the first time the mode is shown."""
        if not self._started:
            self._started = True
            self.feed.start()
            self.ticker.start()

    def shown(self, restored: bool) -> None:
        if not self._placed:
            self._placed = True
            if not restored:
                self.place_docks()
        self.start()
        self.feed.poll()
        self._sync_actions()

    def shutdown(self) -> None:
        self.feed.stop()
        self.ticker.stop()

    def title(self) -> str:
        return "Work — Studio"

    # Selection ---------------------------------------------------------------------------

    def select(self, item_id: str) -> None:
        """Select an item: its card, its detail, the actions that apply to it."""
        self.board.select(item_id)
        self.feed.select(item_id)
        self._sync_actions()

    def selected_item(self) -> WorkItem | None:
        """The selected item as last read (its detail when read in full)."""
        shown = self.detail.item
        if shown is not None and shown.id == self.board.selected:
            board_item = self.board.selected_item()
            return board_item if board_item and board_item.status != shown.status else shown
        return self.board.selected_item()

    # Commands ----------------------------------------------------------------------------

    def enqueue(self) -> WorkItem | None:
        """Write or open an item and enqueue it; the new item is selected."""
        dialog = EnqueueDialog(self.feed, self.status.dialog_parent())
        try:
            dialog.exec()
            item = dialog.enqueued
        finally:
            dialog.deleteLater()
        if item is not None:
            self.status.show(f"{item.id} is on the queue")
            self.select(item.id)
            self.feed.poll()
        return item

    def act(self, action: ItemAction) -> None:
        """Ask why, then do ``action`` to the selected item."""
        item = self.selected_item()
        if not action.applies(item):
            return
        assert item is not None
        reason = ask_reason(action, item, self.status.dialog_parent())
        if reason is not None:
            self.feed.act(action.call, item.id, reason)

    def _acting(self, action: ItemAction) -> Callable[[], None]:
        return lambda: self.act(action)

    # Reads -------------------------------------------------------------------------------

    def _queue_read(self, read: QueueRead) -> None:
        self.read = read
        self.notice.hide()
        now = datetime.now(UTC)
        self.board.show_items(read.items, now)
        self.leases.show_leases(read.leases, now)
        if read.selected is not None and read.selected.id == self.board.selected:
            self.detail.show_item(read.selected, now)
        self._sync_actions()

    def _item_read(self, item: WorkItem) -> None:
        if item.id == self.board.selected:
            self.detail.show_item(item, datetime.now(UTC))
            self._sync_actions()

    def _acted(self, name: str, item: WorkItem) -> None:
        action = next(a for a in ITEM_ACTIONS if a.call == name)
        self.status.show(action.done.format(id=item.id))
        if item.id == self.board.selected:
            self.detail.show_item(item, datetime.now(UTC))

    def _failed(self, message: str) -> None:
        self.notice.setText(message)
        self.notice.show()
        self.status.show(message)

    def _tick(self) -> None:
        if self.board.isVisible():
            now = datetime.now(UTC)
            self.board.tick(now)
            self.detail.tick(now)
            self.leases.tick(now)

    def _sync_actions(self) -> None:
        if not self.actions or not self.page.isVisibleTo(self.window):
            return  # the mode is not in front: the window keeps its actions off
        item = self.selected_item()
        for action in ITEM_ACTIONS:
            self.actions[action.name].setEnabled(action.applies(item))
