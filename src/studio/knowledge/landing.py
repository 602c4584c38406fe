"""Landing artifacts: lint, supersede the current head, derive, and store in batches.

One artifact lands as a batch of one; a folder lands in batches of a few hundred, each one
write transaction, with later files able to supersede earlier ones of the same batch."""

import re
from collections.abc import Container
from contextlib import suppress
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import yaml

from studio.knowledge.derivation import derive
from studio.knowledge.front_matter import (
    ArtifactFormatError,
    artifact_ref,
    split_artifact,
    split_fences,
)
from studio.knowledge.item_types import ItemTypeRegistry
from studio.knowledge.lint import check_superseded, check_supersedes
from studio.knowledge.preparation import Prepared, prepare
from studio.model.knowledge import ArtifactVersion, Derivation, FrontMatter
from studio.model.problems import Problem, error
from studio.store.knowledge import (
    EncodedDerivation,
    KnowledgeRepository,
    Landing,
    body_digest,
)


class ArtifactRejectedError(ValueError):
    """An artifact failed the land-time lint; nothing of it was stored."""

    def __init__(self, problems: list[Problem], source: str = "artifact") -> None:
        self.problems = problems
        lines = "\n".join(f"  {problem.describe()}" for problem in problems)
        super().__init__(f"{source} was not landed ({len(problems)} problem(s)):\n{lines}")


class LandingBatch:
    """Artifacts checked and derived, waiting to be stored together."""

    def __init__(
        self, repository: KnowledgeRepository, registry: ItemTypeRegistry, bulk: bool = False
    ) -> None:
        self.repository, self.registry = repository, registry
        self.refs = TakenRefs(repository, all_at_once=bulk)
        self.pending: list[Landing] = []
        self.heads: dict[tuple[str, str], tuple[str, str | None]] = {}
        """(subject, id) → (ref, text or None until read) of the heads known so far."""
        self.digests: dict[tuple[str, str, str], str] = {}
        """(subject, id, SHA-256) → ref of versions known so far: the same text lands once."""
        self.replaced: dict[tuple[str, str], set[str]] = {}
        """(subject, id) → the refs its known versions supersede."""
        self.fronts: dict[str, FrontMatter] = {}
        """ref → front matter of versions known so far (and of those looked up)."""
        self.successors: dict[str, str] = {}
        """ref → the known version that supersedes it."""
        if bulk:  # one query each for every head and every version, not one per artifact
            self.heads = {(v.subject, v.artifact_id): (v.ref, None) for v in repository.heads()}
            for version in repository.versions():
                self._know(version)
        self.bulk = bulk

    def __len__(self) -> int:
        return len(self.pending)

    def add(self, text: str, meta: dict[str, Any] | None = None, source: str = "artifact") -> str:
        """Check, derive and queue one artifact; returns the ref it has once committed.

        ``meta`` is written over the front matter (the engine's provenance)."""
        if meta:
            # Front matter that cannot be read takes no provenance: the lint lists why, with
            # every other problem, and the artifact is rejected.
            with suppress(ArtifactFormatError):
                text = with_front_matter(text, meta)
        return self.add_prepared(prepare(source, text, self.registry))

    def add_prepared(self, prepared: Prepared) -> str:
        """Queue an artifact prepared elsewhere; raises ArtifactRejectedError with its problems.

        Without an explicit ``supersedes``, a new version of an artifact supersedes its
        current head; the exact content of a version landed already (the head or an older
        one) lands nothing and returns that version's ref. A new version supersedes only the
        current head of its own subject and id, and is not dated before it."""
        front, text = prepared.front, prepared.text
        derivation: Derivation | EncodedDerivation | None = prepared.derivation
        if prepared.problems or front is None or derivation is None:
            raise ArtifactRejectedError(list(prepared.problems), prepared.source)
        stored = self._stored_as(front.subject, front.id, body_digest(text))
        if stored is not None:
            return stored  # this very text has landed already
        head = self._head(front.subject, front.id)
        if front.supersedes is not None:
            self._check_supersedes(prepared, front.supersedes, head[0] if head else None)
        elif head is not None:
            head_ref, head_text = head
            if _same_artifact(head_text, text):
                return head_ref
            earlier = self._landed_with_supersedes(front.subject, front.id, text)
            if earlier is not None:
                return earlier  # an older version, whose supersedes landing added
            self._check_not_earlier(prepared, head_ref)
            text = with_supersedes(text, head_ref)
            front = replace(front, supersedes=head_ref)
        ref = free_ref(artifact_ref(front), self.refs)
        version = ArtifactVersion(ref, front, body_digest(text), datetime.now(UTC))
        if text != prepared.text:  # "supersedes" was added: derived from the text stored
            _data, body, body_line = split_artifact(text)
            derivation = derive(version, body, body_line, self.registry)
        self.pending.append((version, text, derivation))
        self.refs.add(ref)
        self.heads[(front.subject, front.id)] = (ref, text)
        self._know(version)
        return ref

    def _check_supersedes(self, prepared: Prepared, replaced: str, head_ref: str | None) -> None:
        """An explicit ``supersedes`` names a landed version of the same artifact, dated no
        later, and the current head: superseding an older one would fork the history."""
        data, _body, _line = split_artifact(prepared.text)
        problems = list(check_supersedes(data, self._front_of))
        if not problems and replaced != head_ref:
            successor = self.successors.get(replaced, "a later version")
            message = (
                f"supersedes '{replaced}', which {successor} supersedes already: only the "
                f"current version {head_ref} can be superseded (name it, or leave "
                "'supersedes' out)"
            )
            problems.append(error("kg.supersedes.not_head", message, path=_SUPERSEDES_FIELD))
        if problems:
            raise ArtifactRejectedError(problems, prepared.source)

    def _check_not_earlier(self, prepared: Prepared, head_ref: str) -> None:
        """A version that supersedes the head by default is not dated before it."""
        head = self._front_of(head_ref)
        data, _body, _line = split_artifact(prepared.text)
        problems = [] if head is None else list(check_superseded(data, head_ref, head))
        if problems:
            raise ArtifactRejectedError(problems, prepared.source)

    def _front_of(self, ref: str) -> FrontMatter | None:
        """The front matter of a landed (or pending) version, or None if there is none."""
        if ref not in self.fronts and not self.bulk and ref in self.refs:
            version = self.repository.version(ref)
            if version is not None:
                self.fronts[ref] = version.front
        return self.fronts.get(ref)

    def commit(self) -> None:
        """Store what is pending, in one transaction."""
        if self.pending:
            # Cleared first: a refused batch is not offered again.
            pending, self.pending = self.pending, []
            self.repository.add_versions(pending)

    def _stored_as(self, subject: str, artifact_id: str, digest: str) -> str | None:
        if not self.bulk and not any(key[:2] == (subject, artifact_id) for key in self.digests):
            for version in self.repository.versions(subject=subject, artifact_id=artifact_id):
                self._know(version)
        return self.digests.get((subject, artifact_id, digest))

    def _know(self, version: ArtifactVersion) -> None:
        self.digests[_digest_key(version)] = version.ref
        self.fronts[version.ref] = version.front
        if version.front.supersedes is not None:
            place = (version.subject, version.artifact_id)
            self.replaced.setdefault(place, set()).add(version.front.supersedes)
            self.successors[version.front.supersedes] = version.ref

    def _landed_with_supersedes(self, subject: str, artifact_id: str, text: str) -> str | None:
        """The version that landed from ``text`` (which names no predecessor) with the
        ``supersedes`` line landing added, if there is one."""
        for replaced in sorted(self.replaced.get((subject, artifact_id), ())):
            digest = body_digest(with_supersedes(text, replaced))
            found = self.digests.get((subject, artifact_id, digest))
            if found is not None:
                return found
        return None

    def _head(self, subject: str, artifact_id: str) -> tuple[str, str] | None:
        """The ref and text of an artifact's current head, or None before its first landing."""
        known = self.heads.get((subject, artifact_id))
        if known is not None:
            ref, text = known
            return ref, text if text is not None else self.repository.body(ref)
        if self.bulk:
            return None
        head = self.repository.head_of(subject, artifact_id)
        if head is None:
            return None
        return head.ref, self.repository.body(head.ref)


_SUPERSEDES_FIELD = "front matter: supersedes"

_SUPERSEDES_KEY = re.compile(
    r"""^(["']?)supersedes\1[ \t]*:.*(?:\r?\n[ \t]+.*)*(?:\r?\n|\Z)""", re.MULTILINE
)
"""A top-level ``supersedes`` key of front matter text, with any indented lines of its value."""


def _digest_key(version: ArtifactVersion) -> tuple[str, str, str]:
    return version.subject, version.artifact_id, version.sha256


def with_front_matter(text: str, meta: dict[str, Any]) -> str:
    """``text`` with ``meta`` written over its front matter fields (``produced_by`` merged)."""
    data, body, _line = split_artifact(text)
    merged = dict(data)
    for key, value in meta.items():
        if key == "produced_by" and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    front = yaml.safe_dump(merged, sort_keys=False, allow_unicode=True, default_flow_style=None)
    return f"---\n{front}---\n{body}"


def with_supersedes(text: str, ref: str) -> str:
    """``text`` with ``supersedes: <ref>`` in its front matter: in place of a ``supersedes``
    key it has, or as a line at the top; the rest of the file stays exactly as written.
    (Front matter whose key cannot be replaced line by line is written out again.)"""
    front_text, _body, _line = split_fences(text)  # lint passed; raises otherwise
    start = text.index("\n") + 1  # just after the opening '---' line, where front_text starts
    line = f"supersedes: {ref}\n"
    found = _SUPERSEDES_KEY.search(front_text)
    if found is None:
        changed = f"{text[:start]}{line}{text[start:]}"
    else:
        changed = f"{text[: start + found.start()]}{line}{text[start + found.end() :]}"
    if _says_supersedes(changed, ref, text):
        return changed
    return with_front_matter(text, {"supersedes": ref})


def _says_supersedes(changed: str, ref: str, text: str) -> bool:
    """Whether ``changed`` reads as ``text`` with ``supersedes`` set to ``ref``, once."""
    try:
        data, body, _line = split_artifact(changed)
        original, original_body, _line = split_artifact(text)
    except ArtifactFormatError:
        return False
    rest = {key: value for key, value in original.items() if key != "supersedes"}
    return data == {**rest, "supersedes": ref} and body == original_body


class TakenRefs:
    """The refs stored or pending. A bulk ingest reads every stored one at once; a single
    landing asks about the few refs it considers, so its cost does not grow with the store."""

    def __init__(self, repository: KnowledgeRepository, all_at_once: bool) -> None:
        self.repository = repository
        self.all_at_once = all_at_once
        self.known: set[str] = repository.refs() if all_at_once else set()
        self.absent: set[str] = set()

    def __contains__(self, ref: object) -> bool:
        if not isinstance(ref, str) or ref in self.known:
            return ref in self.known
        if self.all_at_once or ref in self.absent:
            return False
        if self.repository.version_exists(ref):
            self.known.add(ref)
            return True
        self.absent.add(ref)
        return False

    def add(self, ref: str) -> None:
        self.known.add(ref)
        self.absent.discard(ref)


def free_ref(ref: str, taken: Container[str]) -> str:
    """The ref, or ``…-2.md``, ``…-3.md`` when another version of that day has it."""
    if ref not in taken:
        return ref
    stem = ref.removesuffix(".md")
    number = 2
    while f"{stem}-{number}.md" in taken:
        number += 1
    return f"{stem}-{number}.md"


def _same_artifact(stored: str, text: str) -> bool:
    """Whether a stored version says what a new text says (the stored one's ``supersedes``,
    added when it landed, aside)."""
    data, body, _line = split_artifact(text)
    stored_data, stored_body, _line = split_artifact(stored)
    stored_data = {key: value for key, value in stored_data.items() if key != "supersedes"}
    return stored_body == body and stored_data == data
