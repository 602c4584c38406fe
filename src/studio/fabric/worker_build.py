"""One item's build under a lease: snapshot, Gate B, approvals, build rounds, ack.

The worker holds the lease (``studio.fabric.worker``); this module does the building:

1. ``begin_build``; each eager source is resolved and its block appended to the snapshot (a
   source that already has a block, from a lease that expired mid-build, is not resolved
   again: the same item is the same build);
2. Gate B by the capability's rule, its verdict and rationale on the work log; not Clear:
   ack ``reroute-to-steward`` with the questions or the missing context as the reason;
3. the approvals policy requires: missing or malformed is a hard stop, ack ``escalate``;
4. build rounds: the capability's workflow runs with the Order, the envelope and the snapshot;
   the refs of what it landed go to the Artifacts section; the result's ``exit`` field names
   the exit (``advance`` when there is none). ``refire-to-author`` and ``reroute-to-spec`` run
   another round inside the lease, up to the build-round budget, then ``escalate``; a gate
   node's verdict is read after each round; a failed run escalates with the failure.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Protocol

from studio.fabric.gate_b import GateBOutputError, Verdict, verdict_of_output
from studio.fabric.queue import Pulled, Scope, WorkQueue
from studio.fabric.sources import Resolved
from studio.fabric.worker_definition import Capability
from studio.model.capability_definitions import approval_refusal
from studio.model.work_items import (
    ARTIFACTS,
    ESCALATE,
    EXITS,
    SNAPSHOT,
    STATION_EXITS,
    WORK_LOG,
    ContextSource,
    WorkItem,
    iso,
)

STEWARD = "reroute-to-steward"

NextPull = tuple[str, Scope]
"""The worker and scope an ack pulls the next item for."""


@dataclass(frozen=True)
class BuildOutcome:
    """What one run of the capability's workflow came to."""

    execution_id: str
    completed: bool
    output: Any = None
    error: str | None = None
    landed: tuple[str, ...] = ()
    """Refs of the artifacts the run landed, in landing order."""
    node_outputs: Mapping[str, Any] = field(default_factory=dict)


class Build(Protocol):
    """Runs the capability's workflow once with the given input (the workspace wires the
    engine in); cancelling the call cancels the run."""

    async def __call__(self, run_input: dict[str, Any]) -> BuildOutcome: ...


class SourceResolving(Protocol):
    def resolve(self, source: ContextSource, now: datetime) -> Resolved | None: ...


@dataclass(frozen=True)
class Finished:
    """What became of one pulled item."""

    item: str
    exit: str
    status: str
    reason: str = ""
    executions: tuple[str, ...] = ()
    artifacts: tuple[str, ...] = ()
    next: Pulled | None = None
    """The item the ack leased next, when the worker asked for one (see ``ItemBuild.run``)."""

    def to_data(self) -> dict[str, Any]:
        return {
            "item": self.item,
            "exit": self.exit,
            "status": self.status,
            "reason": self.reason,
            "executions": list(self.executions),
            "artifacts": list(self.artifacts),
        }


class ItemBuild:
    """Builds pulled items of one capability."""

    def __init__(
        self,
        queue: WorkQueue,
        capability: Capability,
        build: Build,
        sources: SourceResolving,
        clock: Callable[[], datetime],
    ) -> None:
        self.queue, self.capability, self.build = queue, capability, build
        self.sources, self.clock = sources, clock

    async def run(self, pulled: Pulled, then: NextPull | None = None) -> Finished:
        """Build the item and ack it; StaleLeaseError when the lease was lost on the way.
        With ``then``, the ack also pulls the next item for that worker and scope (in the
        ack's transaction), handed over in ``Finished.next``."""
        token = pulled.token
        item = self.queue.begin_build(pulled.item.id, token)
        item, unresolved = await self._snapshot(item, token)
        rule = self.capability.rule
        if rule is not None:
            verdict = rule(item, unresolved)
            self._log(item, token, verdict.log_text(f"rule {self.capability.definition.gate.rule}"))
            if not verdict.clear:
                return self._ack(item, token, then, STEWARD, verdict.reason())
        recorded: list[object] = item.recorded_approvals()
        refusal = approval_refusal(self.capability.definition.approvals, recorded, self.clock())
        if refusal is not None:
            self._log(item, token, f"hard stop: {refusal}")
            return self._ack(item, token, then, ESCALATE, refusal)
        return await self._rounds(item, token, then)

    async def _snapshot(self, item: WorkItem, token: int) -> tuple[WorkItem, list[ContextSource]]:
        """Resolve the eager sources not yet in the snapshot: the item with their blocks added,
        and the sources that did not resolve. Resolving runs off the event loop, so a slow
        source never holds up the other slots' heartbeats."""
        present = {block.split(":", 1)[0].removeprefix("### ").strip() for block in item.snapshot}
        unresolved, blocks = [], list(item.snapshot)
        for source in item.context:
            if not source.eager or source.id in present:
                continue
            resolved = await asyncio.to_thread(self.sources.resolve, source, self.clock())
            if resolved is None:
                unresolved.append(source)
                self._log(item, token, f"context {source.id} ({source.type}) did not resolve")
            else:
                blocks.append(resolved.snapshot_block())
                self.queue.append(item.id, SNAPSHOT, blocks[-1], token)
        return replace(item, snapshot=tuple(blocks)), unresolved

    async def _rounds(self, item: WorkItem, token: int, then: NextPull | None) -> Finished:
        budget = self.capability.definition.build_rounds
        executions: list[str] = []
        landed = list(item.artifacts)
        exit = "before this lease"
        round_number = item.build_rounds
        while round_number < budget:
            round_number = self.queue.count_round(item.id, token)
            outcome = await self.build(run_input(item, token, round_number))
            executions.append(outcome.execution_id)
            for ref in outcome.landed:
                if ref not in landed:
                    landed.append(ref)
                    self.queue.append(item.id, ARTIFACTS, ref, token)
            if not outcome.completed:
                failure = f"the workflow failed (run {outcome.execution_id}): {outcome.error}"
                return self._ack(item, token, then, ESCALATE, failure, executions)
            verdict = self._node_verdict(item, token, outcome)
            if isinstance(verdict, str):
                return self._ack(item, token, then, ESCALATE, verdict, executions)
            if verdict is not None and not verdict.clear:
                return self._ack(item, token, then, STEWARD, verdict.reason(), executions)
            exit, reason = exit_of(outcome.output)
            if exit not in STATION_EXITS:
                return self._ack(item, token, then, exit, reason, executions)
            ended = f"build round {round_number} of {budget} (run {outcome.execution_id})"
            self._log(item, token, f"{ended} ended {exit}{': ' + reason if reason else ''}")
        spent = f"the build-round budget ({budget}) is spent; the last round ended {exit}"
        return self._ack(item, token, then, ESCALATE, spent, executions)

    def _node_verdict(
        self, item: WorkItem, token: int, outcome: BuildOutcome
    ) -> Verdict | str | None:
        """The gate node's verdict (logged), None without a gate node, or why it is none."""
        node = self.capability.definition.gate.node
        if node is None:
            return None
        try:
            verdict = verdict_of_output(node, outcome.node_outputs.get(node))
        except GateBOutputError as failure:
            return f"Gate B could not be judged: {failure}"
        self._log(item, token, verdict.log_text(f"node {node}"))
        return verdict

    def _ack(
        self,
        item: WorkItem,
        token: int,
        then: NextPull | None,
        exit: str,
        reason: str,
        executions: Sequence[str] = (),
    ) -> Finished:
        if exit == "advance" and not reason:
            reason = f"run {executions[-1]}" if executions else ""
        if then is None:
            closed, pulled = self.queue.ack(item.id, exit, token, reason), None
        else:
            closed, pulled = self.queue.ack_and_pull(item.id, exit, token, *then, reason)
        runs = tuple(executions)
        return Finished(item.id, exit, closed.status, reason, runs, closed.artifacts, pulled)

    def _log(self, item: WorkItem, token: int, text: str) -> None:
        self.queue.append(item.id, WORK_LOG, text, token)


def exit_of(output: Any) -> tuple[str, str]:
    """The exit a workflow's result names (its ``exit`` field; ``advance`` without one) and
    the ``reason`` it gives; an exit that is none escalates, saying so."""
    if not isinstance(output, dict) or output.get("exit") is None:
        return "advance", ""
    exit, reason = output["exit"], output.get("reason")
    reason = reason if isinstance(reason, str) else ""
    if exit not in (*EXITS, ESCALATE):
        return ESCALATE, f"the workflow's result names the exit {exit!r}, which is not an exit"
    return str(exit), reason


def run_input(item: WorkItem, token: int, round_number: int) -> dict[str, Any]:
    """What the capability's workflow receives: the Order, the envelope, the snapshot."""
    lease = item.lease
    envelope = {
        "id": item.id,
        "artifact": item.artifact,
        "capability": item.capability,
        "subject": item.subject,
        "requested_by": item.requested_by,
        "created_at": iso(item.created_at),
        "context": [source.as_dict() for source in item.context],
        "approvals": item.recorded_approvals(),
        "lease": {"worker": lease.worker if lease else None, "token": token},
    }
    return {
        "order": item.order,
        "item": envelope,
        "snapshot": list(item.snapshot),
        "round": round_number,
    }
