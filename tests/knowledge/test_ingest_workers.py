"""A large ingest prepares its files on worker processes; a file rejected early stops them:
the chunks not started yet are dropped, so the ingest ends at once instead of after every
file of the folder has been read, linted and derived for nothing."""

import multiprocessing
import os
import time
from pathlib import Path

import pytest

from studio.knowledge import preparation
from studio.knowledge.knowledge_base import KnowledgeBase
from studio.knowledge.landing import ArtifactRejectedError
from studio.workspace import Workspace

CHUNKS = 20
LOG = "STUDIO_TEST_PREPARED_CHUNKS"
"""The file each worker notes a chunk in (workers are forked, so they inherit it)."""

ARTIFACT = """\
---
id: note-{number}
kind: notes
subject: bulk
title: Note {number}
produced_by: {{capability: writing}}
created_at: 2026-09-{day:02d}T10:00:00Z
---
# Note {number}
"""

prepare_chunk = preparation._prepare_chunk


def noted_chunk(paths: list[Path]) -> list[preparation.Prepared]:
    """A chunk prepared as usual, a little slower, and noted in the log."""
    with open(os.environ[LOG], "a", encoding="utf-8") as log:
        log.write("chunk\n")
    time.sleep(0.05)
    return prepare_chunk(paths)


@pytest.mark.skipif(
    (os.cpu_count() or 1) < 2 or "fork" not in multiprocessing.get_all_start_methods(),
    reason="folders are prepared on worker processes only with two cores and fork",
)
def test_a_file_rejected_early_stops_the_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    for number in range(CHUNKS * preparation.CHUNK):
        text = ARTIFACT.format(number=number, day=2 + number % 20)
        (folder / f"{number:04d}.md").write_text(text, encoding="utf-8")
    first = ARTIFACT.format(number="x", day=1).replace("title: Note x\n", "")
    (folder / "first.md").write_text(first, encoding="utf-8")  # lands first, and is refused
    log = tmp_path / "chunks.log"
    log.touch()
    monkeypatch.setenv(LOG, str(log))
    monkeypatch.setattr(preparation, "_prepare_chunk", noted_chunk)
    workspace = Workspace()
    knowledge: KnowledgeBase = workspace.knowledge

    with pytest.raises(ArtifactRejectedError, match=r"first\.md was not landed"):
        knowledge.ingest(folder)

    assert multiprocessing.active_children() == []  # no worker left running
    prepared = len(log.read_text(encoding="utf-8").splitlines())
    assert prepared < CHUNKS // 2, f"{prepared} of {CHUNKS + 1} chunks were prepared"
    assert knowledge.repository.refs() == set()
    workspace.close()
