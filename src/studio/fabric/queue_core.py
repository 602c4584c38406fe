"""What the queue port's operations share: its clock, lease time and context budget, Gate A's
facts, and the guarded changes and settlements every operation ends in (``studio.fabric.queue``
is the port itself)."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from studio.fabric.manifests import UNREAD, ManifestShelf
from studio.fabric.queue_errors import GateARefusedError, StaleLeaseError
from studio.fabric.queue_terms import Pulled, QueueWorld, Scope
from studio.model.errors import NotAllowedError, StudioError
from studio.model.gate_a import ENQUEUE, PULL, GateFacts, GateFailure, Offering, gate_a
from studio.model.work_item_documents import WorkItemDocument, document_of
from studio.model.work_items import (
    DEFAULT_CONTEXT_BUDGET,
    ESCALATE,
    LEASED,
    TERMINAL,
    WORK_LOG,
    WorkItem,
    log_line,
)
from studio.store.schema import utc_now
from studio.store.work_queue import Change, Leased, LeaseRequest, WorkQueueRepository

LEASE_TTL = timedelta(seconds=30)

Decide = Callable[[WorkItem, str | None, datetime], Change]
"""What a settlement changes, given the item, the ref it is filed under and the moment."""


class QueueCore(ManifestShelf):
    """The queue's state and the steps its operations are made of."""

    def __init__(
        self,
        repository: WorkQueueRepository,
        world: QueueWorld,
        *,
        clock: Callable[[], datetime] = utc_now,
        lease_ttl: timedelta = LEASE_TTL,
        context_budget: int = DEFAULT_CONTEXT_BUDGET,
    ) -> None:
        super().__init__(repository, clock)
        self.world = world
        self.lease_ttl = lease_ttl
        self.context_budget = context_budget

    # --- inside --------------------------------------------------------------------------

    def _facts(
        self, item: WorkItem | None = None, manifest_version: int | None = UNREAD
    ) -> GateFacts:
        """Gate A's facts; with an item and its capability's manifest version just read, that
        manifest is not asked for again."""

        def offering(capability: str) -> Offering:
            known = item is not None and capability == item.capability
            return self.offering(capability, manifest_version if known else UNREAD)

        return GateFacts(self.repository.exists, offering, self.world.resolves)

    def _enqueue_facts(self, document: WorkItemDocument) -> GateFacts:
        """Gate A's facts at enqueue, as stored now: whether the id is taken and the
        capability's manifest version read together, in one read."""
        return self._enqueue_facts_and_version(document)[0]

    def _admitted(self, document: WorkItemDocument) -> int | None:
        """Run Gate A as enqueue runs it; GateARefusedError if the item fails it. Returns the
        manifest version the item was judged on, for the insert to check it is still the
        latest (the id, too, is checked there). An item is first judged on the version this
        queue last read, without reading anything; one that fails is judged again on what is
        stored now, so a refusal never rests on a version read earlier."""
        item_id, capability = document.front.get("id"), document.front.get("capability")
        if isinstance(item_id, str) and isinstance(capability, str):
            remembered = self.last_read_version(capability)
            if remembered != UNREAD:
                facts = self._stated_facts(item_id, capability, False, remembered)
                if not gate_a(document, facts, ENQUEUE):
                    return remembered
        facts, version = self._enqueue_facts_and_version(document)
        failures = gate_a(document, facts, ENQUEUE)
        if failures:
            raise GateARefusedError(str(item_id or "the item"), failures)
        return version

    def _enqueue_facts_and_version(
        self, document: WorkItemDocument
    ) -> tuple[GateFacts, int | None]:
        item_id, capability = document.front.get("id"), document.front.get("capability")
        if not isinstance(item_id, str) or not isinstance(capability, str):
            return self._facts(), None  # Gate A refuses it: rule 1 or rule 2
        taken, version = self.repository.enqueue_facts(item_id, capability)
        return self._stated_facts(item_id, capability, taken, version), version

    def _stated_facts(
        self, item_id: str, capability: str, taken: bool, version: int | None
    ) -> GateFacts:
        """Gate A's facts with whether ``item_id`` is taken and ``capability``'s latest
        manifest version given; any other item or capability is read when asked for."""

        def id_taken(other: str) -> bool:
            return taken if other == item_id else self.repository.exists(other)

        def offering(other: str) -> Offering:
            return self.offering(other, version if other == capability else UNREAD)

        return GateFacts(id_taken, offering, self.world.resolves)

    def _after(self, item: WorkItem, exit: str) -> tuple[str, int | None]:
        if exit == "advance":
            return "done", None
        if exit == "kill":
            return "killed", None
        if exit == ESCALATE:
            return "escalated", None
        bounces = item.context_bounces + 1
        return ("returned" if bounces > self.context_budget else "needs-context"), bounces

    def _park_defect(
        self, item: WorkItem, token: int, failures: builtins.list[GateFailure]
    ) -> None:
        rules = "; ".join(failure.describe() for failure in failures)
        text = f"Gate A failed at pull (in-transit defect, flagged): {rules}"
        self._guarded(item.id, "needs-context", set(LEASED), token, text)

    def _guarded(
        self,
        item_id: str,
        status: str,
        before: set[str],
        token: int | None,
        text: str,
        rounds: int | None = None,
    ) -> WorkItem:
        now = self.clock()
        entries = [(WORK_LOG, log_line(now, text))]
        change = Change(status, frozenset(before), token, entries, build_rounds=rounds)
        if not self.repository.change(item_id, change, now):
            raise self._refused(item_id, token, status)
        return self.repository.item(item_id)

    def _closing(
        self,
        item: WorkItem,
        head: str | None,
        now: datetime,
        change: Change,
        text: str,
        bounces: int | None,
    ) -> Change:
        """``change`` with its work log line, and for a terminal status the item's filing
        (superseding ``head``) with the line that says where it was filed."""
        line = log_line(now, text)
        landing = None
        if change.to_status in TERMINAL:
            closed = replace(
                item, status=change.to_status, lease=None, work_log=(*item.work_log, line)
            )
            landing = self.world.filing(closed, head)
        entries = [(WORK_LOG, line)]
        if landing is not None:
            filed = f"filed to {item.subject} as {landing[0].ref}"
            entries.append((WORK_LOG, log_line(now, filed)))
        return replace(change, entries=entries, context_bounces=bounces, landing=landing)

    def _settle(
        self, item_id: str, decide: Decide, then: LeaseRequest | None = None
    ) -> tuple[WorkItem, Leased | None]:
        """Decide and apply a change in one transaction (ending with ``then``'s lease, if
        asked for): the item as it is after it, and the lease."""
        now = self.clock()
        (item, change), leased = self.repository.settle(
            item_id, lambda item, head: decide(item, head, now), now, then
        )
        settled = replace(
            item,
            status=change.to_status,
            lease=None,
            context_bounces=item.context_bounces
            if change.context_bounces is None
            else change.context_bounces,
            work_log=(*item.work_log, *(text for _section, text in change.entries)),
        )
        return settled, leased

    def _lease_request(self, worker: str, scope: Scope) -> LeaseRequest:
        """A lease for ``worker`` in ``scope`` from now, for the lease's time to live."""
        now = self.clock()

        def entry(previous: str | None, token: int) -> str:
            return log_line(now, _lease_text(worker, token, previous))

        expires = now + self.lease_ttl
        return LeaseRequest(worker, scope.capability, scope.types, now, expires, entry)

    def _checked(self, leased: Leased) -> Pulled | None:
        """Gate A at pull on a leased item: the pull, or None when it failed and the item
        was parked needs-context as an in-transit defect."""
        item, previous, manifest_version = leased
        assert item.lease is not None
        failures = gate_a(document_of(item), self._facts(item, manifest_version), PULL)
        if not failures:
            return Pulled(item, item.lease.token, previous)
        self._park_defect(item, item.lease.token, failures)
        return None

    def _refused(self, item_id: str, token: int | None, status: str) -> StudioError:
        if token is not None:
            return self._stale(item_id, token)
        current = self.repository.item(item_id).status
        return NotAllowedError(f"{item_id} is {current}: it cannot become {status}")

    def _stale(self, item_id: str, token: int | None) -> StaleLeaseError:
        return stale_refusal(self.repository.item(item_id), token)


def stale_refusal(item: WorkItem, token: int | None) -> StaleLeaseError:
    """The refusal of a write naming ``token`` to an item whose lease is not that one."""
    lease = item.lease
    held = f"held by {lease.worker} with token {lease.token}" if lease else item.status
    return StaleLeaseError(f"{item.id}: lease token {token} is stale (the item is {held})")


def _lease_text(worker: str, token: int, previous: str | None) -> str:
    if previous is None:
        return f"leased to {worker} (token {token})"
    return f"reclaimed: the lease of {previous} had expired; leased to {worker} (token {token})"
