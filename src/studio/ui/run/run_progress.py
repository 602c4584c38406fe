"""A run's progress outside the canvas: in the status bar and on the dock or task bar."""

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget

from studio.model.run_words import duration_words
from studio.ui.icon_label import IconLabel
from studio.ui.icons import icon
from studio.ui.panels.inline_message import window_is_dark
from studio.ui.run.launcher_progress import LauncherProgress
from studio.ui.run.object_names import named
from studio.ui.run.progress_strip import ProgressStrip
from studio.ui.run.status_look import status_look


class RunProgress(QWidget):
    """'Running Echo Demo: 3 of 5 nodes' with a bar; after the run, its result and a Show button
    so the run stays one click away once the canvas overlay has faded."""

    showRequested = Signal(str)  # execution id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.execution_id = ""
        self.label = named(IconLabel(), "runProgressText")
        self.bar = named(ProgressStrip(), "runProgressBar")
        self.bar.setFixedWidth(160)
        self.show_button = named(QToolButton(), "showRunButton")
        self.show_button.setText("Show run")
        self.show_button.setIcon(icon("show_run"))
        self.show_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.show_button.setToolTip("Show the run on the canvas again (F6)")
        self.show_button.clicked.connect(lambda: self.showRequested.emit(self.execution_id))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.label, self.bar, self.show_button):
            layout.addWidget(widget)
        self.launcher = LauncherProgress()
        self.bar.hide()
        self.show_button.hide()

    def running(self, execution_id: str, name: str, settled: int, total: int) -> None:
        """Show how far a run has come."""
        self.execution_id = execution_id
        look = status_look("running")
        self.label.setText(f"{look.text} '{name}': {settled} of {total} nodes")
        self.label.set_icon(look.icon, look.colour(window_is_dark()))
        self.bar.setRange(0, max(1, total))
        self.bar.setValue(settled)
        self.bar.show()
        self.show_button.hide()
        self.launcher.show_progress(settled / total if total else 0.0)

    def ended(self, execution_id: str, name: str, status: str, seconds: float | None) -> None:
        """Show how the run ended, with a button to show it again."""
        self.execution_id = execution_id
        look = status_look(status)
        took = "" if seconds is None else f" in {duration_words(seconds)}"
        self.label.setText(f"{look.text}: '{name}'{took}")
        self.label.set_icon(look.icon, look.colour(window_is_dark()))
        self.bar.hide()
        self.show_button.show()
        self.launcher.clear()
