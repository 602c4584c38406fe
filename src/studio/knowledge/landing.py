"""Landing artifacts: lint, supersede the current head, derive, and store in batches.

One artifact lands as a batch of one; a folder lands in batches of a few hundred, each one
write transaction, with later files able to supersede earlier ones of the same batch."""

from datetime import UTC, datetime
from typing import Any

import yaml

from studio.knowledge.derivation import derive
from studio.knowledge.front_matter import (
    artifact_ref,
    read_front_matter,
    split_artifact,
    split_fences,
)
from studio.knowledge.item_types import ItemTypeRegistry
from studio.knowledge.lint import lint_artifact
from studio.model.knowledge import ArtifactVersion, Derivation
from studio.model.problems import Problem
from studio.store.knowledge import KnowledgeRepository, body_digest


class ArtifactRejectedError(ValueError):
    """An artifact failed the land-time lint; nothing of it was stored."""

    def __init__(self, problems: list[Problem], source: str = "artifact") -> None:
        self.problems = problems
        lines = "\n".join(f"  {problem.describe()}" for problem in problems)
        super().__init__(f"{source} was not landed ({len(problems)} problem(s)):\n{lines}")


class LandingBatch:
    """Artifacts checked and derived, waiting to be stored together."""

    def __init__(self, repository: KnowledgeRepository, registry: ItemTypeRegistry) -> None:
        self.repository, self.registry = repository, registry
        self.refs = repository.refs()
        self.pending: list[tuple[ArtifactVersion, str, Derivation]] = []
        self.heads: dict[tuple[str, str], tuple[str, str]] = {}
        """(subject, id) → (ref, text) of heads landed in this batch."""

    def __len__(self) -> int:
        return len(self.pending)

    def add(self, text: str, meta: dict[str, Any] | None = None, source: str = "artifact") -> str:
        """Check and derive one artifact; returns the ref it will have once committed.

        ``meta`` is written over the front matter (the engine's provenance). Without an
        explicit ``supersedes``, a new version of an artifact supersedes its current head;
        the head's exact content again lands nothing and returns the head's ref."""
        if meta:
            text = with_front_matter(text, meta)
        problems = lint_artifact(text, known_refs=self.refs, registry=self.registry)
        if problems:
            raise ArtifactRejectedError(problems, source)
        data, body, body_line = split_artifact(text)
        front = read_front_matter(data)
        head_ref, head_text = self._head(front.subject, front.id)
        if head_ref is not None and front.supersedes is None:
            if _same_artifact(head_text, data, body):
                return head_ref
            text = with_supersedes(text, head_ref)
            data, body, body_line = split_artifact(text)
            front = read_front_matter(data)
        ref = free_ref(artifact_ref(front), self.refs)
        version = ArtifactVersion(ref, front, body_digest(text), datetime.now(UTC))
        self.pending.append((version, text, derive(version, body, body_line, self.registry)))
        self.refs.add(ref)
        self.heads[(front.subject, front.id)] = (ref, text)
        return ref

    def commit(self) -> None:
        """Store what is pending, in one transaction."""
        if self.pending:
            self.repository.add_versions(self.pending)
            self.pending = []

    def _head(self, subject: str, artifact_id: str) -> tuple[str | None, str | None]:
        pending = self.heads.get((subject, artifact_id))
        if pending is not None:
            return pending
        head = self.repository.head_of(subject, artifact_id)
        if head is None:
            return None, None
        return head.ref, self.repository.body(head.ref)


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
    """``text`` with a ``supersedes`` line added at the top of its front matter; the rest of
    the file stays exactly as it was written."""
    split_fences(text)  # the front matter is there (lint passed); raises otherwise
    start = text.index("\n") + 1  # just after the opening '---' line
    return f"{text[:start]}supersedes: {ref}\n{text[start:]}"


def free_ref(ref: str, taken: set[str]) -> str:
    """The ref, or ``…-2.md``, ``…-3.md`` when another version of that day has it."""
    if ref not in taken:
        return ref
    stem = ref.removesuffix(".md")
    number = 2
    while f"{stem}-{number}.md" in taken:
        number += 1
    return f"{stem}-{number}.md"


def _same_artifact(stored: str, data: dict[str, Any], body: str) -> bool:
    """Whether a stored version says what the new front matter and body say (its own
    ``supersedes``, added when it landed, aside)."""
    stored_data, stored_body, _line = split_artifact(stored)
    stored_data = {key: value for key, value in stored_data.items() if key != "supersedes"}
    return stored_body == body and stored_data == data
