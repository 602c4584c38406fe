"""The list of a workflow's runs: one row each with status (icon and words), start, duration,
version and id; filterable and multi-select."""

from PySide6.QtCore import QItemSelectionModel, QSize, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from studio.model.execution import ExecutionRecord
from studio.ui.panels.inline_message import window_is_dark
from studio.ui.run.run_filter import run_matches
from studio.ui.run.status_look import execution_look
from studio.ui.run.time_text import duration_text, local_time_text, short_id

STATUS, STARTED, DURATION, VERSION, RUN = range(5)
COLUMNS = ("Status", "Started", "Duration", "Version", "Run")
ID_ROLE = Qt.ItemDataRole.UserRole


def run_item(record: ExecutionRecord, interrupted: bool, dark: bool) -> QTreeWidgetItem:
    """One run's row; a run not started yet shows when it was created."""
    look = execution_look(record.status, interrupted)
    item = QTreeWidgetItem(
        [
            look.text,
            local_time_text(record.started_at or record.created_at),
            duration_text(record.started_at, record.completed_at),
            f"v{record.workflow_version}",
            short_id(record.execution_id),
        ]
    )
    item.setData(0, ID_ROLE, record.execution_id)
    item.setIcon(STATUS, look.qicon(dark))
    item.setForeground(STATUS, look.colour(dark))
    item.setData(STATUS, Qt.ItemDataRole.AccessibleTextRole, look.label)
    item.setToolTip(RUN, record.execution_id)
    return item


class RunList(QTreeWidget):
    """Runs newest first, as given; knows each row's record and whether it was interrupted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("runList")
        self.setAccessibleName("Runs")
        self._records: dict[str, ExecutionRecord] = {}
        self._interrupted: set[str] = set()
        self.setHeaderLabels(list(COLUMNS))
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(STATUS, QHeaderView.ResizeMode.Stretch)

    def show_runs(self, records: list[ExecutionRecord], interrupted: set[str]) -> None:
        """Replace the rows, keeping the selected and current runs that are still listed.

        Emits no selection signal: the caller decides what a reload means for the detail."""
        keep, current = self.selected_ids(), self.current_id()
        self._records = {record.execution_id: record for record in records}
        self._interrupted = set(interrupted)
        self.blockSignals(True)
        self.clear()
        dark = window_is_dark()
        self.addTopLevelItems(
            [run_item(r, r.execution_id in self._interrupted, dark) for r in records]
        )
        for execution_id in keep:
            item = self.item_for(execution_id)
            if item is not None:
                item.setSelected(True)
        current_item = self.item_for(current) if current else None
        if current_item is not None:
            self.setCurrentItem(current_item, 0, QItemSelectionModel.SelectionFlag.NoUpdate)
        self.blockSignals(False)
        self.updateGeometry()  # the columns' contents changed: so may the room they need

    def minimumSizeHint(self) -> QSize:
        """Room for every column's contents: a splitter beside the run's detail may narrow
        the list, never so far that a column is cut."""
        hint = super().minimumSizeHint()
        header = self.header()
        needed = sum(
            max(header.sectionSizeHint(c), self.sizeHintForColumn(c)) for c in range(header.count())
        )
        return QSize(max(hint.width(), needed + 2 * self.frameWidth()), hint.height())

    def run_count(self) -> int:
        """How many runs are listed, shown or filtered out."""
        return len(self._records)

    def is_interrupted(self, execution_id: str) -> bool:
        """Whether the run was interrupted when the list was loaded."""
        return execution_id in self._interrupted

    def rows(self) -> list[QTreeWidgetItem]:
        """Every run's row, top to bottom, shown or filtered out."""
        items = (self.topLevelItem(index) for index in range(self.topLevelItemCount()))
        return [item for item in items if item is not None]

    def item_for(self, execution_id: str) -> QTreeWidgetItem | None:
        """The row of a run, if listed."""
        for item in self.rows():
            if item.data(0, ID_ROLE) == execution_id:
                return item
        return None

    def selected_ids(self) -> list[str]:
        """The selected runs' ids, in list order (newest first)."""
        return [item.data(0, ID_ROLE) for item in self.rows() if item.isSelected()]

    def current_id(self) -> str | None:
        """The run with the keyboard focus, if any."""
        item = self.currentItem()
        return item.data(0, ID_ROLE) if item is not None else None

    def oldest_first(self, execution_ids: list[str]) -> list[str]:
        """The ids ordered by when their runs were created, oldest first."""
        return sorted(execution_ids, key=self._created)

    def _created(self, execution_id: str) -> str:
        created = self._records[execution_id].created_at
        return (created.isoformat() if created else "") + execution_id

    def apply_filter(self, text: str, choice: str) -> int:
        """Hide (and deselect) the runs that do not match; returns how many stay shown."""
        shown = 0
        for item in self.rows():
            execution_id = item.data(0, ID_ROLE)
            record = self._records[execution_id]
            visible = run_matches(record, self.is_interrupted(execution_id), text, choice)
            item.setHidden(not visible)
            if not visible and item.isSelected():
                item.setSelected(False)
            shown += visible
        return shown

    def select_only(self, execution_id: str) -> bool:
        """Make one run the only selected and current row; False when it is not listed."""
        item = self.item_for(execution_id)
        if item is None:
            return False
        self.clearSelection()
        self.setCurrentItem(item)
        self.scrollToItem(item)
        return True
