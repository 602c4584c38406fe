"""Where controllers tell the person something: the status bar for news, a dialog for a
problem, the storage-fault dialog for a database that failed under the app."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow, QMessageBox, QWidget

from studio.store.errors import StorageFaultError
from studio.ui.storage_fault_notice import StorageFaultNotice


class StatusSink:
    """The window's status bar and dialogs, handed to every controller."""

    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        self.storage_faults = StorageFaultNotice(window)

    def show(self, text: str, milliseconds: int = 6000) -> None:
        """A short message in the status bar."""
        self.window.statusBar().showMessage(text, milliseconds)

    def problem(self, message: str) -> QMessageBox:
        """A warning about a run the person reads and dismisses; the app carries on while it
        is up."""
        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Run")
        box.setText(message)
        box.setObjectName("runProblem")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): runs keep going while the message is up
        return box

    def fault(self, fault: StorageFaultError, consequence: str = "") -> None:
        """The database failed under the app: say so once, with what was kept."""
        self.storage_faults.report(fault, consequence)

    def add_permanent(self, widget: QWidget) -> None:
        """A widget that stays at the right of the status bar (run progress, notices)."""
        self.window.statusBar().addPermanentWidget(widget)

    def dialog_parent(self) -> QWidget:
        """The widget dialogs are centred on."""
        return self.window
