"""What the queue port speaks in: the scope a puller serves, what a pull hands over, and what
the queue asks of the rest of Studio."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from studio.model.work_items import DISCOVERY_ARTIFACT, ContextSource, WorkItem
from studio.store.knowledge import Landing


class QueueWorld(Protocol):
    """What the queue asks of the rest of Studio: whether a source resolves, and the
    knowledge landing that files a closed item (None: nothing to file it to), given the ref
    its subject files it under now (None: never filed). ``filing`` is asked inside the
    queue's write transaction: it may read the store, never write it."""

    def resolves(self, source: ContextSource) -> bool: ...

    def filing(self, item: WorkItem, head: str | None) -> Landing | None: ...


@dataclass(frozen=True)
class Scope:
    """What a puller serves: its capability and the artifact types it builds (none named:
    every type). Discovery items (``menu``) of its capability are always in scope."""

    capability: str
    types: frozenset[str] = frozenset()

    def serves(self, item: WorkItem) -> bool:
        if item.capability != self.capability:
            return False
        return not self.types or item.artifact in self.types or item.artifact == DISCOVERY_ARTIFACT


@dataclass(frozen=True)
class Pulled:
    """A leased item, the token its holder's writes carry, and whose expired lease it was."""

    item: WorkItem
    token: int
    reclaimed_from: str | None = None
