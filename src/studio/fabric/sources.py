"""Resolving a work item's context sources: a landed artifact, a file, a URL.

Gate A rule 5 asks whether each eager source resolves at enqueue; a worker resolves them again
at build time and writes what each resolved to in the item's snapshot, so the same item is the
same build. ``mcp`` and ``query`` sources are registered but have no resolver here: an eager
one does not resolve.
"""

from __future__ import annotations

import hashlib
import re
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from studio.model.work_items import ContextSource, iso

URL_TIMEOUT_S = 5.0
LARGEST_SOURCE = 1_000_000
"""Bytes of one source a snapshot records at most."""


@dataclass(frozen=True)
class Resolved:
    """What a source resolved to, and when."""

    source: ContextSource
    content: str
    at: datetime

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.content.encode("utf-8")).hexdigest()

    def snapshot_block(self) -> str:
        """The snapshot entry: a heading naming the source, its digest, then the content."""
        longest = max((len(run) for run in re.findall(r"`+", self.content)), default=0)
        fence = "`" * max(3, longest + 1)  # no line of the content can close it
        source = self.source
        return (
            f"### {source.id}: {source.type} {source.ref}\n\n"
            f"resolved {iso(self.at)} · sha256 {self.digest}\n\n"
            f"{fence}\n{self.content.rstrip()}\n{fence}"
        )


class SourceResolver:
    """Resolves sources against one workspace: its knowledge store and its folder."""

    def __init__(self, artifact_text: Callable[[str], str | None], folder: Path) -> None:
        self.artifact_text = artifact_text
        self.folder = folder

    def resolves(self, source: ContextSource) -> bool:
        """Whether the source can be resolved now (Gate A rule 5)."""
        if source.type == "artifact":
            return self.artifact_text(source.ref) is not None
        if source.type == "file":
            return self._path(source.ref).is_file()
        if source.type == "url":
            return self._fetch(source.ref) is not None
        return False

    def resolve(self, source: ContextSource, now: datetime) -> Resolved | None:
        """The source's content now, or None if it does not resolve."""
        content = None
        if source.type == "artifact":
            content = self.artifact_text(source.ref)
        elif source.type == "file" and self._path(source.ref).is_file():
            raw = self._path(source.ref).read_bytes()[:LARGEST_SOURCE]
            content = raw.decode("utf-8", "replace")
        elif source.type == "url":
            content = self._fetch(source.ref)
        return None if content is None else Resolved(source, content, now)

    def _path(self, ref: str) -> Path:
        path = Path(ref).expanduser()
        return path if path.is_absolute() else self.folder / path

    def _fetch(self, url: str) -> str | None:
        if not url.startswith(("http://", "https://")):
            return None
        try:
            with urllib.request.urlopen(url, timeout=URL_TIMEOUT_S) as answer:
                return answer.read(LARGEST_SOURCE).decode("utf-8", "replace")
        except (urllib.error.URLError, OSError, ValueError):
            return None
