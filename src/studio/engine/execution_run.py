"""Driving one execution from its stored state to a terminal status."""

import asyncio
import logging
import time
from typing import Any

from studio.engine.compensation import Compensator, compensation_plan, should_unwind
from studio.engine.events import EventBus
from studio.engine.execution_status import ClaimedStatus
from studio.engine.node_runner import NodeRunner, PreparedStart
from studio.engine.resume_policy import interrupted_error, resume_action
from studio.engine.rules.dag import DagPlan, Decision, build_plan, execution_output, node_input
from studio.engine.rules.frontier import Frontier
from studio.engine.run_context import RunContext
from studio.model import Node
from studio.model.execution import (
    CANCELLED,
    COMPLETED,
    FAILED,
    NODE_TERMINAL,
    PENDING,
    RETRYING,
    RUNNING,
    SKIPPED,
    WAITING,
    ExecutionEvent,
    ExecutionRecord,
    NodeStatus,
)
from studio.model.governance import classified
from studio.store import ExecutionRepository
from studio.store.errors import StorageFaultError
from studio.store.node_transitions import NodeTransition
from studio.store.schema import utc_now

log = logging.getLogger("studio.engine.runner")


class ExecutionRun:
    """The live state of one execution while a runner drives it."""

    def __init__(
        self,
        record: ExecutionRecord,
        context: RunContext,
        executions: ExecutionRepository,
        node_runner: NodeRunner,
        compensator: Compensator,
        bus: EventBus,
        concurrency: int,
        owner: str,
    ) -> None:
        self.record, self.context, self.workflow = record, context, context.workflow
        self.status = ClaimedStatus(executions, record.execution_id, owner, bus)
        self.executions, self.node_runner = executions, node_runner
        self.compensator = compensator
        self.human_tasks = node_runner.dispatcher.human_tasks
        self.concurrency = max(1, concurrency)
        self.plan: DagPlan = build_plan(self.workflow)
        self.statuses = {nid: record.node_results[nid].status for nid in self.plan.node_ids}
        self.outputs = {
            nid: r.output for nid, r in record.node_results.items() if r.status == COMPLETED
        }
        self.retry_counts = {nid: r.retry_count for nid, r in record.node_results.items()}
        self.nodes = {node.id: node for node in self.workflow.nodes}
        self.frontier = Frontier(self.plan, self.statuses)
        self.failure_roots: dict[str, tuple[str, ...]] = {}
        """For each node not run because of a failure before it: the nodes that failed."""
        self.tasks: dict[asyncio.Task, str] = {}
        self.unwritten: list[NodeTransition] = []
        """Transitions decided since the last write: they are written together (see
        ``_write``), before anything they allow happens. Between two steps of the loop only
        completions wait here: the next commit of the execution takes them along, whichever
        part of the run makes it, and every way out of the run writes what is left."""
        self.cancelled = asyncio.Event()
        self.fault: StorageFaultError | None = None
        self.database = executions.database

    async def drive(self) -> None:
        """Run every node that can run, then settle the execution's status (waiting for a
        person, completed or failed, then compensated when configured)."""
        stamp = self.database.stamp()
        self._resume_interrupted_nodes()
        self._write()
        began = (
            "execution.resumed" if self.record.status in (RUNNING, WAITING) else "execution.started"
        )
        self.status.move(RUNNING, began)
        try:
            timed_out = await self._run_nodes()
        finally:
            await self._stop_tasks()
        if self.fault is not None:
            raise self.fault
        if self.cancelled.is_set():
            return
        if self.database.changed_since(stamp):
            # The file changed under the run: make sure it is sound before reporting an end.
            await asyncio.to_thread(self.database.check_integrity, "use")
        if timed_out:
            settled = self._fail_on_timeout()
        elif WAITING in self.statuses.values():
            self._wait_for_people()
            return
        else:
            settled = self._finish()
        if settled:  # a run that lost its claim leaves the unwind to the one that has it
            await self.unwind_if_needed()

    async def unwind_if_needed(self) -> None:
        """After a terminal failure, compensate completed side effects when opted in."""
        if self.executions.status(self.record.execution_id) != FAILED:
            return
        record = self.executions.get(self.record.execution_id)
        errors = {nid: record.node_results[nid].error for nid in self.plan.node_ids}
        statuses = {nid: record.node_results[nid].status for nid in self.plan.node_ids}
        if not should_unwind(self.workflow, statuses, errors):
            return
        order = compensation_plan(self.plan, self.workflow, statuses)
        if order:
            await self.compensator.unwind(self.context, order, record.node_results)

    def _reopen_decided_nodes(self) -> bool:
        """Waiting nodes whose decision arrived while other branches ran go again."""
        reopened = False
        for node_id, status in self.statuses.items():
            if status != WAITING:
                continue
            task = self.human_tasks.get(self.record.execution_id, node_id)
            if task is None or not task.is_decided:
                continue
            payload = {"previousStatus": WAITING, "mayHaveRun": False}
            self._set(node_id, PENDING, "node.resumed", payload)
            self.frontier.reopen(node_id)
            reopened = True
        return reopened

    def _wait_for_people(self) -> None:
        waiting = [nid for nid in self.plan.topological_order if self.statuses[nid] == WAITING]
        self.status.move(WAITING, "execution.waiting", {"nodes": waiting})

    def cancel(self) -> None:
        """Stop launching nodes and cancel the running ones (the store was already updated)."""
        self.cancelled.set()
        for task in self.tasks:
            task.cancel()

    def stop_for(self, fault: StorageFaultError) -> None:
        """The store failed: stop driving and let ``drive`` raise the fault. Nothing more is
        written but the completions of calls that returned (if the store takes them), so the
        execution stays as the store last had it: resumable."""
        self.fault = fault
        self.cancel()

    async def _run_nodes(self) -> bool:
        """Launch ready nodes and collect results; True when the workflow timeout expired."""
        deadline = self._deadline()
        while not self.cancelled.is_set():
            self._settle()
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0 and (self.tasks or self.frontier.ready):
                return True  # nothing more is reserved: the run ends
            if self._launch(deadline):
                return True
            if not self.tasks and not self._reopen_decided_nodes():
                return False
            if not self.tasks:
                continue
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            done, _ = await asyncio.wait(
                self.tasks, timeout=remaining, return_when=asyncio.FIRST_COMPLETED
            )
            for task in done:
                self._collect(task)
        return False

    def _settle(self) -> None:
        """Decide the candidate nodes: queue the runnable, skip or fail those that cannot run."""
        self.frontier.settle(self.statuses, self.outputs, self._close_unrunnable)

    def _close_unrunnable(self, node_id: str, verdict: Decision) -> None:
        # Decided from what the nodes before it did: written only with their transitions.
        requires = tuple(self.plan.predecessors[node_id])
        if verdict == "skip":
            reason = {"reason": "no live incoming edge"}
            self._set(node_id, SKIPPED, "node.skipped", reason, requires=requires)
        else:
            failed = [
                p
                for p in self.plan.predecessors[node_id]
                if self.statuses[p] in (FAILED, CANCELLED)
            ]
            # Name the nodes that did fail, not those between that were never run.
            roots = [r for p in failed for r in self.failure_roots.get(p, (p,))]
            self.failure_roots[node_id] = tuple(dict.fromkeys(roots))
            named = ", ".join(repr(root) for root in self.failure_roots[node_id])
            error = classified(
                {"type": "UpstreamFailed", "message": f"upstream node {named} failed"}
            )
            payload = {"error": error}
            self._set(node_id, FAILED, "node.failed", payload, requires=requires, error=error)

    def _launch(self, deadline: float | None) -> bool:
        """Start the ready nodes there is room for. Their reservations are written in one
        commit with every transition decided since the last write (the completions that
        made them ready, the nodes skipped or failed on the way), before any call is made.
        True when that write outlasted ``deadline``: nothing is called, and the workflow's
        timeout fails the nodes reserved."""
        starts: list[tuple[Node, Any, int, PreparedStart | None]] = []
        while self.frontier.ready and len(self.tasks) + len(starts) < self.concurrency:
            node_id = self.frontier.take()
            if self._follows_a_refusal(node_id):  # it waited for a slot meanwhile
                self.statuses[node_id] = CANCELLED
                continue
            node = self.nodes[node_id]
            data = node_input(self.plan, node_id, self.record.input, self.outputs, self.statuses)
            self.statuses[node_id] = RUNNING
            retry_count = self.retry_counts.get(node_id, 0)
            # Written after the completions that made it ready, and refused with any of them.
            requires = self.plan.predecessors[node_id]
            prepared = self.node_runner.prepare(self.context, node, data, retry_count, requires)
            if prepared is not None:
                self.unwritten.append(prepared.reservation)
            starts.append((node, data, retry_count, prepared))
        self._write()
        if starts and deadline is not None and time.monotonic() >= deadline:
            return True
        for node, data, retry_count, prepared in starts:
            if self.statuses[node.id] != RUNNING:  # its reservation was refused
                continue
            if prepared is None and self._follows_a_refusal(node.id):
                self.statuses[node.id] = CANCELLED  # it reserves itself: it must not start
                continue
            admitted = None if prepared is None else prepared.admitted
            run = self.node_runner.run(self.context, node, data, retry_count, self, admitted)
            self.tasks[asyncio.ensure_future(run)] = node.id
        return False

    def _follows_a_refusal(self, node_id: str) -> bool:
        """Whether a node before it was cancelled: only a refused write does that to one."""
        return any(self.statuses[p] == CANCELLED for p in self.plan.predecessors[node_id])

    def completed(self, node_id: str, output: Any, completion: NodeTransition) -> None:
        """A node's call returned: its completion waits for the next commit (see
        ``NodeWrites``), and the nodes after it can be decided."""
        self.statuses[node_id] = COMPLETED
        self.outputs[node_id] = output
        self.unwritten.append(completion)
        self.frontier.finished(node_id)

    def write(self, transition: NodeTransition) -> bool:
        """Write a node's own transition now, with the completions waiting (see
        ``NodeWrites``); False when refused."""
        return self._write(transition) is not None

    def _collect(self, task: asyncio.Task) -> None:
        """Take how a node's task ended (a completion was taken as its call returned)."""
        node_id = self.tasks.pop(task)
        if task.cancelled():
            self.statuses[node_id] = CANCELLED
            return
        status: NodeStatus = task.result()
        if status == COMPLETED:
            return
        self.statuses[node_id] = status
        if status in NODE_TERMINAL:
            self.frontier.finished(node_id)

    def _write(self, own: NodeTransition | None = None) -> ExecutionEvent | None:
        """Write the unwritten transitions, then a node's ``own`` one, in one commit, then
        announce them; ``own``'s event (None when refused or not given).

        A waiting completion or reservation the store refuses (the execution was cancelled
        meanwhile) leaves its node cancelled. When the store fails, the completions wait on:
        the run stops, and its way out tries them once more (see ``_stop_tasks``)."""
        waiting, self.unwritten = self.unwritten, []
        batch = waiting if own is None else [*waiting, own]
        if not batch:
            return None
        try:
            events = self.node_runner.recorder.record_together(self.record.execution_id, batch)
        except StorageFaultError:  # nothing was written
            self.unwritten[:0] = [t for t in waiting if t.status == COMPLETED]
            raise
        for transition, event in zip(waiting, events, strict=False):
            self._written(transition, event)
        return events[-1] if own is not None else None

    def _written(self, transition: NodeTransition, event: ExecutionEvent | None) -> None:
        node_id = transition.node_id
        if event is not None:
            if transition.status == COMPLETED:
                self.node_runner.log_completed(self.context, self.nodes[node_id])
        elif transition.status in (COMPLETED, RUNNING, SKIPPED, FAILED):
            self.statuses[node_id] = CANCELLED  # not finished: nothing after it is decided
            self.outputs.pop(node_id, None)

    async def _stop_tasks(self) -> None:
        """Cancel the nodes still running; the completions of calls that returned are
        written first and last, however the run ends."""
        self._write_what_is_left()
        for task in self.tasks:
            task.cancel()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
        self._write_what_is_left()

    def _write_what_is_left(self) -> None:
        """Write the transitions still waiting; a store that cannot take them stops the run
        as a fault would (unless something else already stops it)."""
        try:
            self._write()
        except StorageFaultError as fault:
            self.fault = self.fault or fault

    def _resume_interrupted_nodes(self) -> None:
        """What a previous runner left unfinished: nodes between attempts or waiting for a
        person start again from pending; a node whose call had started may have run, so
        its policy decides (see resume_action)."""
        for node_id, status in self.statuses.items():
            action = resume_action(self.nodes[node_id], status)
            if action is None:
                continue
            payload = {"previousStatus": status, "mayHaveRun": status == RUNNING}
            if action == PENDING:
                event_type = "node.resumed" if status == WAITING else "node.interrupted"
                self._set(
                    node_id, PENDING, event_type, payload, started_at=None, next_retry_at=None
                )
            else:
                error = interrupted_error(self.context)
                self._set(
                    node_id, FAILED, "node.interrupted", {**payload, "error": error}, error=error
                )
            if action == FAILED:  # its successors can now be decided (they fail upstream)
                self.frontier.finished(node_id)

    def _deadline(self) -> float | None:
        if self.workflow.timeout is None:
            return None
        started = self.record.started_at or utc_now()
        elapsed = (utc_now() - started).total_seconds()
        return time.monotonic() + self.workflow.timeout - elapsed

    def _fail_on_timeout(self) -> bool:
        message = f"the workflow did not finish within its timeout of {self.workflow.timeout:g} s"
        error = classified({"type": "WorkflowTimeout", "message": message})
        for node_id, status in self.statuses.items():
            if status in (RUNNING, RETRYING) or node_id in self.frontier.ready:
                self._set(node_id, FAILED, "node.failed", {"error": error}, error=error)
        self._write()
        return self._settle_execution(FAILED, error)

    def _finish(self) -> bool:
        failed = [nid for nid in self.plan.topological_order if self.statuses[nid] == FAILED]
        unfinished = [nid for nid, status in self.statuses.items() if status not in NODE_TERMINAL]
        if failed:
            first = (
                self.executions.get(self.record.execution_id).node_results[failed[0]].error or {}
            )
            message = f"node '{failed[0]}' failed: {first.get('message', 'unknown error')}"
            return self._settle_execution(
                FAILED, {"type": "NodeFailed", "message": message, "nodes": failed}
            )
        if unfinished:
            message = f"nodes never became ready: {', '.join(unfinished)}"
            return self._settle_execution(FAILED, {"type": "Stalled", "message": message})
        return self._settle_execution(COMPLETED, None)

    def _settle_execution(self, status: str, error: dict[str, Any] | None) -> bool:
        """Give the execution its final status; False when the store refused it (cancelled
        meanwhile, or taken over by another runner)."""
        output = execution_output(self.plan, self.outputs, self.statuses)
        payload = {"error": error} if error else {}
        settled = self.status.move(
            status, f"execution.{status}", payload, output=output, error=error
        )
        ids = {"executionId": self.record.execution_id, "workflowId": self.workflow.id}
        if not settled:
            log.warning("execution not settled", extra={**ids, "action": "settle_refused"})
            return False
        action = {"action": f"execution_{status}", "status": status}
        log.info("execution finished", extra={**ids, **action})
        return True

    def _set(
        self,
        node_id: str,
        status: NodeStatus,
        event_type: str,
        payload: dict[str, Any],
        requires: tuple[str, ...] = (),
        **fields: Any,
    ) -> None:
        """Remember a node's transition, to write with the next ones (store first, then the
        bus); refused with any of ``requires`` refused in the same commit."""
        transition = NodeTransition(node_id, status, event_type, payload, fields, requires)
        self.unwritten.append(transition)
        self.statuses[node_id] = status
