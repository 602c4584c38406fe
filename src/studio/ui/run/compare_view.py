"""Two runs of one workflow side by side: each run's header, a row per node saying what each
run did and what changed, and the two outputs of the selected node."""

from concurrent.futures import Future

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.model.run_compare import (
    NodeComparison,
    NodeSide,
    RunComparison,
    RunSide,
)
from studio.model.run_words import duration_words
from studio.ui.icon_label import IconLabel
from studio.ui.icons import icon
from studio.ui.panels.inline_message import InlineMessage, window_is_dark
from studio.ui.run.compare_reads import ComparedRuns, read_compared_runs
from studio.ui.run.json_view import JsonView
from studio.ui.run.object_names import named
from studio.ui.run.status_look import execution_look, show_badge, status_look
from studio.ui.store_calls import StoreCalls
from studio.workspace import Workspace

COLUMNS = ("Node", "Left", "Right", "Left took", "Right took", "Attempts", "Changed")
CHANGED_GLYPH = "Δ"
CHANGE_WORDS = {"added": "only in right", "removed": "only in left"}
ABSENT = "— not in this version"
HIGHLIGHT = ("#fff1c2", "#4a3b12")  # a changed row's background on a light, a dark window
NOTHING_SELECTED = "Select a node to see its output in both runs."


def changes_text(node: NodeComparison) -> str:
    """'Δ status, output' for a changed node, "" for an unchanged one."""
    if not node.changes:
        return ""
    words = ", ".join(CHANGE_WORDS.get(change, change) for change in node.changes)
    return f"{CHANGED_GLYPH} {words}"


def attempts_text(node: NodeComparison) -> str:
    """'1' when both runs took the same attempts, '1 → 3' when not."""
    left = node.left.attempts if node.left else None
    right = node.right.attempts if node.right else None
    if left == right or None in (left, right):
        return str(left if left is not None else right)
    return f"{left} → {right}"


class RunHeader(QFrame):
    """One run's summary above its column: short id, version, status and duration."""

    def __init__(self, side: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"{side.lower()}Header")
        self.side = side
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = named(QLabel(), f"{side.lower()}Title")
        self.status = named(IconLabel(), f"{side.lower()}Status")
        self.took = named(QLabel(), f"{side.lower()}Took")
        layout = QHBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.status)
        layout.addWidget(self.took)
        layout.addStretch(1)

    def show_run(self, run: RunSide) -> None:
        """Fill the header from one side of a comparison."""
        self.title.setText(
            f"<b>{self.side}</b> · run {run.execution_id[:8]} · version {run.workflow_version}"
        )
        self.title.setToolTip(run.execution_id)
        look = execution_look(run.status)
        show_badge(self.status, look, window_is_dark())
        self.took.setText(f"took {duration_words(run.duration)}")


class CompareView(QWidget):
    """Compares two executions of one workflow node by node."""

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.store = StoreCalls(parent=self)
        self.comparison: RunComparison | None = None
        self.labels: dict[str, str] = {}
        self.setWindowTitle("Compare runs")
        self.heading = named(QLabel(), "compareHeading")
        self.message = named(InlineMessage(), "compareMessage")
        self.message.hide()
        self.headers = (RunHeader("Left"), RunHeader("Right"))
        self.only_changed = named(QCheckBox("Only changed"), "onlyChanged")
        self.only_changed.setToolTip("Hide the nodes that did the same in both runs")
        self.only_changed.toggled.connect(self._filter)
        self.summary = named(QLabel(), "compareSummary")
        self.table = self._build_table()
        self.outputs_caption = named(QLabel(NOTHING_SELECTED), "outputsCaption")
        self.outputs = (JsonView(), JsonView())
        self.outputs[0].setObjectName("leftOutput")
        self.outputs[1].setObjectName("rightOutput")
        self._build_layout()

    def _build_table(self) -> QTableWidget:
        table = named(QTableWidget(0, len(COLUMNS)), "compareTable")
        table.setHorizontalHeaderLabels(list(COLUMNS))
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.verticalHeader().hide()
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        table.itemSelectionChanged.connect(self._show_outputs)
        return table

    def _build_layout(self) -> None:
        headers = QHBoxLayout()
        for header in self.headers:
            headers.addWidget(header, 1)
        filters = QHBoxLayout()
        filters.addWidget(self.only_changed)
        filters.addWidget(self.summary, 1)
        outputs = QSplitter(Qt.Orientation.Horizontal)
        for view in self.outputs:
            outputs.addWidget(view)
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.outputs_caption)
        lower_layout.addWidget(outputs, 1)
        body = QSplitter(Qt.Orientation.Vertical)
        body.addWidget(self.table)
        body.addWidget(lower)
        body.setStretchFactor(0, 3)
        body.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        for widget in (self.heading, self.message):
            layout.addWidget(widget)
        layout.addLayout(headers)
        layout.addLayout(filters)
        layout.addWidget(body, 1)

    # Comparing ---------------------------------------------------------------------------

    def compare(self, left_id: str, right_id: str) -> "Future[RunComparison | None]":
        """Show two executions side by side (read off the UI thread); a message instead when
        they cannot be compared. The answer is the comparison shown, or None."""
        workspace = self.workspace
        answer: Future[RunComparison | None] = Future()

        def show(found: ComparedRuns) -> None:
            answer.set_result(self._show_found(found))

        def failed(failure: Exception) -> None:
            self._refuse(str(failure))
            answer.set_result(None)

        self.store.call(lambda: read_compared_runs(workspace, left_id, right_id), show, failed)
        return answer

    def _show_found(self, found: ComparedRuns) -> RunComparison | None:
        if found.comparison is None:
            self._refuse(found.refusal)
            return None
        self.labels = found.labels
        self.comparison = found.comparison
        self._show(found.comparison, found.workflow_name)
        return found.comparison

    def _refuse(self, text: str) -> None:
        self.comparison = None
        self.message.show_error(text)
        self.table.setRowCount(0)
        self.summary.clear()
        self._clear_outputs(NOTHING_SELECTED)

    def _show(self, comparison: RunComparison, name: str) -> None:
        self.message.hide()
        version = "" if comparison.same_version else " · different versions"
        inputs = " · different input" if comparison.input_differs else " · same input"
        self.heading.setText(f"<b>{name}</b>: two runs compared{version}{inputs}")
        self.headers[0].show_run(comparison.left)
        self.headers[1].show_run(comparison.right)
        self.table.setRowCount(len(comparison.nodes))
        for row, node in enumerate(comparison.nodes):
            self._fill_row(row, node)
        changed = len(comparison.changed_nodes)
        self.summary.setText(f"{changed} of {len(comparison.nodes)} nodes changed")
        self._filter()
        self._clear_outputs(NOTHING_SELECTED)

    def _fill_row(self, row: int, node: NodeComparison) -> None:
        dark = window_is_dark()
        cells = [
            (self.labels.get(node.node_id, node.node_id), None, ""),
            *(_status_cell(side, dark) for side in (node.left, node.right)),
            (duration_words(node.left.duration if node.left else None), None, ""),
            (duration_words(node.right.duration if node.right else None), None, ""),
            (attempts_text(node), None, ""),
            (changes_text(node), None, ""),
        ]
        background = QBrush(QColor(HIGHLIGHT[dark])) if node.changed else None
        for column, (text, colour, shape) in enumerate(cells):
            item = QTableWidgetItem(text)
            if shape:
                item.setIcon(icon(shape, colour))
            item.setData(Qt.ItemDataRole.UserRole, node.node_id)
            if colour is not None:
                item.setForeground(QBrush(colour))
            if background is not None:
                item.setBackground(background)
            self.table.setItem(row, column, item)
        name_cell = self.table.item(row, 0)
        if name_cell is not None:
            name_cell.setToolTip(node.node_id)

    def _filter(self) -> None:
        only = self.only_changed.isChecked()
        nodes = self.comparison.nodes if self.comparison else ()
        for row, node in enumerate(nodes):
            self.table.setRowHidden(row, only and not node.changed)

    # Outputs ----------------------------------------------------------------------------

    def _show_outputs(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or self.comparison is None:
            self._clear_outputs(NOTHING_SELECTED)
            return
        node = self.comparison.nodes[rows[0].row()]
        label = self.labels.get(node.node_id, node.node_id)
        same = "differ" if node.output_differs else "are the same"
        self.outputs_caption.setText(f"Outputs of '{label}' (left | right): they {same}")
        for view, side in zip(self.outputs, (node.left, node.right), strict=True):
            _show_output(view, side)

    def _clear_outputs(self, caption: str) -> None:
        self.outputs_caption.setText(caption)
        for view in self.outputs:
            view.show_nothing("")


def _status_cell(side: NodeSide | None, dark: bool) -> tuple[str, QColor | None, str]:
    """A status cell's words, colour and icon."""
    if side is None:
        return ABSENT, None, ""
    look = status_look(side.status)
    reason = f": {side.error.get('type', 'error')}" if side.error else ""
    return look.text + reason, look.colour(dark), look.icon


def _show_output(view: JsonView, side: NodeSide | None) -> None:
    if side is None:
        view.show_nothing("Not in this run's version")
    elif side.output is None and side.error:
        view.show_value({"error": side.error})
    elif side.output is None:
        view.show_nothing("No output")
    else:
        view.show_value(side.output)
