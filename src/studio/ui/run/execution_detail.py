"""One execution as a person reviews it: header and badges, steps, decisions, compensations,
and the input, output and error of whichever step or compensation is selected."""

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QStackedLayout,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.model import Workflow
from studio.model.execution import ExecutionRecord
from studio.store.human_tasks import HumanTask
from studio.ui.icon_label import IconLabel
from studio.ui.panels.inline_message import message_colour, window_is_dark
from studio.ui.panels.share_splitter import ShareSplitter
from studio.ui.run.execution_inspector import ExecutionInspector
from studio.ui.run.execution_rows import (
    COMPENSATION_COLUMNS,
    DECISION_COLUMNS,
    KEY_ROLE,
    STEP_COLUMNS,
    CompensationEntry,
    compensation_entries,
    compensation_item,
    decision_item,
    error_lines,
    node_label,
    real_node_ids,
    span_children,
    step_item,
)
from studio.ui.run.object_names import named
from studio.ui.run.status_look import execution_look, show_badge, unwind_look
from studio.ui.run.time_text import duration_text, local_time_text, short_id

NOTHING_SELECTED = "Select a run to see its steps."
SIDE_BY_SIDE_WIDTH = 760
INTERRUPTED_TEXT = (
    "This run stopped when the program running it went away. "
    "Resume continues from the first unfinished step."
)


def _tree(name: str, columns: tuple[str, ...], spoken: str) -> QTreeWidget:
    tree = named(QTreeWidget(), name)
    tree.setAccessibleName(spoken)
    tree.setHeaderLabels(list(columns))
    tree.setUniformRowHeights(True)
    tree.setAlternatingRowColors(True)
    tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    header = tree.header()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    return tree


def fit_height(tree: QTreeWidget) -> None:
    """Let a list grow no taller than its rows, so short lists leave room to the others."""
    rows = 0
    for item in _top_level_items(tree):
        rows += 1 + (item.childCount() if item.isExpanded() else 0)
    row_height = tree.sizeHintForRow(0) if rows else 0
    row_height = max(row_height, tree.fontMetrics().height() + 4)
    frame = 2 * tree.frameWidth()
    tree.setMaximumHeight(tree.header().sizeHint().height() + rows * row_height + frame + 2)


def _top_level_items(tree: QTreeWidget) -> list[QTreeWidgetItem]:
    """The rows at the top of ``tree``, in order."""
    items = (tree.topLevelItem(index) for index in range(tree.topLevelItemCount()))
    return [item for item in items if item is not None]


def _section(title: str, tree: QTreeWidget, name: str) -> QWidget:
    section = named(QWidget(), name)
    heading = QLabel(f"<b>{title}</b>")
    heading.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
    layout = QVBoxLayout(section)
    # The section is no taller than its heading and rows; the lists column keeps the rest.
    layout.setSizeConstraint(QVBoxLayout.SizeConstraint.SetMinAndMaxSize)
    layout.setContentsMargins(0, 4, 0, 0)
    layout.addWidget(heading)
    layout.addWidget(tree, 1)
    return section


def _key(item: QTreeWidgetItem) -> tuple[str, str]:
    kind, node_id = item.data(0, KEY_ROLE)
    return kind, node_id


class ExecutionDetail(QWidget):
    """Shows one stored execution; emits ``resumeRequested`` with its id from the banner, and
    ``samplePinned`` with the workflow id, node id and output of a step the person pinned."""

    resumeRequested = Signal(str)
    samplePinned = Signal(str, str, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._record: ExecutionRecord | None = None
        self._workflow: Workflow | None = None
        self._entries: dict[str, CompensationEntry] = {}
        self.placeholder = named(QLabel(NOTHING_SELECTED), "detailPlaceholder")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.steps_tree = _tree("stepsTree", STEP_COLUMNS, "Steps")
        self.decisions_list = _tree("decisionsList", DECISION_COLUMNS, "Decisions")
        self.compensations_list = _tree("compensationsList", COMPENSATION_COLUMNS, "Compensations")
        self.inspector = ExecutionInspector()
        self.inspector.samplePinned.connect(self._pin_sample)
        self._pages = QStackedLayout(self)
        self._pages.addWidget(self.placeholder)
        self._pages.addWidget(self._content())
        for tree in (self.steps_tree, self.decisions_list, self.compensations_list):
            tree.itemSelectionChanged.connect(lambda tree=tree: self._on_selected(tree))
            tree.itemExpanded.connect(lambda _item, tree=tree: fit_height(tree))
            tree.itemCollapsed.connect(lambda _item, tree=tree: fit_height(tree))

    def _content(self) -> QWidget:
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(self._header())
        layout.addWidget(self._banner())
        lists = QWidget()
        lists_layout = QVBoxLayout(lists)
        lists_layout.setContentsMargins(0, 0, 0, 0)
        lists_layout.addWidget(_section("Steps", self.steps_tree, "stepsSection"), 1)
        self.decisions_section = _section("Decisions", self.decisions_list, "decisionsSection")
        self.compensations_section = _section(
            "Compensations (in unwind order)", self.compensations_list, "compensationsSection"
        )
        lists_layout.addWidget(self.decisions_section, 1)
        lists_layout.addWidget(self.compensations_section, 1)
        lists_layout.addStretch(1)
        # The steps and the selected step's data share the room evenly: the data is what is
        # read, the steps only need their four columns.
        self.body = named(ShareSplitter(Qt.Orientation.Horizontal, (1, 1)), "detailSplitter")
        self.body.addWidget(lists)
        self.body.addWidget(self.inspector)
        self.body.setChildrenCollapsible(False)
        layout.addWidget(self.body, 1)
        return content

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Inspector beside the lists when there is room for both, else below them."""
        super().resizeEvent(event)
        wide = event.size().width() >= SIDE_BY_SIDE_WIDTH
        orientation = Qt.Orientation.Horizontal if wide else Qt.Orientation.Vertical
        if self.body.orientation() != orientation:
            self.body.setOrientation(orientation)

    def _header(self) -> QVBoxLayout:
        self.title = named(QLabel(), "executionTitle")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_badge = named(IconLabel(), "statusBadge")
        self.compensation_badge = named(IconLabel(), "compensationBadge")
        self.meta = named(QLabel(), "executionMeta")
        self.error_label = named(QLabel(), "executionError")
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        top = QHBoxLayout()
        for widget in (self.title, self.status_badge, self.compensation_badge):
            top.addWidget(widget)
        top.addStretch(1)
        header = QVBoxLayout()
        header.addLayout(top)
        header.addWidget(self.meta)
        header.addWidget(self.error_label)
        return header

    def _banner(self) -> QFrame:
        self.banner = named(QFrame(), "interruptedBanner")
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        text = named(IconLabel(INTERRUPTED_TEXT), "interruptedText")
        text.setWordWrap(True)
        text.set_icon(execution_look("running", interrupted=True).icon)
        self.resume_button = named(QPushButton("Resume"), "resumeButton")
        self.resume_button.setToolTip("Continue this run from its first unfinished step")
        self.resume_button.clicked.connect(self._request_resume)
        layout = QHBoxLayout(self.banner)
        layout.addWidget(text, 1)
        layout.addWidget(self.resume_button)
        return self.banner

    @property
    def execution_id(self) -> str | None:
        """The execution shown, if any."""
        return self._record.execution_id if self._record else None

    def show_nothing(self, text: str = NOTHING_SELECTED) -> None:
        """Show ``text`` instead of an execution."""
        self._record = None
        self.placeholder.setText(text)
        self._pages.setCurrentIndex(0)

    def show_execution(
        self,
        record: ExecutionRecord,
        workflow: Workflow | None,
        tasks: list[HumanTask],
        interrupted: bool,
    ) -> None:
        """Show ``record`` (with node results) of the pinned ``workflow`` version."""
        selected = self._selected_key() if self.execution_id == record.execution_id else None
        self._record, self._workflow = record, workflow
        dark = window_is_dark()
        self._show_header(record, interrupted, dark)
        self.banner.setVisible(interrupted)
        self._fill_steps(record, workflow, dark)
        self._fill_decisions(tasks, workflow, dark)
        self._fill_compensations(record, workflow, dark)
        self._pages.setCurrentIndex(1)
        if selected is None or not self._select_key(selected):
            self.inspector.show_nothing()

    def select_step(self, node_id: str) -> bool:
        """Select a step by node id (for a click on the canvas); False when it is not listed."""
        return self._select_key(("step", node_id))

    def _show_header(self, record: ExecutionRecord, interrupted: bool, dark: bool) -> None:
        self.title.setText(
            f"<b>Run {short_id(record.execution_id)}</b> · v{record.workflow_version}"
        )
        self.title.setToolTip(record.execution_id)
        look = execution_look(record.status, interrupted)
        show_badge(self.status_badge, look, dark)
        unwind = unwind_look(record.status, record.compensation_status)
        self.compensation_badge.setVisible(unwind is not None)
        if unwind is not None:
            show_badge(self.compensation_badge, unwind, dark)
        self.meta.setText(self._meta_text(record))
        lines = error_lines(record.error) if record.status == "failed" else []
        self.error_label.setVisible(bool(lines))
        self.error_label.setText("\n".join(lines))
        self.error_label.setStyleSheet(f"color: {message_colour('error')};")

    @staticmethod
    def _meta_text(record: ExecutionRecord) -> str:
        if record.started_at is None:
            return f"Created {local_time_text(record.created_at)} · not started"
        took = duration_text(record.started_at, record.completed_at)
        ending = f"took {took}" if record.completed_at else "still unfinished"
        return f"Started {local_time_text(record.started_at)} · {ending}"

    def _fill_steps(self, record: ExecutionRecord, workflow: Workflow | None, dark: bool) -> None:
        items = [
            step_item(node_label(workflow, node_id), record.node_results[node_id], dark)
            for node_id in real_node_ids(record, workflow)
        ]
        self._refill(self.steps_tree, items)

    def _fill_decisions(
        self, tasks: list[HumanTask], workflow: Workflow | None, dark: bool
    ) -> None:
        items = [decision_item(node_label(workflow, t.node_id), t, dark) for t in tasks]
        self._refill(self.decisions_list, items)
        self.decisions_section.setVisible(bool(items))

    def _fill_compensations(
        self, record: ExecutionRecord, workflow: Workflow | None, dark: bool
    ) -> None:
        entries = compensation_entries(record)
        self._entries = {entry.node_id: entry for entry in entries}
        items = [compensation_item(node_label(workflow, e.node_id), e, dark) for e in entries]
        self._refill(self.compensations_list, items)
        self.compensations_section.setVisible(bool(items))

    @staticmethod
    def _refill(tree: QTreeWidget, items: list[QTreeWidgetItem]) -> None:
        tree.blockSignals(True)
        tree.clear()
        tree.addTopLevelItems(items)
        for item in items:
            span_children(item)
        tree.setRootIsDecorated(any(item.childCount() for item in items))
        tree.blockSignals(False)
        fit_height(tree)

    def _on_selected(self, tree: QTreeWidget) -> None:
        items = tree.selectedItems()
        if not items or self._record is None:
            return
        for other in (self.steps_tree, self.decisions_list, self.compensations_list):
            if other is not tree:
                other.blockSignals(True)
                other.clearSelection()
                other.blockSignals(False)
        kind, node_id = _key(items[0])
        if kind == "compensation":
            label = node_label(self._workflow, node_id)
            self.inspector.show_compensation(label, self._entries[node_id])
        else:
            result = self._record.node_results.get(node_id)
            if result is not None:
                self.inspector.show_step(node_label(self._workflow, node_id), result)

    def _selected_key(self) -> tuple[str, str] | None:
        for tree in (self.steps_tree, self.compensations_list):
            items = tree.selectedItems()
            if items:
                return _key(items[0])
        return None

    def _select_key(self, key: tuple[str, str]) -> bool:
        tree = self.compensations_list if key[0] == "compensation" else self.steps_tree
        for item in _top_level_items(tree):
            if _key(item) == key:
                tree.setCurrentItem(item)
                tree.scrollToItem(item)
                return True
        return False

    def _request_resume(self) -> None:
        if self._record is not None:
            self.resumeRequested.emit(self._record.execution_id)

    def _pin_sample(self, node_id: str, value: object) -> None:
        if self._record is not None:
            self.samplePinned.emit(self._record.workflow_id, node_id, value)
