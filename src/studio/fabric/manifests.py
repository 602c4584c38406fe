"""Published capability manifests: what Gate A rule 2 reads.

Publishing stores the next version of a capability's manifest stamped with its source's
SHA-256. Reading refuses a copy without the stamp, and a readiness check compares the stamp
with the source as it is now.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from studio.model.capabilities import PublishedManifest, read_manifest, source_hash
from studio.model.gate_a import Offering
from studio.store.work_queue import StoredManifest, WorkQueueRepository

UNREAD = -1
"""A manifest version not read yet (None means none is published)."""


class ManifestShelf:
    """The published manifests of one queue's database."""

    def __init__(self, repository: WorkQueueRepository, clock: Callable[[], datetime]) -> None:
        self.repository = repository
        self.clock = clock
        self._read: dict[tuple[str, int], PublishedManifest] = {}
        self._latest: dict[str, int | None] = {}
        """The latest version of each capability's manifest when this shelf last read it."""

    def publish_manifest(self, text: str, where: str = "manifest") -> PublishedManifest:
        """Publish a manifest source: the next version, stamped with the source's hash.
        Raises ManifestError for a source that cannot be read."""
        source = read_manifest(text, where)
        self.repository.publish(source.capability, source.source_hash, text, self.clock())
        published = self.manifest(source.capability)
        assert published is not None
        return published

    def manifest(self, capability: str, version: int | None = UNREAD) -> PublishedManifest | None:
        """The latest published manifest of a capability, or None; ``version``, when the
        caller has just read which version is the latest (None: none is published)."""
        if version == UNREAD:
            version = self.repository.manifest_version(capability)
        self._latest[capability] = version
        if version is None:
            return None
        known = self._read.get((capability, version))
        if known is not None:
            return known
        stored = self.repository.manifests(capability)
        return self._published(stored[0]) if stored else None

    def last_read_version(self, capability: str) -> int | None:
        """The latest version of the capability's manifest when this shelf last read it
        (None: none was published then); UNREAD if it never has. Another program may have
        published since: whoever acts on it checks it where it writes."""
        return self._latest.get(capability, UNREAD)

    def manifests(self) -> list[PublishedManifest]:
        """The latest published manifest of every capability, by name."""
        return [self._published(stored) for stored in self.repository.manifests()]

    def offering(self, capability: str, version: int | None = UNREAD) -> Offering:
        """What Gate A rule 2 reads: the live and planned types, or why there are none
        (``version`` as ``manifest`` takes it)."""
        published = self.manifest(capability, version)
        if published is None:
            return Offering({}, f"capability '{capability}' has published no manifest")
        if not published.stamped:
            return Offering(
                {},
                f"the manifest of '{capability}' (version {published.version}) has no "
                "freshness stamp; publish it again from its source",
            )
        return Offering(published.offered())

    def stale(self, capability: str, source_text: str) -> bool | None:
        """Whether the published copy no longer matches its source (None: nothing published)."""
        published = self.manifest(capability)
        if published is None:
            return None
        return published.source_hash != source_hash(source_text)

    def _published(self, stored: StoredManifest) -> PublishedManifest:
        key = (stored.capability, stored.version)
        if key not in self._read:
            source = read_manifest(stored.text, f"{stored.capability} v{stored.version}")
            self._read[key] = PublishedManifest(
                stored.capability,
                stored.version,
                stored.source_hash,
                stored.published_at,
                stored.text,
                source.types,
            )
        return self._read[key]
