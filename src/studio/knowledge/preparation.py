"""Preparing artifacts to land: lint and derive, the part of landing that needs no store.

A folder is prepared on every core (each worker reads, lints and derives a chunk of files)
while the landing process decides supersession and writes; one artifact is prepared where it
is landed. What ``supersedes`` names (a landed version, the current one of the same artifact,
dated no later) is left to the lander, which knows what has landed so far."""

import multiprocessing
import os
from collections.abc import Generator, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from studio.knowledge.derivation import derive
from studio.knowledge.front_matter import artifact_ref, read_front_matter, split_artifact
from studio.knowledge.item_types import DEFAULT_REGISTRY, ItemTypeRegistry
from studio.knowledge.lint import lint_artifact
from studio.model.knowledge import ArtifactVersion, FrontMatter
from studio.model.problems import Problem
from studio.store.knowledge import EncodedDerivation, encode_derivation

CHUNK = 48
"""Files a worker prepares per task."""
PARALLEL_FROM = 96
"""Below this many files, starting workers costs more than it saves."""
_UNLANDED = datetime.fromtimestamp(0, UTC)


@dataclass(frozen=True)
class Prepared:
    """An artifact checked and derived, or the problems that keep it from landing."""

    source: str
    text: str
    problems: tuple[Problem, ...] = ()
    front: FrontMatter | None = None
    derivation: EncodedDerivation | None = None
    """The rows derived from it, in their stored form (which leaves their version out, so
    they hold whatever ref the artifact lands under)."""


def prepare(source: str, text: str, registry: ItemTypeRegistry = DEFAULT_REGISTRY) -> Prepared:
    """Lint and derive one artifact (supersedes resolution aside)."""
    problems = lint_artifact(text, known_refs=_any_ref, registry=registry)
    if problems:
        return Prepared(source, text, tuple(problems))
    data, body, body_line = split_artifact(text)
    front = read_front_matter(data)
    version = ArtifactVersion(artifact_ref(front), front, "", _UNLANDED)
    derivation = derive(version, body, body_line, registry)
    return Prepared(source, text, (), front, EncodedDerivation(encode_derivation(derivation)))


def prepare_files(
    paths: list[Path], registry: ItemTypeRegistry = DEFAULT_REGISTRY
) -> Generator[Prepared, None, None]:
    """Prepared files in the order given, on every core when there are enough of them."""
    workers = min(len(paths) // CHUNK + 1, os.cpu_count() or 1)
    if len(paths) < PARALLEL_FROM or workers < 2 or "fork" not in _start_methods():
        yield from (_prepare_file(path, registry) for path in paths)
        return
    global _worker_registry
    _worker_registry = registry  # forked workers inherit it; it is not sent to them
    context = multiprocessing.get_context("fork")
    chunks = [paths[start : start + CHUNK] for start in range(0, len(paths), CHUNK)]
    pool = ProcessPoolExecutor(workers, mp_context=context)
    finished = False
    try:
        for prepared in pool.map(_prepare_chunk, chunks):
            yield from prepared
        finished = True
    finally:
        # Stopped early (a rejected file, an error, the generator closed): the chunks not
        # started are dropped rather than prepared for nothing; only those running finish.
        pool.shutdown(wait=True, cancel_futures=not finished)


_worker_registry: ItemTypeRegistry = DEFAULT_REGISTRY


def _prepare_chunk(paths: Iterable[Path]) -> list[Prepared]:
    return [_prepare_file(path, _worker_registry) for path in paths]


def _prepare_file(path: Path, registry: ItemTypeRegistry) -> Prepared:
    return prepare(str(path), path.read_text(encoding="utf-8"), registry)


def _any_ref(_ref: str) -> bool:
    return True


def _start_methods() -> list[str]:
    return multiprocessing.get_all_start_methods()
