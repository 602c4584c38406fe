"""Landing files and folders from the app: dropped on the view or chosen in the File menu.

A drop is checked whole before anything lands: every file is read and linted (see
``studio.knowledge.drop_check``). If any file is binary, unreadable or fails the lint,
nothing lands and each such file is listed with why. Otherwise the folders land through
``KnowledgeBase.ingest`` (date order), then the loose files one by one in date order. What
only landing can find (a ``supersedes`` that names a version which is not the current one)
stops the landing at that file: the files before it stay landed, and it is listed.

All of it runs on the store thread, never on the UI thread, and gives way to the window's
other store calls: files are checked in slices of at most ``CHECK_SLICE_SECONDS``, each its
own store call; each loose file lands in its own call. A folder lands in one call (the
ingest's supersession needs one consistent view of the heads), which commits every
``LANDING_BATCH`` files so other programs can write in between; the window's other store
calls wait for it (about half a millisecond per artifact). ``cancel`` stops between files.
"""

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, QObject, Signal
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QWidget

from studio.knowledge.drop_check import DropPlan, FileProblem, check_file, plan_drop
from studio.knowledge.knowledge_base import KnowledgeBase
from studio.knowledge.landing import ArtifactRejectedError
from studio.ui.store_calls import StoreCalls

CHECK_SLICE_SECONDS = 0.04
"""How long one store call checks files before it gives way."""
LANDING_BATCH = 100
"""Files a folder ingest stores per write transaction."""

Checked = list[tuple[Path, str | FileProblem]]


@dataclass
class _Landing:
    """One drop on its way: what to check, what was found, what landed."""

    paths: list[Path]
    stop: threading.Event = field(default_factory=threading.Event)
    plan: DropPlan = field(default_factory=DropPlan)
    files: list[Path] = field(default_factory=list)
    checked: int = 0
    texts: dict[Path, str] = field(default_factory=dict)
    problems: list[FileProblem] = field(default_factory=list)
    refs: list[str] = field(default_factory=list)
    steps: list[Path] = field(default_factory=list)
    """Folders and loose files still to land, in landing order."""


class LandingController(QObject):
    """Checks and lands dropped files and folders off the UI thread, one drop at a time."""

    started = Signal()
    checking = Signal(int, int)
    """Files checked so far, of how many."""
    progress = Signal(int, int, str)
    """Files landed so far, of how many, and the name of the last one."""
    landed = Signal(list)
    """The refs of the versions landed (strings); sent once a drop has landed what it could."""
    failed = Signal(list)
    """The files that did not land (FileProblem), each with why."""
    finished = Signal()

    def __init__(
        self,
        knowledge: Callable[[], KnowledgeBase],
        store: StoreCalls | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._knowledge = knowledge
        self.store = store or StoreCalls(parent=self)
        self._job: _Landing | None = None
        self._latest: tuple[int, int, str] | None = None
        self._latest_lock = threading.Lock()
        self.was_cancelled = False
        """Whether the last drop was cancelled."""

    @property
    def busy(self) -> bool:
        """Whether a drop is being checked or landed."""
        return self._job is not None

    def land_paths(self, paths: list[Path]) -> bool:
        """Check and land files and folders; False (and nothing done) while another runs."""
        if self._job is not None or not paths:
            return False
        job = self._job = _Landing([Path(path) for path in paths])
        self.was_cancelled = False
        self.started.emit()
        self.store.call(lambda: plan_drop(job.paths), self._planned, self._planning_failed)
        return True

    def cancel(self) -> None:
        """Stop between files: what landed stays landed, nothing more lands."""
        if self._job is not None:
            self._job.stop.set()
            self.was_cancelled = True

    # Checking ------------------------------------------------------------------------------

    def _planned(self, plan: DropPlan) -> None:
        job = self._require_job()
        job.plan, job.files = plan, plan.every_file()
        job.problems.extend(plan.problems)
        self._check_next()

    def _planning_failed(self, failure: Exception) -> None:
        job = self._require_job()
        job.problems.append(FileProblem(job.paths[0], (f"could not be read: {failure}",)))
        self._finish()

    def _check_next(self) -> None:
        job = self._require_job()
        if job.stop.is_set():
            self._finish()
        elif job.checked < len(job.files):
            start = job.checked
            self.store.call(
                lambda: self._check_slice(job.files, start), self._slice_checked, self._broken
            )
        elif job.problems:
            self._finish()
        else:
            self._start_landing()

    def _check_slice(self, files: list[Path], start: int) -> Checked:
        """On the store thread: check files from ``start`` for at most a slice's time."""
        registry = self._knowledge().registry
        deadline = time.perf_counter() + CHECK_SLICE_SECONDS
        checked: Checked = []
        for path in files[start:]:
            checked.append((path, check_file(path, registry)))
            if time.perf_counter() > deadline:
                break
        return checked

    def _slice_checked(self, checked: Checked) -> None:
        job = self._require_job()
        loose = set(job.plan.files)
        for path, outcome in checked:
            if isinstance(outcome, FileProblem):
                job.problems.append(outcome)
            elif path in loose:
                job.texts[path] = outcome
        job.checked += len(checked)
        self.checking.emit(job.checked, len(job.files))
        self._check_next()

    # Landing -------------------------------------------------------------------------------

    def _start_landing(self) -> None:
        job = self._require_job()
        job.steps = [folder for folder, _files in job.plan.folders] + list(job.plan.files)
        self._land_next()

    def _land_next(self) -> None:
        job = self._require_job()
        if job.stop.is_set() or not job.steps:
            self._finish()
            return
        step = job.steps.pop(0)
        if step in job.texts:
            landing = partial(self._land_file, step, job.texts[step])
        else:
            landing = partial(self._ingest, step, len(job.refs), len(job.files), job.stop)
        self.store.call(
            landing,
            partial(self._step_landed, step),
            partial(self._step_failed, step),
        )

    def _land_file(self, path: Path, text: str) -> list[str]:
        """On the store thread: land one checked file."""
        return [self._knowledge().land_text(text, source=str(path)).ref]

    def _ingest(self, folder: Path, done: int, total: int, stop: threading.Event) -> list[str]:
        """On the store thread: land a folder, reporting each file."""

        def report(index: int, _count: int, path: Path) -> None:
            self._report(done + index, total, path.name)

        return self._knowledge().ingest(
            folder, report, batch_size=LANDING_BATCH, cancelled=stop.is_set
        )

    def _step_landed(self, step: Path, refs: list[str]) -> None:
        job = self._require_job()
        job.refs.extend(refs)
        if step in job.texts:  # a folder's files were reported as they landed
            self.progress.emit(len(job.refs), len(job.files), step.name)
        self._land_next()

    def _step_failed(self, step: Path, failure: Exception) -> None:
        job = self._require_job()
        if isinstance(failure, ArtifactRejectedError):
            first, *lines = str(failure).splitlines()
            messages = (first, *(line.strip() for line in lines))
        else:
            messages = (f"could not be landed: {failure}",)
        job.problems.append(FileProblem(step, messages))
        self._finish()

    def _broken(self, failure: Exception) -> None:
        job = self._require_job()
        at = job.files[job.checked] if job.checked < len(job.files) else job.paths[0]
        job.problems.append(FileProblem(at, (f"could not be checked: {failure}",)))
        self._finish()

    def _finish(self) -> None:
        job = self._require_job()
        self._job = None
        if job.refs:
            self.landed.emit(list(job.refs))
        if job.problems:
            self.failed.emit(list(job.problems))
        self.finished.emit()

    # Progress from the store thread --------------------------------------------------------

    def _report(self, done: int, total: int, name: str) -> None:
        """From the store thread: note the latest progress; one delivery carries the newest."""
        with self._latest_lock:
            waiting = self._latest is not None
            self._latest = (done, total, name)
        if not waiting:
            self.store.post(self._emit_latest)

    def _emit_latest(self) -> None:
        with self._latest_lock:
            latest, self._latest = self._latest, None
        if latest is not None:
            self.progress.emit(*latest)

    def _require_job(self) -> _Landing:
        if self._job is None:
            raise RuntimeError("no landing is running")
        return self._job


# Dropping and choosing ---------------------------------------------------------------------


def paths_of(mime: QMimeData) -> list[Path]:
    """The local files and folders a drag carries."""
    if not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]


def accepts_drop(mime: QMimeData) -> bool:
    """Whether a drag carries local files or folders to land."""
    return bool(paths_of(mime))


class DropTarget(QObject):
    """Lands what is dropped on a widget (for a QGraphicsView, install it on the viewport)."""

    def __init__(self, widget: QWidget, controller: LandingController) -> None:
        super().__init__(widget)
        self.controller = controller
        widget.setAcceptDrops(True)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Accept drags of local files; land them when dropped."""
        if isinstance(event, (QDragEnterEvent, QDragMoveEvent)):
            if accepts_drop(event.mimeData()) and not self.controller.busy:
                event.acceptProposedAction()
                return True
            return False
        if isinstance(event, QDropEvent) and accepts_drop(event.mimeData()):
            event.acceptProposedAction()
            self.controller.land_paths(paths_of(event.mimeData()))
            return True
        return super().eventFilter(watched, event)


def choose_and_land_files(parent: QWidget | None, controller: LandingController) -> bool:
    """File > Land file...: choose Markdown files and land them; whether landing started."""
    chosen, _filter = QFileDialog.getOpenFileNames(
        parent, "Land files", "", "Markdown files (*.md);;All files (*)"
    )
    return bool(chosen) and controller.land_paths([Path(name) for name in chosen])


def choose_and_ingest_folder(parent: QWidget | None, controller: LandingController) -> bool:
    """File > Ingest folder...: choose a folder and land its Markdown files; whether it started."""
    chosen = QFileDialog.getExistingDirectory(parent, "Ingest a folder")
    return bool(chosen) and controller.land_paths([Path(chosen)])
