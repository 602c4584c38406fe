"""One open workflow in the main window: its editor and its autosave."""

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QMessageBox, QVBoxLayout, QWidget

from studio.model import AgentRegistry, Workflow
from studio.store import WorkflowRepository
from studio.ui.autosave import Autosaver, ConflictChoice, SaveState
from studio.ui.canvas.commands import ReplaceAll
from studio.ui.canvas.editor import WorkflowEditor
from studio.ui.run.overlay import RunOverlay
from studio.ui.run.replay_bar import ReplayBar


class WorkflowTab(QWidget):
    """An editor whose changes are saved to the store as they happen."""

    titleChanged = Signal(str)
    copyCreated = Signal(object)  # a Workflow stored as "my copy" after a conflict

    def __init__(
        self, workflow: Workflow, agents: AgentRegistry, repository: WorkflowRepository, parent=None
    ) -> None:
        super().__init__(parent)
        self.workflow_id = workflow.stored_id
        self.editor = WorkflowEditor(workflow, agents, self)
        self.overlay: RunOverlay | None = None  # the run drawn on the canvas, made on first use
        self.autosaver = Autosaver(
            repository,
            self.editor.document.snapshot,
            workflow.version,
            self.ask_about_conflict,
            self,
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.editor)
        self.replay_bar = ReplayBar(self)  # the timeline of a past run, under the canvas
        self.replay_bar.hide()
        layout.addWidget(self.replay_bar)
        self._reloading = False
        self.editor.undo_stack.indexChanged.connect(self._undo_step_changed)
        self.autosaver.stateChanged.connect(lambda _state: self.titleChanged.emit(self.title()))
        self.autosaver.reloaded.connect(self._take_theirs)
        self.autosaver.copied.connect(self.copyCreated)
        self.editor.document.subscribe(self._on_document_event)

    def title(self) -> str:
        """The tab's caption: the workflow's name, marked while changes are not saved."""
        name = self.editor.document.properties.name
        state = self.autosaver.state
        if state is SaveState.SAVED:
            return name
        return f"{name} •" if state is not SaveState.FAILED else f"{name} (not saved)"

    def ask_about_conflict(self, mine: Workflow, theirs: Workflow) -> ConflictChoice:
        """Someone saved first: reload theirs, keep mine as a copy, or overwrite."""
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Workflow changed elsewhere")
        box.setText(
            f"'{theirs.name}' was saved by another window or process "
            f"(version {theirs.version}) after you opened it."
        )
        box.setInformativeText("Nothing is lost whichever you choose.")
        reload = box.addButton("Reload theirs", QMessageBox.ButtonRole.DestructiveRole)
        copy = box.addButton("Keep mine as a copy", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Overwrite with mine", QMessageBox.ButtonRole.ApplyRole)
        box.setDefaultButton(copy)
        box.exec()
        if box.clickedButton() is reload:
            return ConflictChoice.RELOAD_THEIRS
        if box.clickedButton() is copy:
            return ConflictChoice.KEEP_MINE_AS_COPY
        return ConflictChoice.OVERWRITE

    def _take_theirs(self, theirs: Workflow) -> None:
        """Reloaded after a conflict: their version becomes the document as one undo step,
        so Undo brings mine back (and the store keeps every version anyway)."""
        self._reloading = True
        self.editor.undo_stack.push(
            ReplaceAll(self.editor.document, theirs, "Reload saved version")
        )
        self._reloading = False
        self.titleChanged.emit(self.title())

    def _undo_step_changed(self, _index: int) -> None:
        if not self._reloading:  # a reload shows what the store already holds
            self.autosaver.changed()

    def _on_document_event(self, event) -> None:
        if event.kind in ("workflow_changed", "reset"):
            self.titleChanged.emit(self.title())
