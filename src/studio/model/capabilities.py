"""Capability manifests: what a capability offers, each type marked live or planned.

A manifest's source is Markdown versioned with the capability; publishing it records a copy
with a version and the SHA-256 of its source (the freshness stamp). Gate A rule 2 reads the
published copy, and a readiness check recomputes the source's hash to say whether the copy is
stale. A published copy without a stamp is refused wherever it is read.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime

import yaml

from studio.model.safe_yaml import load_yaml_text

OFFER_STATUSES = ("live", "planned")
_TYPE_HEADING = re.compile(r"^## +(.+?) *$", re.MULTILINE)
_STATUS_MARKER = re.compile(r"^\*\*Status:\*\* *([A-Za-z-]+) *$", re.MULTILINE)
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


class ManifestError(ValueError):
    """A manifest that cannot be published: where and what is wrong."""


@dataclass(frozen=True)
class OfferedType:
    """One artifact type a capability offers: its status marker and what an order must carry."""

    name: str
    status: str
    requirements: str


@dataclass(frozen=True)
class ManifestSource:
    """A manifest as its capability writes it."""

    capability: str
    title: str
    types: tuple[OfferedType, ...]
    text: str

    @property
    def source_hash(self) -> str:
        return source_hash(self.text)


@dataclass(frozen=True)
class PublishedManifest:
    """The Fabric's copy of a manifest: version-bumped and stamped with its source's hash."""

    capability: str
    version: int
    source_hash: str | None
    published_at: datetime
    text: str
    types: tuple[OfferedType, ...]

    @property
    def stamped(self) -> bool:
        return bool(self.source_hash)

    def offered(self) -> dict[str, str]:
        """Type → ``live`` or ``planned``."""
        return {offer.name: offer.status for offer in self.types}


def source_hash(text: str) -> str:
    """The freshness stamp of a manifest source: SHA-256 of its text as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_manifest(text: str, where: str = "manifest") -> ManifestSource:
    """A manifest source's capability, title and offered types.

    Raises:
        ManifestError: no front matter naming the capability (``id``), a type without a
            ``**Status:** live|planned`` line, an unknown status, or a type offered twice.
    """
    front, body = _split(text, where)
    capability = front.get("id") or front.get("subject")
    if not isinstance(capability, str) or not _NAME.fullmatch(capability):
        raise ManifestError(f"{where}: the front matter's id must name the capability (kebab-case)")
    headings = list(_TYPE_HEADING.finditer(body))
    types: list[OfferedType] = []
    for index, heading in enumerate(headings):
        end = headings[index + 1].start() if index + 1 < len(headings) else len(body)
        types.append(_offered(heading.group(1), body[heading.end() : end], where))
    names = [offer.name for offer in types]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ManifestError(f"{where}: {', '.join(repeated)} offered more than once")
    title = str(front.get("title") or capability)
    return ManifestSource(capability, title, tuple(types), text)


def _offered(name: str, section: str, where: str) -> OfferedType:
    marker = _STATUS_MARKER.search(section)
    if marker is None:
        raise ManifestError(f"{where}: type '{name}' has no '**Status:** live|planned' line")
    status = marker.group(1).lower()
    if status not in OFFER_STATUSES:
        raise ManifestError(f"{where}: type '{name}' has status '{status}', not live or planned")
    requirements = (section[: marker.start()] + section[marker.end() :]).strip()
    return OfferedType(name, status, requirements)


def _split(text: str, where: str) -> tuple[dict, str]:
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        raise ManifestError(f"{where}: a manifest must start with a '---' front matter line")
    end = next((n for n in range(1, len(lines)) if lines[n].strip() == "---"), None)
    if end is None:
        raise ManifestError(f"{where}: the front matter has no closing '---' line")
    try:
        front = load_yaml_text("\n".join(lines[1:end]))
    except yaml.YAMLError as failure:
        raise ManifestError(f"{where}: the front matter is not YAML: {failure}") from failure
    if not isinstance(front, dict):
        raise ManifestError(f"{where}: the front matter must be a mapping")
    return front, "\n".join(lines[end + 1 :])
