"""Landing from the app as a person does it: drop a folder or files on the view (or choose them
in the File menu), watch the progress, cancel a long ingest, read why a file did not land.

A drop lands only when every file in it can: a binary file, or one that fails the lint, lands
nothing and is listed with why. The work runs on the store thread; the window keeps ticking."""

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QFileDialog, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from studio.engine.store_thread import shared_store_thread
from studio.knowledge.drop_check import FileProblem
from studio.knowledge.knowledge_base import KnowledgeBase
from studio.ui.knowledge.landing import (
    DropTarget,
    LandingController,
    accepts_drop,
    choose_and_ingest_folder,
    choose_and_land_files,
    paths_of,
)
from studio.ui.knowledge.landing_dialogs import NOTHING_LANDED, LandingDialogs
from studio.workspace import Workspace

FIXTURE = Path(__file__).resolve().parents[2] / "knowledge" / "fixtures" / "checkout-redesign"
FIRST = FIXTURE / "2026-09-01-requirements.md"
REVISED = FIXTURE / "2026-09-08-requirements.md"
REVISED_REF = "checkout-redesign/requirements/2026-09-08-requirements.md"
FIRST_REF = "checkout-redesign/requirements/2026-09-01-requirements.md"
LARGE = 300
WAIT_MS = 30_000
T = TypeVar("T")

NOTE = """\
---
id: note-{number}
kind: notes
subject: bulk
title: Note {number}
produced_by: {{capability: writing}}
created_at: 2026-09-{day:02d}T10:{minute:02d}:00Z
---
# Note {number}

## Why

{words}

```yaml requirement
id: R-{number}
title: Requirement {number}
priority: must
text: {words}
```
"""


class Landing:
    """A controller with its dialogs on a widget that takes drops, and what it signalled."""

    def __init__(self, qtbot: QtBot, workspace: Workspace) -> None:
        self.view = QWidget()
        qtbot.addWidget(self.view)
        self.controller = LandingController(lambda: workspace.knowledge, parent=self.view)
        self.dialogs = LandingDialogs(self.controller, self.view)
        DropTarget(self.view, self.controller)
        self.qtbot, self.workspace = qtbot, workspace
        self.landed: list[list[str]] = []
        self.failed: list[list[FileProblem]] = []
        self.progress: list[tuple[int, int, str]] = []
        self.checking: list[tuple[int, int]] = []
        self.controller.landed.connect(self.landed.append)
        self.controller.failed.connect(self.failed.append)
        self.controller.progress.connect(lambda *args: self.progress.append(args))
        self.controller.checking.connect(lambda *args: self.checking.append(args))

    def drop(self, *paths: Path) -> None:
        """Drag the paths over the view and drop them, as a file manager does."""
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
        enter = QDragEnterEvent(
            QPoint(20, 20),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
        QApplication.sendEvent(self.view, enter)
        assert enter.isAccepted()
        drop = QDropEvent(
            QPointF(20, 20),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
        QApplication.sendEvent(self.view, drop)
        assert drop.isAccepted()

    def wait_until_finished(self) -> None:
        with self.qtbot.waitSignal(self.controller.finished, timeout=WAIT_MS):
            pass

    def drop_and_wait(self, *paths: Path) -> None:
        with self.qtbot.waitSignal(self.controller.finished, timeout=WAIT_MS):
            self.drop(*paths)

    def on_store(self, read: Callable[[KnowledgeBase], T]) -> T:
        """Read the store where the window reads it: on the store thread."""
        return shared_store_thread().call(lambda: read(self.workspace.knowledge)).result(10)


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    workspace = Workspace(database=str(tmp_path / "k.db"))
    yield workspace
    shared_store_thread().call(workspace.close).result(30)


@pytest.fixture
def landing(qtbot: QtBot, workspace: Workspace) -> Landing:
    return Landing(qtbot, workspace)


def write_notes(folder: Path, count: int) -> Path:
    folder.mkdir()
    words = " ".join(["The checkout keeps the cart and takes wallets."] * 8)
    for number in range(count):
        day, minute = 1 + number // 60, number % 60
        text = NOTE.format(number=number, day=day, minute=minute, words=words)
        (folder / f"{number:04d}.md").write_text(text, encoding="utf-8")
    return folder


def test_a_dropped_folder_lands_every_version_with_progress(landing: Landing) -> None:
    landing.drop_and_wait(FIXTURE)

    assert landing.failed == []
    assert len(landing.landed) == 1 and len(landing.landed[0]) == 6
    assert landing.checking[-1] == (6, 6)
    done = [step[0] for step in landing.progress]
    assert done == sorted(done) and landing.progress[-1][:2] == (6, 6)
    assert landing.progress[-1][2].endswith(".md")
    versions = landing.on_store(lambda kb: kb.repository.versions(subject="checkout-redesign"))
    assert sorted(v.ref for v in versions) == sorted(landing.landed[0])
    assert not landing.dialogs.progress.isVisible()
    assert landing.dialogs.problems is None


def test_a_binary_file_dropped_with_a_good_one_lands_nothing_and_says_why(
    landing: Landing, tmp_path: Path
) -> None:
    picture = tmp_path / "diagram.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
    latin = tmp_path / "notes.md"
    latin.write_bytes("caf\xe9 au lait".encode("latin-1"))

    landing.drop_and_wait(picture, FIRST, latin)

    assert landing.landed == []
    assert landing.on_store(lambda kb: kb.heads()) == []
    [problems] = landing.failed
    reasons = {problem.path.name: problem.messages for problem in problems}
    assert set(reasons) == {"diagram.png", "notes.md"}
    assert "binary" in reasons["diagram.png"][0]
    assert "not UTF-8" in reasons["notes.md"][0]
    dialog = landing.dialogs.problems
    assert dialog is not None and dialog.isVisible()
    assert NOTHING_LANDED in dialog.heading
    assert [path.name for path, _messages in dialog.listed()] == ["diagram.png", "notes.md"]


def test_a_file_failing_lint_is_listed_with_its_lint_messages(
    landing: Landing, tmp_path: Path
) -> None:
    text = FIRST.read_text(encoding="utf-8")
    untitled = tmp_path / "untitled.md"
    untitled.write_text(text.replace("title: Checkout requirements\n", "", 1), encoding="utf-8")
    broken_item = tmp_path / "broken-item.md"
    broken_item.write_text(text.replace("priority: must", "priority: [must", 1), "utf-8")

    landing.drop_and_wait(untitled, broken_item, REVISED)

    assert landing.landed == []
    assert landing.on_store(lambda kb: kb.heads()) == []
    [problems] = landing.failed
    reasons = {problem.path.name: problem.messages for problem in problems}
    assert reasons["untitled.md"] == (
        "front matter: title: required field 'title' is missing; expected one of id, kind, "
        "subject, title, produced_by, created_at",
    )
    [item_problem] = reasons["broken-item.md"]
    assert item_problem.startswith("line 20: yaml requirement: ")
    assert "2026-09-08-requirements.md" not in reasons


def test_loose_files_land_in_date_order_whatever_order_they_are_dropped_in(
    landing: Landing,
) -> None:
    landing.drop_and_wait(REVISED, FIRST)

    assert landing.failed == []
    [refs] = landing.landed
    assert refs == [FIRST_REF, REVISED_REF]
    assert [step[:2] for step in landing.progress] == [(1, 2), (2, 2)]
    heads = landing.on_store(lambda kb: kb.heads(subject="checkout-redesign"))
    assert [v.ref for v in heads] == [REVISED_REF]


def test_a_file_only_landing_can_refuse_stops_the_landing_there(
    landing: Landing, tmp_path: Path
) -> None:
    orphan = tmp_path / "orphan.md"
    text = REVISED.read_text(encoding="utf-8")
    orphan.write_text(text.replace("2026-09-01-requirements.md", "2026-08-01-nothing.md"), "utf-8")

    landing.drop_and_wait(orphan, FIRST)

    assert landing.landed == [[FIRST_REF]]
    [[problem]] = landing.failed
    assert problem.path == orphan and "was not landed" in problem.messages[0]
    assert any("2026-08-01-nothing.md" in message for message in problem.messages[1:])
    dialog = landing.dialogs.problems
    assert dialog is not None and "1 file landed before landing stopped" in dialog.heading


def test_cancel_stops_a_large_ingest_and_keeps_the_store_whole(
    landing: Landing, tmp_path: Path
) -> None:
    folder = write_notes(tmp_path / "notes", LARGE)
    cancel = landing.dialogs.progress.findChild(QPushButton)
    assert cancel is not None
    landing.controller.progress.connect(
        lambda *_args: cancel.click() if cancel.isVisible() else None
    )

    landing.drop_and_wait(folder)

    assert landing.controller.was_cancelled
    [refs] = landing.landed
    assert 0 < len(refs) < LARGE
    heads = landing.on_store(lambda kb: kb.heads(subject="bulk"))
    assert sorted(v.ref for v in heads) == sorted(refs)
    assert landing.on_store(lambda kb: kb.verify().damaged) == []
    assert not landing.dialogs.progress.isVisible()


def test_the_window_keeps_ticking_while_a_large_folder_lands(
    landing: Landing, tmp_path: Path
) -> None:
    folder = write_notes(tmp_path / "notes", LARGE)
    ticks: list[int] = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(1) if landing.controller.busy else None)
    timer.start()

    landing.drop_and_wait(folder)
    timer.stop()

    assert [len(refs) for refs in landing.landed] == [LARGE]
    assert len(ticks) >= 5
    assert len(landing.on_store(lambda kb: kb.heads(subject="bulk"))) == LARGE


def test_a_second_drop_while_one_runs_is_refused(landing: Landing, tmp_path: Path) -> None:
    folder = write_notes(tmp_path / "notes", 30)

    assert landing.controller.land_paths([folder])
    assert landing.controller.busy
    assert not landing.controller.land_paths([FIRST])
    landing.wait_until_finished()

    assert [len(refs) for refs in landing.landed] == [30]
    assert not landing.controller.busy


def test_only_drags_of_local_files_are_taken() -> None:
    words = QMimeData()
    words.setText("REQ-1")
    web = QMimeData()
    web.setUrls([QUrl("https://example.com/a.md")])
    files = QMimeData()
    files.setUrls([QUrl.fromLocalFile(str(FIRST)), QUrl("https://example.com/b.md")])

    assert not accepts_drop(words) and not accepts_drop(web)
    assert accepts_drop(files)
    assert paths_of(files) == [FIRST]


def test_the_file_menu_choices_land_what_was_chosen(
    landing: Landing, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        QFileDialog, "getOpenFileNames", lambda *_args: ([str(FIRST)], "Markdown files (*.md)")
    )
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *_args: str(FIXTURE))

    with landing.qtbot.waitSignal(landing.controller.finished, timeout=WAIT_MS):
        assert choose_and_land_files(landing.view, landing.controller)
    with landing.qtbot.waitSignal(landing.controller.finished, timeout=WAIT_MS):
        assert choose_and_ingest_folder(landing.view, landing.controller)

    assert [len(refs) for refs in landing.landed] == [1, 6]
    assert landing.failed == []


def test_a_missing_path_or_a_folder_without_markdown_is_named(
    landing: Landing, tmp_path: Path
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()

    with landing.qtbot.waitSignal(landing.controller.finished, timeout=WAIT_MS):
        landing.controller.land_paths([empty, tmp_path / "gone.md", FIRST])

    [problems] = landing.failed
    assert {p.path.name: p.messages[0] for p in problems} == {
        "empty": "the folder holds no Markdown (.md) files",
        "gone.md": "there is no such file or folder",
    }
    assert landing.landed == []


def test_a_store_that_cannot_be_opened_is_said_per_file_and_nothing_lands(
    qtbot: QtBot, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the database's folder should be", encoding="utf-8")
    workspace = Workspace(database=str(blocker / "k.db"))
    landing = Landing(qtbot, workspace)

    landing.drop_and_wait(FIRST)

    [[problem]] = landing.failed
    assert problem.path == FIRST and problem.messages[0].startswith("could not be checked: ")
    assert landing.landed == [] and not landing.controller.busy
