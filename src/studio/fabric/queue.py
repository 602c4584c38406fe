"""The queue port: enqueue · pull · ack · release · read · append · list, with the rules that
make a backend a Fabric backend.

Gate A runs on both sides: at enqueue a failure bounces to the submitter with nothing stored;
at pull a failure parks the item ``needs-context`` as an in-transit defect and the pull goes
on to the next item. A pull leases only within the puller's scope. Every write a lease holder
makes carries the lease's fencing token; a stale token is refused. The queue decides on
``status`` alone and never reads the work log. A terminal ack files the item to its subject
in the knowledge store in the same transaction.
"""

from __future__ import annotations

import builtins
import logging
from dataclasses import replace
from datetime import datetime

from studio.fabric.queue_core import LEASE_TTL, Decide, QueueCore, stale_refusal
from studio.fabric.queue_errors import ExitRefusedError, GateARefusedError, StaleLeaseError
from studio.fabric.queue_terms import Pulled, QueueWorld, Scope
from studio.model.errors import NotAllowedError, StudioError
from studio.model.gate_a import ENQUEUE, GateFailure, gate_a
from studio.model.work_item_documents import (
    read_document,
    work_item_of,
)
from studio.model.work_items import (
    ARTIFACTS,
    GROWING_SECTIONS,
    LEASED,
    PORT_EXITS,
    SNAPSHOT,
    STATION_EXITS,
    WORK_LOG,
    Approval,
    Lease,
    WorkItem,
    approval_problem,
    log_line,
    render_work_item,
)
from studio.store.work_queue import Change, DuplicateItemError

__all__ = [
    "LEASE_TTL",
    "ExitRefusedError",
    "GateARefusedError",
    "Pulled",
    "QueueWorld",
    "Scope",
    "StaleLeaseError",
    "WorkQueue",
]

log = logging.getLogger(__name__)

OPEN = frozenset({"queued", *LEASED, "needs-context", "escalated"})


class WorkQueue(QueueCore):
    """The queue port over one database."""

    # --- the submitter's side ------------------------------------------------------------

    def lint(self, text: str) -> list[GateFailure]:
        """Gate A as enqueue runs it; nothing is stored. Raises WorkItemFormatError for a
        text that is not a work item at all."""
        document = read_document(text)
        return gate_a(document, self._enqueue_facts(document), ENQUEUE)

    def enqueue(self, text: str, by: str | None = None) -> WorkItem:
        """Put an item on the queue after Gate A; GateARefusedError (nothing stored) if not."""
        document = read_document(text)
        name = str(document.front.get("id") or "the item")
        while True:
            version = self._admitted(document)
            now = self.clock()
            item = work_item_of(document, now)
            queued = log_line(now, f"queued by {by or item.requested_by}; Gate A passed")
            entries = [
                *((SNAPSHOT, block) for block in item.snapshot),
                *((WORK_LOG, line) for line in item.work_log),
                (WORK_LOG, queued),
                *((ARTIFACTS, ref) for ref in item.artifacts),
            ]
            try:
                if self.repository.insert(item, entries, now, version):
                    return replace(
                        item, status="queued", lease=None, work_log=(*item.work_log, queued)
                    )
            except DuplicateItemError as taken:  # judged as a free id: judge it as it is
                failures = gate_a(document, self._enqueue_facts(document), ENQUEUE)
                raise GateARefusedError(name, failures or [GateFailure(1, str(taken))]) from taken
            # A manifest was published after the one Gate A read: judge the item again.
            self.manifest(item.capability)

    # --- the executor's side -------------------------------------------------------------

    def pull(self, worker: str, scope: Scope) -> Pulled | None:
        """Lease the oldest item in scope (queued, or with an expired lease: a reclaim, on
        the work log). An item failing Gate A here is parked needs-context and the next one
        is tried; None when nothing in scope is leasable."""
        while True:
            leased = self.repository.lease_next(self._lease_request(worker, scope))
            if leased is None:
                return None
            pulled = self._checked(leased)
            if pulled is not None:
                return pulled

    def heartbeat(self, item_id: str, token: int) -> Lease:
        """Renew a lease for another TTL; StaleLeaseError if the token is not current."""
        now = self.clock()
        if not self.repository.renew(item_id, token, now + self.lease_ttl, now):
            raise self._stale(item_id, token)
        lease = self.repository.item(item_id).lease
        assert lease is not None
        return lease

    def begin_build(self, item_id: str, token: int) -> WorkItem:
        """leased → in-build: the holder has started building."""
        return self._guarded(item_id, "in-build", {"leased"}, token, "build started")

    def append(self, item_id: str, section: str, text: str, token: int | None = None) -> None:
        """Add to the snapshot, the work log or the artifacts: with the lease's token while the
        item is held, without one while nobody holds it. Nothing is ever changed or removed."""
        if section not in GROWING_SECTIONS:
            raise StudioError(f"only {', '.join(GROWING_SECTIONS)} grow; '{section}' does not")
        if section == ARTIFACTS and len(text.strip().splitlines()) != 1:
            raise StudioError(f"an artifact entry is one ref on one line, not {text!r}")
        entry = log_line(self.clock(), text) if section == WORK_LOG else text.strip()
        if not self.repository.append(item_id, [(section, entry)], token):
            raise self._stale(item_id, token)

    def count_round(self, item_id: str, token: int) -> int:
        """Count a build round starting under this lease; the rounds spent so far, which the
        item keeps across leases (a reclaimed item does not get its budget back)."""
        rounds = self.repository.count_round(item_id, token, self.clock())
        if rounds is None:
            raise self._stale(item_id, token)
        return rounds

    def ack(self, item_id: str, exit: str, token: int, reason: str = "") -> WorkItem:
        """End a lease with an exit: advance → done, kill → killed, reroute-to-steward →
        needs-context (returned once over the context budget), escalate → escalated."""
        closed, _ = self._settle(item_id, self._ack_decision(exit, token, reason))
        return closed

    def ack_and_pull(
        self, item_id: str, exit: str, token: int, worker: str, scope: Scope, reason: str = ""
    ) -> tuple[WorkItem, Pulled | None]:
        """``ack``, then ``pull`` for ``worker`` in ``scope``, the lease taken in the ack's
        transaction: what a worker does between two builds, one commit fewer. A refused ack
        leases nothing. Should the next item fail Gate A at pull, the pull goes on as
        ``pull`` does; should that fail, the ack still stands, the item leased is given back
        and none is handed over."""
        decide = self._ack_decision(exit, token, reason)
        closed, leased = self._settle(item_id, decide, self._lease_request(worker, scope))
        if leased is None:
            return closed, None
        try:
            pulled = self._checked(leased)
            return closed, pulled if pulled is not None else self.pull(worker, scope)
        except Exception as failure:  # the ack is committed: it stands whatever happens here
            log.warning("ack of %s stands; the next pull failed: %s", item_id, failure)
            self._give_back(leased[0], f"the pull after {item_id}'s ack failed: {failure}")
            return closed, None

    def _give_back(self, item: WorkItem, reason: str) -> None:
        """Release an item leased for a pull that could not finish, if it still can be;
        otherwise its lease expires and it is reclaimed."""
        assert item.lease is not None
        try:
            self.release(item.id, item.lease.token, reason)
        except Exception as failure:
            log.warning("%s stays leased until its lease expires: %s", item.id, failure)

    def _ack_decision(self, exit: str, token: int, reason: str) -> Decide:
        if exit in STATION_EXITS:
            raise ExitRefusedError(
                f"'{exit}' routes between stations inside a lease; it never reaches the queue"
            )
        if exit not in PORT_EXITS:
            raise ExitRefusedError(f"'{exit}' is not an exit ({', '.join(PORT_EXITS)})")

        def decide(item: WorkItem, head: str | None, now: datetime) -> Change:
            if item.lease is None or item.lease.token != token:
                raise stale_refusal(item, token)
            status, bounces = self._after(item, exit)
            text = f"ack {exit} by {item.lease.worker} → {status}"
            text += f": {reason}" if reason else ""
            return self._closing(item, head, now, Change(status, LEASED, token), text, bounces)

        return decide

    def release(self, item_id: str, token: int, reason: str = "") -> WorkItem:
        """Give a leased item back to the queue unbuilt (a worker stopping)."""
        text = "released" + (f": {reason}" if reason else "")
        return self._guarded(item_id, "queued", set(LEASED), token, text)

    # --- reading -------------------------------------------------------------------------

    def read(self, item_id: str) -> WorkItem:
        return self.repository.item(item_id)

    def text(self, item_id: str) -> str:
        """The item as a document: front matter and the four sections."""
        return render_work_item(self.repository.item(item_id))

    def list(
        self, status: str | None = None, capability: str | None = None
    ) -> builtins.list[WorkItem]:
        """Items oldest first, envelope only (no sections)."""
        return self.repository.items(status, capability)

    def leases(self) -> builtins.list[tuple[str, Lease]]:
        return self.repository.leases()

    # --- people's actions ----------------------------------------------------------------

    def kill(self, item_id: str, reason: str, by: str) -> WorkItem:
        """A person ends an open item: killed, and filed like any terminal item."""
        text = f"killed by {by}: {reason}"

        def decide(item: WorkItem, head: str | None, now: datetime) -> Change:
            if item.status not in OPEN:
                raise NotAllowedError(f"{item_id} is {item.status}: it cannot become killed")
            return self._closing(item, head, now, Change("killed", OPEN), text, None)

        killed, _ = self._settle(item_id, decide)
        return killed

    def return_to_intake(self, item_id: str, reason: str, by: str) -> WorkItem:
        """A person sends an open item back to intake (needs-context), fencing its holder."""
        text = f"returned to intake by {by}: {reason}"
        return self._guarded(item_id, "needs-context", set(OPEN) - {"needs-context"}, None, text)

    def requeue(self, item_id: str, reason: str, by: str) -> WorkItem:
        """A person puts an item back on the queue: repaired context, a human's exit call
        after an escalation, or a lease released by hand."""
        text = f"requeued by {by}: {reason}"
        if self.repository.item(item_id).status == "escalated":  # the human's call: build again
            text += " (the build rounds start again)"
            return self._guarded(item_id, "queued", {"escalated"}, None, text, rounds=0)
        return self._guarded(item_id, "queued", set(OPEN) - {"queued"}, None, text)

    def approve(self, item_id: str, approver: str, on_behalf_of: str | None = None) -> WorkItem:
        """Record a person's sign-off on an open item (before or during its build)."""
        now = self.clock()
        approval = Approval(approver.strip(), on_behalf_of or None, now)
        problem = approval_problem(approval.as_dict())
        if problem is not None:
            raise StudioError(problem)
        behalf = f" on behalf of {on_behalf_of}" if on_behalf_of else ""
        entry = (WORK_LOG, log_line(now, f"approved by {approval.approver}{behalf}"))
        if not self.repository.add_approval(item_id, approval.as_dict(), entry):
            raise StudioError(f"{item_id} is closed: approvals are recorded on open items")
        return self.repository.item(item_id)

    # --- close-out -----------------------------------------------------------------------

    def unsigned(self) -> builtins.list[WorkItem]:
        """Filed terminal items whose result has not been delivered and signed."""
        return self.repository.unsigned()

    def signature(self, item_id: str) -> tuple[datetime, str, str] | None:
        """When, on which channel and with what SHA-256 an item's result was delivered."""
        return self.repository.signature(item_id)

    def sign(self, item_id: str, channel: str, digest: str) -> bool:
        """Record the delivery; False when it was signed before (signed items never
        re-deliver)."""
        return self.repository.sign(item_id, channel, digest, self.clock())
