"""Autosave: an editor's changes reach the store at most once per 3 s, with the version the
editor loaded (optimistic locking). A conflict asks the person; a failure keeps the change
and retries. The store is written on the store thread: the editor never waits for a database
another program holds, except when the person asks for a save and its answer (closing a tab,
publishing, running), and then for at most ``SAVE_WAIT_SECONDS``."""

import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from enum import Enum

from PySide6.QtCore import QObject, QTimer, Signal

from studio.model import Workflow
from studio.model.errors import ConflictError, StudioError
from studio.store import WorkflowRepository
from studio.store.errors import StorageFaultError
from studio.ui.store_calls import StoreCalls

DEBOUNCE_MS = 3000
RETRY_MS = 5000
SAVE_WAIT_SECONDS = 3.0
"""How long ``save_now`` waits for the store before saying the save is still on its way."""
STILL_SAVING = "the database is busy; still saving"


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


@dataclass(frozen=True)
class SaveAnswer:
    """What the store said to one save: the stored workflow, or theirs after a conflict."""

    mine: Workflow
    stored: Workflow | None = None
    theirs: Workflow | None = None


class Autosaver(QObject):
    """Saves one editor's document through the repository, on the store thread."""

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
        parent: QObject | None = None,
        store: StoreCalls | None = None,
    ) -> None:
        super().__init__(parent)
        self.repository, self.snapshot = repository, snapshot
        self.version = version
        self.resolve_conflict = resolve_conflict
        self.state = SaveState.SAVED
        self.last_error: str | None = None
        self._store = store or StoreCalls(parent=self)
        self._saving: Future[SaveAnswer] | None = None  # the save the store has not answered
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self.save_soon)

    def changed(self) -> None:
        """The document changed: save within the debounce interval."""
        self._set_state(SaveState.UNSAVED)
        self._timer.start(DEBOUNCE_MS)

    @property
    def has_unsaved_changes(self) -> bool:
        """Whether closing now would lose something."""
        return self.state is not SaveState.SAVED

    @property
    def is_saving(self) -> bool:
        """Whether a save is on its way to the store."""
        return self._saving is not None

    def stored_elsewhere(self, stored: Workflow) -> None:
        """Publishing stored a new version; later saves build on it."""
        self.version = stored.version

    def discard_changes(self) -> None:
        """Forget the unsaved changes (the workflow was deleted): nothing more is saved."""
        self._timer.stop()
        self._saving = None
        self._set_state(SaveState.SAVED)

    def save_soon(self) -> None:
        """Save without waiting (what the timer does); the answer arrives later."""
        self._timer.stop()
        if self._saving is None and self.state is not SaveState.SAVED:
            self._submit()

    def save_now(self) -> bool:
        """Save and wait for the answer (at most ``SAVE_WAIT_SECONDS``); True when the store
        has every change. False leaves the changes kept and, when the store is only slow,
        the save on its way (``last_error`` says which)."""
        self._timer.stop()
        deadline = time.monotonic() + SAVE_WAIT_SECONDS
        if self._saving is not None and not self._settle_by(self._saving, deadline):
            return False
        if self.state is SaveState.SAVED:
            return True
        return self._settle_by(self._submit(), deadline) and self.state is SaveState.SAVED

    def _submit(self) -> "Future[SaveAnswer]":
        self._set_state(SaveState.SAVING)
        mine, version = self.snapshot(), self.version
        future = self._store.store_thread.call(lambda: self._write(mine, version))
        self._saving = future
        self._store.deliver(
            future, lambda _answer: self._settle(future), lambda _failure: self._settle(future)
        )
        return future

    def _write(self, mine: Workflow, version: int) -> SaveAnswer:
        """On the store thread: store mine, or read theirs when someone saved first."""
        try:
            return SaveAnswer(mine, stored=self.repository.update(mine, version))
        except ConflictError:
            if mine.id is None:  # never stored, so no one can have saved it first
                raise
            return SaveAnswer(mine, theirs=self.repository.get(mine.id))

    def _settle_by(self, future: "Future[SaveAnswer]", deadline: float) -> bool:
        """Wait for a save's answer until ``deadline`` and act on it; False when it is late."""
        if not self._store.wait(future, max(0.0, deadline - time.monotonic())):
            self.last_error = STILL_SAVING
            return False
        self._settle(future)
        return True

    def _settle(self, future: "Future[SaveAnswer]") -> None:
        if future is not self._saving:
            return  # already acted on (``save_now`` waited for it)
        self._saving = None
        changed_meanwhile = self.state is SaveState.UNSAVED
        failure = future.exception()
        if isinstance(failure, StorageFaultError):  # a full disk, a read-only or damaged file
            first = self.last_error != str(failure)
            self._failed(str(failure))
            if first:
                self.faulted.emit(failure)
        elif isinstance(failure, StudioError):
            self._failed(str(failure))
        elif failure is not None:  # disk full, database locked: keep the change, retry
            self._failed(f"{type(failure).__name__}: {failure}")
        else:
            answer = future.result()
            if answer.stored is not None:
                self._stored(answer.stored, changed_meanwhile)
            elif answer.theirs is not None:
                self._resolve(answer.mine, answer.theirs)

    def _resolve(self, mine: Workflow, theirs: Workflow) -> None:
        choice = self.resolve_conflict(mine, theirs)
        self.version = theirs.version
        if choice is ConflictChoice.RELOAD_THEIRS:
            self.reloaded.emit(theirs)
            self._set_state(SaveState.SAVED)
            return
        if choice is ConflictChoice.KEEP_MINE_AS_COPY:
            self._keep_as_copy(mine.model_copy(update={"name": f"{mine.name} (my copy)"}))
            self._set_state(SaveState.SAVED)
            self.reloaded.emit(theirs)  # this tab follows theirs; mine opens as the copy
            return
        self._set_state(SaveState.UNSAVED)
        self.save_now()

    def _keep_as_copy(self, copy: Workflow) -> None:
        future = self._store.store_thread.call(lambda: self.repository.create(copy))
        if self._store.wait(future, SAVE_WAIT_SECONDS):
            self._copy_answered(future)
        else:
            self._store.deliver(
                future,
                lambda _copy: self._copy_answered(future),
                lambda _f: self._copy_answered(future),
            )

    def _copy_answered(self, future: "Future[Workflow]") -> None:
        failure = future.exception()
        if failure is None:
            self.copied.emit(future.result())
        elif isinstance(failure, StorageFaultError):
            self.faulted.emit(failure)
        else:  # mine is still one Undo away in the editor
            self.last_error = f"your copy was not stored: {failure}"

    def _failed(self, message: str) -> None:
        self.last_error = message
        self._set_state(SaveState.FAILED)
        self._timer.start(RETRY_MS)

    def _stored(self, stored: Workflow, changed_meanwhile: bool) -> None:
        self.version = stored.version
        self.last_error = None
        if changed_meanwhile:  # edits made while it was saved go in the next save
            self._timer.start(DEBOUNCE_MS)
        else:
            self._set_state(SaveState.SAVED)
        self.saved.emit(stored)

    def _set_state(self, state: SaveState) -> None:
        if state is not self.state:
            self.state = state
            self.stateChanged.emit(state)
