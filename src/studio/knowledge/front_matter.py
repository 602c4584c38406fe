"""Split an artifact into its YAML front matter and Markdown body, and read the front matter.

YAML is read with the model's one reader, as workflow files are: a mapping that repeats a key
is refused rather than silently keeping the last value, and so is a document over the input
limits; merge keys apply.
"""

import re
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any

import yaml

from studio.model.knowledge import FrontMatter, Link
from studio.model.safe_yaml import load_yaml_text, yaml_refusal

_OPENING = re.compile(r"\A\ufeff?---[ \t]*\r?\n")
_CLOSING = re.compile(r"^(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.MULTILINE)

PRODUCED_BY_KEYS = (
    "capability",
    "workflow",
    "workflow_version",
    "execution",
    "node",
    "attempt",
    "work_item",
)
"""The keys ``produced_by`` may carry: who made an artifact and under what order."""


class ArtifactFormatError(ValueError):
    """An artifact, or a YAML text in it, that cannot be read; ``line`` is 1-based in the file."""

    def __init__(self, reason: str, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        """What went wrong: "missing" (no front matter fence), "yaml", "duplicate_key" or
        "limit" (too deep, too long a text, aliases that expand too far)."""
        self.message = message
        self.line = line


def load_yaml(text: str, first_line: int = 1) -> Any:
    """Parse one YAML document; errors carry the file line, given the line ``text`` starts on."""
    try:
        return load_yaml_text(text)
    except yaml.YAMLError as failure:
        refusal = yaml_refusal(failure)
        line = first_line if refusal.line is None else first_line + refusal.line - 1
        raise ArtifactFormatError(refusal.reason, refusal.problem, line) from failure


def split_fences(text: str) -> tuple[str, str, int]:
    """The raw front matter text, the body and the 1-based file line the body starts on.

    Raises:
        ArtifactFormatError: the text does not open with a ``---`` line or never closes it.
    """
    opening = _OPENING.match(text)
    if opening is None:
        raise ArtifactFormatError("missing", "the file must start with a '---' line", 1)
    closing = _CLOSING.search(text, opening.end())
    if closing is None:
        raise ArtifactFormatError("missing", "the front matter has no closing '---' line", 1)
    body_line = text.count("\n", 0, closing.end()) + 1
    return text[opening.end() : closing.start()], text[closing.end() :], body_line


def load_front_matter(front_text: str) -> dict:
    """The front matter mapping of its raw text (which starts on file line 2).

    Landing reads the same front matter several times (lint, then landing); the parse is
    kept for the last few texts and each caller gets its own copy, free to change."""
    return _copy(_parsed_front_matter(front_text))


def _copy(value: Any) -> Any:
    """A copy of parsed YAML down to its scalars (which are immutable); the input limits keep
    its depth far below the recursion limit."""
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value


@lru_cache(maxsize=32)
def _parsed_front_matter(front_text: str) -> dict:
    data = load_yaml(front_text, first_line=2)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ArtifactFormatError("yaml", "the front matter must be a mapping of fields", 2)
    return data


def split_artifact(text: str) -> tuple[dict, str, int]:
    """The front matter mapping, the Markdown body and the 1-based file line the body starts on.

    Raises:
        ArtifactFormatError: no ``---`` fences around the front matter, invalid YAML, a repeated
            key, or front matter that is not a mapping.
    """
    front_text, body, body_line = split_fences(text)
    return load_front_matter(front_text), body, body_line


def parse_created_at(value: object) -> datetime | None:
    """``created_at`` as an aware date-time (a naive one is taken as UTC), or None if it is not."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str) and "T" in value.upper():
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return None
    else:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def supersedes_ref(data: dict) -> str | None:
    """The full ref ``supersedes`` names; a bare file name means the same subject and kind."""
    value = data.get("supersedes")
    if not isinstance(value, str) or not value:
        return None
    if "/" in value:
        return value
    return f"{data.get('subject')}/{data.get('kind')}/{value}"


def read_front_matter(data: dict) -> FrontMatter:
    """The FrontMatter of a mapping that has passed lint."""
    created_at = parse_created_at(data["created_at"])
    if created_at is None:
        raise ValueError(f"created_at is not an ISO date-time: {data['created_at']!r}")
    links = tuple(Link(type=link["type"], target=link["target"]) for link in data.get("links", ()))
    return FrontMatter(
        id=data["id"],
        kind=data["kind"],
        subject=data["subject"],
        title=data["title"],
        produced_by=dict(data["produced_by"]),
        created_at=created_at,
        supersedes=supersedes_ref(data),
        links=links,
    )


def artifact_ref(front: FrontMatter) -> str:
    """The backend-relative ref of an artifact version: ``<subject>/<kind>/<date>-<id>.md``."""
    return f"{front.subject}/{front.kind}/{front.created_at:%Y-%m-%d}-{front.id}.md"


def plain(value: Any) -> Any:
    """A YAML value with dates and date-times as ISO strings, so it can be stored as JSON."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value
