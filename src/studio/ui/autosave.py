"""Autosave: an editor's changes reach the store at most once per 3 s, with the version the
editor loaded (optimistic locking). A conflict asks the person; a failure keeps the change
and retries."""

from collections.abc import Callable
from enum import Enum

from PySide6.QtCore import QObject, QTimer, Signal

from studio.model import Workflow
from studio.model.errors import ConflictError, StudioError
from studio.store import WorkflowRepository
from studio.store.errors import StorageFaultError

DEBOUNCE_MS = 3000
RETRY_MS = 5000


class SaveState(Enum):
    """What the person sees next to the workflow's name."""

    SAVED = "saved"
    UNSAVED = "unsaved"
    SAVING = "saving"
    FAILED = "not saved"


class ConflictChoice(Enum):
    """The answers to "someone else saved this workflow first"."""

    RELOAD_THEIRS = "reload"
    KEEP_MINE_AS_COPY = "copy"
    OVERWRITE = "overwrite"


ConflictResolver = Callable[[Workflow, Workflow], ConflictChoice]


class Autosaver(QObject):
    """Saves one editor's document through the repository."""

    stateChanged = Signal(object)  # SaveState
    saved = Signal(object)  # the stored Workflow
    reloaded = Signal(object)  # theirs, after a conflict resolved by reloading
    copied = Signal(object)  # mine, stored as a new workflow after a conflict
    faulted = Signal(object)  # a StorageFaultError, once each time saving starts failing

    def __init__(
        self,
        repository: WorkflowRepository,
        snapshot: Callable[[], Workflow],
        version: int,
        resolve_conflict: ConflictResolver,
        parent=None,
    ) -> None:
        super().__init__(parent)
        self.repository, self.snapshot = repository, snapshot
        self.version = version
        self.resolve_conflict = resolve_conflict
        self.state = SaveState.SAVED
        self.last_error: str | None = None
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self.save_now)

    def changed(self) -> None:
        """The document changed: save within the debounce interval."""
        self._set_state(SaveState.UNSAVED)
        self._timer.start(DEBOUNCE_MS)

    @property
    def has_unsaved_changes(self) -> bool:
        """Whether closing now would lose something."""
        return self.state is not SaveState.SAVED

    def save_now(self) -> bool:
        """Save at once (also what the timer does); True when the store has the change."""
        self._timer.stop()
        if self.state is SaveState.SAVED:
            return True
        self._set_state(SaveState.SAVING)
        mine = self.snapshot()
        try:
            stored = self.repository.update(mine, self.version)
        except ConflictError:
            return self._resolve(mine)
        except StorageFaultError as fault:  # a full disk, a read-only or damaged file
            first = self.last_error != str(fault)
            self._failed(str(fault))
            if first:
                self.faulted.emit(fault)
            return False
        except StudioError as failure:
            return self._failed(str(failure))
        except Exception as failure:  # disk full, database locked: keep the change, retry
            return self._failed(f"{type(failure).__name__}: {failure}")
        self._stored(stored)
        return True

    def _resolve(self, mine: Workflow) -> bool:
        theirs = self.repository.get(mine.id)
        choice = self.resolve_conflict(mine, theirs)
        if choice is ConflictChoice.RELOAD_THEIRS:
            self.version = theirs.version
            self.reloaded.emit(theirs)
            self._set_state(SaveState.SAVED)
            return True
        if choice is ConflictChoice.KEEP_MINE_AS_COPY:
            copy = self.repository.create(
                mine.model_copy(update={"name": f"{mine.name} (my copy)"})
            )
            self.version = theirs.version
            self._set_state(SaveState.SAVED)
            self.reloaded.emit(theirs)  # this tab follows theirs; mine opens as the copy
            self.copied.emit(copy)
            return True
        self.version = theirs.version
        self._set_state(SaveState.UNSAVED)
        return self.save_now()

    def _failed(self, message: str) -> bool:
        self.last_error = message
        self._set_state(SaveState.FAILED)
        self._timer.start(RETRY_MS)
        return False

    def _stored(self, stored: Workflow) -> None:
        self.version = stored.version
        self.last_error = None
        self._set_state(SaveState.SAVED)
        self.saved.emit(stored)

    def _set_state(self, state: SaveState) -> None:
        if state is not self.state:
            self.state = state
            self.stateChanged.emit(state)
