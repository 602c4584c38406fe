"""The selected step or compensation of an execution: its error in words, its input and output
as a table, a tree or raw JSON, and its raw error as coloured JSON."""

from html import escape
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from studio.model.execution import COMPLETED, NodeResult
from studio.ui.icon_label import IconLabel
from studio.ui.panels.inline_message import message_colour, window_is_dark
from studio.ui.run.data_view import DataView
from studio.ui.run.execution_rows import CompensationEntry, error_lines
from studio.ui.run.json_view import JsonView
from studio.ui.run.object_names import named
from studio.ui.run.status_look import StatusLook, node_look, status_look

NOTHING_SELECTED = "Select a step or a compensation to see its input and output."
INPUT_TAB, OUTPUT_TAB, ERROR_TAB = 0, 1, 2


class ExecutionInspector(QWidget):
    """Input, output and error of one step or one compensation; ``samplePinned`` carries a
    node id and the step output the person pinned as that node's sample data."""

    samplePinned = Signal(str, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = named(IconLabel(), "inspectorTitle")
        self.title.setWordWrap(True)
        self.error_details = named(QLabel(), "errorDetails")
        self.error_details.setWordWrap(True)
        self.error_details.setTextFormat(Qt.TextFormat.PlainText)
        self.error_details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.input_view, self.output_view, self.error_view = DataView(), DataView(), JsonView()
        self._node_id: str | None = None  # the step shown, whose output may be pinned
        self.output_view.pinRequested.connect(self._pin)
        for view, name in (
            (self.input_view, "inputView"),
            (self.output_view, "outputView"),
            (self.error_view, "errorView"),
        ):
            view.setObjectName(name)
        self.tabs = named(QTabWidget(), "inspectorTabs")
        self.tabs.addTab(self.input_view, "Input")
        self.tabs.addTab(self.output_view, "Output")
        self.tabs.addTab(self.error_view, "Error")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.error_details)
        layout.addWidget(self.tabs, 1)
        self.show_nothing()

    def show_nothing(self) -> None:
        """Show that nothing is selected."""
        self.title.setText(NOTHING_SELECTED)
        self.title.set_icon(None)
        self._node_id = None
        self._show_error(None, [])
        self.input_view.show_nothing("")
        self.output_view.show_nothing("")

    def show_step(self, label: str, result: NodeResult) -> None:
        """Show a step's input, output and, when it failed, its error."""
        look = node_look(result.status, result.error)
        self._show_title(f"<b>{escape(label)}</b><br>{look.text}", look)
        self._node_id = result.node_id
        self.output_view.set_pinnable(True)
        self._show_value(self.input_view, result.input, result.started_at is not None, "Not run")
        self._show_value(self.output_view, result.output, result.status == COMPLETED, "No output")
        failed = result.status == "failed"
        self._show_error(result.error if failed else None, error_lines(result.error))
        self.tabs.setCurrentIndex(ERROR_TAB if failed else OUTPUT_TAB)

    def show_compensation(self, label: str, entry: CompensationEntry) -> None:
        """Show a compensation's arguments, result and, when it failed, its raw error with the
        failure class and recommended action it was filed under."""
        look = status_look(entry.status)
        self._node_id = None
        self.output_view.set_pinnable(False)
        self._show_title(
            f"<b>Compensation of {escape(label)}</b> ({escape(entry.tool)})<br>{look.text}", look
        )
        result = entry.result
        self._show_value(self.input_view, result and result.input, result is not None, "Not run")
        done = result is not None and entry.status == "compensated"
        self._show_value(self.output_view, result and result.output, done, "No result")
        failed = entry.status == "compensation_failed"
        lines = error_lines(entry.error, entry.failure_class, entry.recommended_action)
        self._show_error(entry.error if failed else None, lines)
        self.tabs.setCurrentIndex(ERROR_TAB if failed else OUTPUT_TAB)

    @staticmethod
    def _show_value(view: DataView, value: Any, present: bool, absent: str) -> None:
        if present:
            view.show_value(value)
        else:
            view.show_nothing(absent)

    def _show_title(self, text: str, look: StatusLook) -> None:
        self.title.setText(text)
        self.title.set_icon(look.icon, look.colour(window_is_dark()))

    def _show_error(self, error: dict[str, Any] | None, lines: list[str]) -> None:
        self.tabs.setTabEnabled(ERROR_TAB, error is not None)
        self.error_details.setVisible(error is not None)
        if error is None:
            self.error_view.show_nothing("No error")
            self.error_details.setText("")
            return
        self.error_view.show_value(error)
        self.error_details.setText("\n".join(lines))
        self.error_details.setStyleSheet(f"color: {message_colour('error')};")

    def _pin(self, value: Any) -> None:
        if self._node_id is not None:
            self.samplePinned.emit(self._node_id, value)
