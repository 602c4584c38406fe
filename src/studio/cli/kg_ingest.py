"""``studio kg ingest``: a folder lands file by file in date order; a file that cannot be
read or is rejected is reported with why, and the others land all the same."""

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from studio.knowledge.collection_pause import collection_paused
from studio.knowledge.drop_check import describe, folder_files
from studio.knowledge.knowledge_base import INGEST_BATCH, KnowledgeBase
from studio.knowledge.landing import ArtifactRejectedError, LandingBatch
from studio.model.text_files import UnreadableFileError, read_text_file

Progress = Callable[[int, int, Path], None]


@dataclass
class IngestOutcome:
    """What an ingest landed (refs, in landing order) and the files that did not land."""

    refs: list[str] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)
    """Each file that did not land, with why."""


def ingest_each(
    knowledge: KnowledgeBase, folder: Path, progress: Progress | None = None
) -> IngestOutcome:
    """Land every ``*.md`` file of ``folder`` (README.md excepted) in date order, as
    ``KnowledgeBase.ingest`` does, but past the files that cannot land: each is kept with its
    reason. Stored ``INGEST_BATCH`` artifacts at a time."""
    files, outcome = folder_files(folder), IngestOutcome()
    batch = LandingBatch(knowledge.repository, knowledge.registry, bulk=True)
    with collection_paused():
        try:
            for done, path in enumerate(files, start=1):
                _land_one(batch, path, outcome)
                if len(batch) >= INGEST_BATCH:
                    batch.commit()
                if progress is not None:
                    progress(done, len(files), path)
        finally:
            batch.commit()
    return outcome


def _land_one(batch: LandingBatch, path: Path, outcome: IngestOutcome) -> None:
    try:
        outcome.refs.append(batch.add(read_text_file(path), source=str(path)))
    except UnreadableFileError as unreadable:
        outcome.failed.append((path, unreadable.reason))
    except ArtifactRejectedError as rejected:
        outcome.failed.append((path, "; ".join(describe(p) for p in rejected.problems)))
