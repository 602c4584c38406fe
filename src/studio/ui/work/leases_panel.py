"""The Workers dock: each worker holding a lease, the items it holds, and the time each lease
has left, counting down. Choosing an item here selects it on the board."""

from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.model.work_items import Lease
from studio.ui.work.work_look import counted, time_left

ITEM_ROLE = Qt.ItemDataRole.UserRole


class LeasesPanel(QWidget):
    """Who holds what, soonest to expire first within each worker."""

    picked = Signal(str)  # the id of the item chosen

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workLeases")
        self.summary = QLabel("No worker holds a lease")
        self.summary.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setObjectName("workLeaseTree")
        self.tree.setAccessibleName("Workers and their leases")
        self.tree.setHeaderLabels(["Worker / item", "Time left", "Token"])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.itemActivated.connect(self._chosen)
        self.tree.itemClicked.connect(self._chosen)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree, 1)
        self.leases: list[tuple[str, Lease]] = []
        self._rows: dict[str, tuple[QTreeWidgetItem, Lease]] = {}

    def show_leases(self, leases: list[tuple[str, Lease]], now: datetime) -> None:
        """Show the leases as read (the tree is rebuilt only when they changed)."""
        if leases != self.leases:
            self.leases = list(leases)
            self._rebuild()
        self.tick(now)

    def tick(self, now: datetime) -> None:
        """Count every lease down to ``now``."""
        for row, lease in self._rows.values():
            row.setText(1, time_left(lease.expires_at, now))

    def workers(self) -> list[str]:
        """The workers shown, top to bottom."""
        tops = (self.tree.topLevelItem(n) for n in range(self.tree.topLevelItemCount()))
        return [top.text(0) for top in tops if top is not None]

    def _rebuild(self) -> None:
        chosen = self.tree.currentItem()
        chosen_id = chosen.data(0, ITEM_ROLE) if chosen is not None else None
        self.tree.clear()
        self._rows = {}
        by_worker: dict[str, list[tuple[str, Lease]]] = {}
        for item_id, lease in self.leases:
            by_worker.setdefault(lease.worker, []).append((item_id, lease))
        for worker in sorted(by_worker):
            top = QTreeWidgetItem([worker, "", ""])
            top.setToolTip(0, f"{worker} holds {len(by_worker[worker])} lease(s)")
            self.tree.addTopLevelItem(top)
            for item_id, lease in by_worker[worker]:
                row = QTreeWidgetItem(top, [item_id, "", str(lease.token)])
                row.setData(0, ITEM_ROLE, item_id)
                self._rows[item_id] = (row, lease)
                if item_id == chosen_id:
                    self.tree.setCurrentItem(row)
            top.setExpanded(True)
        held = len(self.leases)
        holders = counted(len(by_worker), "worker")
        words = f"{holders} {'holds' if len(by_worker) == 1 else 'hold'} {counted(held, 'lease')}"
        self.summary.setText(words if held else "No worker holds a lease")

    def _chosen(self, row: QTreeWidgetItem, _column: int = 0) -> None:
        item_id = row.data(0, ITEM_ROLE)
        if isinstance(item_id, str):
            self.picked.emit(item_id)
