"""A worker: pulls a capability's items in scope, holds their leases and builds them.

Each of ``concurrency`` slots pulls the oldest leasable item in scope (Gate A at pull is the
queue's), renews its lease every third of the lease's time to live while it builds
(``studio.fabric.worker_build``), and pulls again: the build's ack leases the slot's next item
in the same transaction, and the slot pulls on its own only when that found none. A lease lost
on the way (the heartbeat or a write refused as stale: the lease expired and was reclaimed)
stops that build without an ack.
Stopping (``stop`` set, e.g. on SIGINT or SIGTERM) cancels the builds in progress and releases
their leases, so the items are back on the queue with "released" on their work log. A build
that breaks otherwise (the store refuses a write, say) is noted on the work log and its lease
left to expire, so the item is reclaimed a time to live later; the worker goes on.

With ``once`` a slot ends when nothing in scope is leasable; with ``idle_exit`` when nothing
was for that many seconds; otherwise it polls until stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from studio.fabric.queue import Pulled, Scope, WorkQueue
from studio.fabric.queue_errors import StaleLeaseError
from studio.fabric.worker_build import Finished, NextPull
from studio.model.work_items import WORK_LOG

log = logging.getLogger(__name__)

POLL_INTERVAL_S = 0.25
"""How long an idle slot waits before pulling again."""


@dataclass(frozen=True)
class WorkerSettings:
    """Who the worker is, what it serves, and when it stops."""

    name: str
    scope: Scope
    concurrency: int = 1
    once: bool = False
    idle_exit: float | None = None
    poll_interval: float = POLL_INTERVAL_S


class Building(Protocol):
    """Builds one pulled item to its ack (``worker_build.ItemBuild``)."""

    async def run(self, pulled: Pulled, then: NextPull | None = None) -> Finished: ...


@dataclass
class WorkerSummary:
    """What a worker did: every item it pulled and how each ended."""

    worker: str
    scope: Scope
    finished: list[Finished] = field(default_factory=list)
    stopped_by: str = ""

    def to_data(self) -> dict[str, Any]:
        exits: dict[str, int] = {}
        for finished in self.finished:
            exits[finished.exit] = exits.get(finished.exit, 0) + 1
        return {
            "worker": self.worker,
            "capability": self.scope.capability,
            "types": sorted(self.scope.types),
            "pulled": len(self.finished),
            "exits": exits,
            "stoppedBy": self.stopped_by,
            "items": [finished.to_data() for finished in self.finished],
        }


class Worker:
    """Runs ``concurrency`` pull-build slots until stopped or out of work."""

    def __init__(
        self,
        queue: WorkQueue,
        building: Building,
        settings: WorkerSettings,
        announce: Callable[[Finished], object] | None = None,
    ) -> None:
        self.queue, self.building, self.settings = queue, building, settings
        self.announce = announce
        self.summary = WorkerSummary(settings.name, settings.scope)

    async def run(self, stop: asyncio.Event) -> WorkerSummary:
        """Work until ``stop`` is set or every slot is out of work."""
        slots = [self._slot(stop) for _ in range(max(1, self.settings.concurrency))]
        await asyncio.gather(*slots)
        if not self.summary.stopped_by:
            self.summary.stopped_by = "stopped" if stop.is_set() else "out of work"
        return self.summary

    async def _slot(self, stop: asyncio.Event) -> None:
        idle_since = time.monotonic()
        pulled: Pulled | None = None
        while not stop.is_set():
            if pulled is None:
                try:
                    pulled = self.queue.pull(self.settings.name, self.settings.scope)
                except Exception as failure:
                    log.warning("pull failed; trying again: %s", failure)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), self.settings.poll_interval)
                    continue
            if pulled is not None:
                finished = await self._hold(pulled, stop)
                self._record(finished)
                pulled = finished.next  # the ack leased it, when there was one in scope
                idle_since = time.monotonic()
                continue
            if self.settings.once or self._idle_too_long(idle_since):
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.settings.poll_interval)
        if pulled is not None:  # leased by the last ack as the worker was told to stop
            self._record(self._release(pulled))

    def _record(self, finished: Finished) -> None:
        self.summary.finished.append(finished)
        if self.announce is not None:
            self.announce(finished)

    def _idle_too_long(self, idle_since: float) -> bool:
        limit = self.settings.idle_exit
        return limit is not None and time.monotonic() - idle_since >= limit

    async def _hold(self, pulled: Pulled, stop: asyncio.Event) -> Finished:
        """Build one item while renewing its lease; release it if the worker stops first."""
        then = (self.settings.name, self.settings.scope)
        build = asyncio.ensure_future(self.building.run(pulled, then))
        beat = asyncio.ensure_future(self._heartbeat(pulled, build))
        stopping = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait({build, stopping}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # the worker is going down: give the items back first
            build.cancel()
            await asyncio.gather(build, return_exceptions=True)
            self._release(pulled)
            if (leased_next := _next_of(build)) is not None:
                self._release(leased_next)
            raise
        finally:
            beat.cancel()
            stopping.cancel()
        if not build.done():
            build.cancel()
            await asyncio.gather(build, return_exceptions=True)
            return self._release(pulled)
        if build.cancelled():
            return _lost(pulled, "the lease was lost: its heartbeat was refused")
        failure = build.exception()
        if isinstance(failure, StaleLeaseError):
            return _lost(pulled, str(failure))
        if failure is not None:
            return self._failed(pulled, failure)
        return build.result()

    async def _heartbeat(self, pulled: Pulled, build: asyncio.Future[Finished]) -> None:
        interval = self.queue.lease_ttl.total_seconds() / 3
        while True:
            await asyncio.sleep(interval)
            try:
                self.queue.heartbeat(pulled.item.id, pulled.token)
            except StaleLeaseError:
                build.cancel()
                return
            except Exception as failure:
                log.warning(
                    "heartbeat failed; trying again: %s",
                    failure,
                    extra={"workItem": pulled.item.id},
                )

    def _release(self, pulled: Pulled) -> Finished:
        reason = f"{self.settings.name} stopping"
        try:
            item = self.queue.release(pulled.item.id, pulled.token, reason)
        except StaleLeaseError as stale:
            return _lost(pulled, str(stale))
        except Exception as failure:
            return _lost(pulled, f"could not release ({failure}); the lease will expire")
        return Finished(item.id, "released", item.status, reason)

    def _failed(self, pulled: Pulled, failure: BaseException) -> Finished:
        """A build that broke on something other than its lease (the store refused a write,
        say): said on the work log when it can be, and the lease is left to expire, so the
        item is reclaimed (by any worker) a time to live later. The worker goes on."""
        reason = " ".join(f"{type(failure).__name__}: {failure}".split())[:500]
        log.warning("build failed: %s", reason, extra={"workItem": pulled.item.id})
        text = f"build by {self.settings.name} failed; the lease is left to expire: {reason}"
        with contextlib.suppress(Exception):  # the expiring lease is the way back either way
            self.queue.append(pulled.item.id, WORK_LOG, text, pulled.token)
        return Finished(pulled.item.id, "error", "unknown", reason)


def _lost(pulled: Pulled, reason: str) -> Finished:
    return Finished(pulled.item.id, "lost", "unknown", reason)


def _next_of(build: asyncio.Future[Finished]) -> Pulled | None:
    """The item a finished build's ack leased next, if the build finished."""
    if not build.done() or build.cancelled() or build.exception() is not None:
        return None
    return build.result().next
