"""An ingest asked to stop stops between files: the files landed before stay landed (their
batch is committed), the rest are not landed, and the store stays whole."""

from pathlib import Path

from studio.knowledge.knowledge_base import KnowledgeBase
from studio.workspace import Workspace

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
"""
FILES = 150
STOP_AFTER = 40


def write_notes(folder: Path, count: int) -> None:
    folder.mkdir()
    for number in range(count):
        text = NOTE.format(number=number, day=1 + number // 60, minute=number % 60)
        (folder / f"{number:04d}.md").write_text(text, encoding="utf-8")


def test_a_cancelled_ingest_keeps_what_landed_and_lands_no_more(tmp_path: Path) -> None:
    write_notes(tmp_path / "notes", FILES)
    workspace = Workspace(database=str(tmp_path / "k.db"))
    knowledge: KnowledgeBase = workspace.knowledge
    seen: list[int] = []

    refs = knowledge.ingest(
        tmp_path / "notes",
        lambda done, _total, _path: seen.append(done),
        batch_size=16,
        cancelled=lambda: len(seen) >= STOP_AFTER,
    )

    assert len(refs) == STOP_AFTER
    heads = knowledge.heads(subject="bulk")
    assert sorted(v.ref for v in heads) == sorted(refs)
    assert {v.artifact_id for v in heads} == {f"note-{n}" for n in range(STOP_AFTER)}
    assert knowledge.verify().damaged == []
    workspace.close()


def test_an_ingest_never_cancelled_lands_every_file(tmp_path: Path) -> None:
    write_notes(tmp_path / "notes", 20)
    workspace = Workspace(database=str(tmp_path / "k.db"))

    refs = workspace.knowledge.ingest(tmp_path / "notes", cancelled=lambda: False)

    assert len(refs) == 20
    assert len(workspace.knowledge.heads(subject="bulk")) == 20
    workspace.close()
