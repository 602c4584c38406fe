"""The knowledge store's four operations — land, resolve, search, list — and what is built on
them: history, the graph as of a moment, differences between moments, coverage and suspect
links, and rebuilding every derived row."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from studio.knowledge.collection_pause import collection_paused
from studio.knowledge.derivation import derive
from studio.knowledge.front_matter import split_artifact
from studio.knowledge.ingest_order import date_order
from studio.knowledge.insight import Gap, Suspect, coverage_gaps, suspect_links
from studio.knowledge.item_types import DEFAULT_REGISTRY, ItemTypeRegistry
from studio.knowledge.landing import ArtifactRejectedError, LandingBatch
from studio.knowledge.lint import lint_artifact
from studio.knowledge.preparation import prepare_files
from studio.knowledge.projection import GraphDiff, Projection, ViewOptions, diff, project
from studio.model.knowledge import ArtifactVersion, Derivation, FrontMatter
from studio.model.problems import Problem
from studio.store.knowledge import (
    ArtifactIntegrityError,
    Damaged,
    DamagedVersion,
    KnowledgeRepository,
)

INGEST_BATCH = 250
"""Artifacts stored per write transaction when a folder is ingested."""


@dataclass(frozen=True)
class Landed:
    """What landing one artifact did."""

    ref: str
    """The version the text is stored as."""
    new: bool
    """False when this text had landed already (as ``ref``) and nothing was stored."""
    head: str
    """The current version of the artifact: ``ref``, unless an older version's text was
    landed again."""


@dataclass(frozen=True)
class Verification:
    """What checking every stored version found."""

    versions: int
    """How many versions were checked."""
    damaged: list[DamagedVersion]
    """The versions that fail their check (fields or text)."""
    differing: list[str]
    """The intact versions whose stored graph rows are not those their text derives."""


@dataclass(frozen=True)
class SearchHit:
    """An artifact that matched a search, with the matching words in context."""

    version: ArtifactVersion
    snippet: str


class KnowledgeBase:
    """Landing and reading artifacts over a KnowledgeRepository."""

    def __init__(
        self, repository: KnowledgeRepository, registry: ItemTypeRegistry = DEFAULT_REGISTRY
    ) -> None:
        self.repository, self.registry = repository, registry

    # Landing -----------------------------------------------------------------------------

    def lint(self, text: str) -> list[Problem]:
        """Every problem that would stop ``text`` from landing."""
        problems = lint_artifact(text, known_refs=self._front_of, registry=self.registry)
        if problems:
            return problems
        try:  # what only landing finds: superseding by default a version dated later
            LandingBatch(self.repository, self.registry).add(text)
        except ArtifactRejectedError as rejected:
            return rejected.problems
        return []

    def land(self, text: str, meta: dict[str, Any] | None = None, source: str = "artifact") -> str:
        """Land an artifact and return its ref; raises ArtifactRejectedError, storing nothing.

        ``meta`` overrides front matter fields (the engine's provenance goes in this way).
        A second landing of the same subject and id supersedes the current head; landing
        the exact text of a version stored already changes nothing and returns its ref."""
        return self.land_text(text, meta, source).ref

    def land_text(
        self, text: str, meta: dict[str, Any] | None = None, source: str = "artifact"
    ) -> Landed:
        """Land an artifact as ``land`` does, and tell whether anything new was stored."""
        batch = LandingBatch(self.repository, self.registry)
        ref = batch.add(text, meta, source)
        new = len(batch) > 0
        batch.commit()
        if new:
            return Landed(ref, True, ref)
        version = self.repository.version(ref)
        head = None if version is None else self.repository.head_of(*_artifact_of(version))
        return Landed(ref, False, ref if head is None else head.ref)

    def _front_of(self, ref: str) -> FrontMatter | None:
        version = self.repository.version(ref)
        return None if version is None else version.front

    def ingest(
        self,
        folder: Path,
        progress: Callable[[int, int, Path], None] | None = None,
        batch_size: int = INGEST_BATCH,
        cancelled: Callable[[], bool] | None = None,
    ) -> list[str]:
        """Land every ``*.md`` file of a folder (README.md excepted) in date order.

        Files are ordered by the moment their ``created_at`` names (whatever its offset),
        those without a readable one last, then by name, so a later version lands
        after the one it replaces; they are stored a batch at a time. A rejected file stops
        the ingest with its problems; the files before it stay landed. ``cancelled`` is asked
        after each file: once it answers True the files before stay landed, the rest are not,
        and the refs returned are those landed. The garbage collector is held off meanwhile
        (a large folder would set off collections that walk everything the program holds)."""
        with collection_paused():
            return self._ingest(folder, progress, batch_size, cancelled)

    def _ingest(
        self,
        folder: Path,
        progress: Callable[[int, int, Path], None] | None,
        batch_size: int,
        cancelled: Callable[[], bool] | None,
    ) -> list[str]:
        files = sorted(
            (path for path in folder.rglob("*.md") if path.name.lower() != "readme.md"),
            key=date_order,
        )
        batch, refs = LandingBatch(self.repository, self.registry, bulk=True), []
        try:
            # Closed as soon as a file is rejected, so the workers stop preparing the rest.
            with closing(prepare_files(files, self.registry)) as prepared_files:
                for index, prepared in enumerate(prepared_files, start=1):
                    refs.append(batch.add_prepared(prepared))
                    if len(batch) >= batch_size:
                        batch.commit()
                    if progress is not None:
                        progress(index, len(files), files[index - 1])
                    if cancelled is not None and cancelled():
                        break
        finally:
            batch.commit()
        return refs

    # Reading -----------------------------------------------------------------------------
    # Every read checks what it shows. Those that take ``damaged`` leave a damaged version out
    # and add it there, so the caller can show the rest and name what is damaged; without it
    # they raise ArtifactIntegrityError.

    def resolve(self, ref: str) -> str:
        """The artifact's text, checked against its version hash and its SHA-256."""
        return self.repository.body(ref)

    def search(
        self,
        query: str,
        subject: str | None = None,
        kind: str | None = None,
        as_of: datetime | None = None,
        damaged: Damaged = None,
    ) -> list[SearchHit]:
        """Current artifacts (as of a moment) whose title or text match ``query``."""
        hits = self.repository.search(
            query, as_of=as_of, subject=subject, kind=kind, damaged=damaged
        )
        return [SearchHit(version, snippet) for version, snippet in hits]

    def heads(
        self,
        subject: str | None = None,
        kind: str | None = None,
        as_of: datetime | None = None,
        damaged: Damaged = None,
    ) -> list[ArtifactVersion]:
        """The current artifacts (as of a moment)."""
        return self.repository.heads(as_of=as_of, subject=subject, kind=kind, damaged=damaged)

    def history(
        self, subject: str, artifact_id: str, damaged: Damaged = None
    ) -> list[ArtifactVersion]:
        """Every version of one artifact, oldest first."""
        return self.repository.versions(subject=subject, artifact_id=artifact_id, damaged=damaged)

    def graph(
        self, options: ViewOptions, as_of: datetime | None = None, damaged: Damaged = None
    ) -> Projection:
        """The graph of the current artifacts (as of a moment) under the view rules."""
        heads = self._intact_heads(as_of, options.subject, damaged)
        nodes, edges = self.repository.graph_rows((v.ref for v in heads), damaged)
        return project(heads, nodes, edges, options)

    def diff(
        self, before: datetime, after: datetime, options: ViewOptions, damaged: Damaged = None
    ) -> GraphDiff:
        """What changed in the graph between two moments."""
        return diff(self.graph(options, before, damaged), self.graph(options, after, damaged))

    def coverage(self, as_of: datetime | None = None, damaged: Damaged = None) -> list[Gap]:
        """Requirements no story covers, stories no unit implements, decisions covering nothing."""
        heads = self._intact_heads(as_of, None, damaged)
        nodes, edges = self.repository.graph_rows((v.ref for v in heads), damaged)
        return coverage_gaps(nodes, edges)

    def suspects(self, as_of: datetime | None = None, damaged: Damaged = None) -> list[Suspect]:
        """Links to something whose artifact was revised after the link was written."""
        heads = self._intact_heads(as_of, None, damaged)
        nodes, edges = self.repository.graph_rows((v.ref for v in heads), damaged)
        versions = self.repository.versions(damaged=damaged)
        return suspect_links(versions, heads, nodes, edges)

    def verify(self) -> Verification:
        """Check every stored version and its text, and derive the graph rows of each intact
        one again to compare them with those stored (the reads trust the stored rows)."""
        damaged: list[DamagedVersion] = []
        versions = self.repository.all_versions_in_landing_order(damaged)
        checked = len(versions) + len(damaged)
        derivations = self._derive_intact(versions, damaged)
        differing = self.repository.differing_derivations(derivations)
        return Verification(checked, damaged, differing)

    def rebuild(self) -> int:
        """Derive every version's rows again from its stored text, in one transaction;
        returns how many versions. Deterministic: rebuilding twice gives identical rows.
        Refuses, naming them, when any version or text is damaged: nothing is derived from
        what fails its check, and nothing changes."""
        damaged: list[DamagedVersion] = []
        versions = self.repository.all_versions_in_landing_order(damaged)
        derivations = self._derive_intact(versions, damaged)
        if damaged:
            raise ArtifactIntegrityError.naming(damaged)
        self.repository.rebuild_derived(derivations)
        return len(derivations)

    def _derive_intact(
        self, versions: list[ArtifactVersion], damaged: list[DamagedVersion]
    ) -> dict[str, Derivation]:
        """The graph rows each version's text derives, by ref, for those whose text passes its
        check (the others go to ``damaged``)."""
        texts = self.repository.texts(versions, damaged)
        derivations = {}
        for version in versions:
            if version.ref in texts:
                _data, body, body_line = split_artifact(texts[version.ref])
                derivations[version.ref] = derive(version, body, body_line, self.registry)
        return derivations

    def _intact_heads(
        self, as_of: datetime | None, subject: str | None, damaged: Damaged
    ) -> list[ArtifactVersion]:
        """The heads whose version and text pass their checks: the graph rows derived from a
        damaged text are not shown either."""
        heads = self.repository.heads(as_of=as_of, subject=subject, damaged=damaged)
        texts = self.repository.texts(heads, damaged)
        return [version for version in heads if version.ref in texts]


def _artifact_of(version: ArtifactVersion) -> tuple[str, str]:
    return version.subject, version.artifact_id
