"""Compensation: after a terminal failure, undo the completed side effects in reverse
topological order, one at a time, through the same dispatch seam as every other call.

Opt-in: without ``configuration.compensation.enabled`` nothing here runs and nothing is
recorded. The execution stays failed; compensation only adds what was rolled back."""

import logging
from collections.abc import Mapping
from typing import Any

from studio.engine.agent_kinds.base import AgentCall, AgentError
from studio.engine.dispatch import ApprovalPending, Dispatcher, DispatchRequest, ReservationRefused
from studio.engine.events import EventBus
from studio.engine.node_runner import error_record
from studio.engine.rules.dag import DagPlan
from studio.engine.rules.templates import TemplateError, render
from studio.engine.run_context import RunContext
from studio.engine.transitions import TransitionRecorder
from studio.model import Workflow
from studio.model.execution import (
    COMPENSATED,
    COMPENSATING,
    COMPENSATION_FAILED,
    COMPENSATION_SUFFIX,
    COMPLETED,
    FAILED,
    NodeResult,
    UnwindStatus,
)
from studio.model.governance import CIRCUIT_OPEN, RETRY_AFTER_HUMAN, classify
from studio.store import ExecutionRepository

log = logging.getLogger("studio.engine.runner")
RUNNING_UNWIND, UNWIND_COMPLETED, UNWIND_PARTIAL = tuple(UnwindStatus)
NOT_STARTED = "not_started"
COMPENSATION_POSITION = 1_000_000
"""#comp rows sort after every real node."""


def compensation_plan(plan: DagPlan, workflow: Workflow, statuses: Mapping[str, str]) -> list[str]:
    """Completed, side-effecting, compensation-bearing nodes in strict reverse topological order."""
    compensations = {node.id: node.compensation for node in workflow.nodes}
    return [
        node_id
        for node_id in reversed(plan.topological_order)
        if statuses.get(node_id) == COMPLETED
        and (compensation := compensations[node_id]) is not None
        and compensation.side_effecting
    ]


def should_unwind(
    workflow: Workflow, statuses: Mapping[str, str], errors: Mapping[str, dict[str, Any] | None]
) -> bool:
    """Whether a failed run triggers the unwind: opted in, enough completed nodes, and no
    failure that is waiting for a person or for a target to recover."""
    settings = workflow.configuration.compensation
    if settings is None or not settings.enabled or settings.trigger.mode != "on_terminal_failure":
        return False
    completed = sum(status == COMPLETED for status in statuses.values())
    if completed < settings.trigger.min_completed_nodes:
        return False
    for node_id, status in statuses.items():
        error = errors.get(node_id) or {}
        if status == FAILED and _holds_unwind(error.get("type", "")):
            return False
    return True


def _holds_unwind(error_type: str) -> bool:
    classification = classify(error_type)
    return (
        classification.failure_class == CIRCUIT_OPEN
        or classification.disposition == RETRY_AFTER_HUMAN
    )


class Compensator:
    """Runs an unwind and records it: #comp rows, the summary, escalations and findings."""

    def __init__(
        self,
        executions: ExecutionRepository,
        dispatcher: Dispatcher,
        bus: EventBus,
    ) -> None:
        self.recorder = TransitionRecorder(executions, bus)
        self.executions, self.dispatcher, self.bus = executions, dispatcher, bus

    async def unwind(
        self, context: RunContext, order: list[str], results: Mapping[str, NodeResult]
    ) -> str:
        """Compensate ``order`` one by one; stop at the first failure. Returns the status."""
        entries = [_entry(context.workflow, node_id) for node_id in order]
        self._state(context, RUNNING_UNWIND, entries, "compensation.unwind_started")
        for index, node_id in enumerate(order):
            done = results.get(node_id + COMPENSATION_SUFFIX)
            entry = entries[index]
            if done is not None and done.status == COMPENSATED:
                entry["status"] = COMPENSATED  # finalized before a restart: never repeated
                continue
            if done is not None and done.status == COMPENSATION_FAILED:
                error = done.error or {}
                entry.update(
                    status=COMPENSATION_FAILED,
                    error=error,
                    failureClass=error.get("failureClass"),
                    recommendedAction=error.get("recommendedAction"),
                )
                return self._stop(context, entries, entry)
            if done is not None:  # reserved but never finalized: it may have run
                failure = AgentError(
                    "Interrupted",
                    "the compensation was interrupted after it "
                    "started and may have run; check the target before retrying",
                )
                self._finish_entry(context, entry, node_id, failure)
            else:
                await self._compensate(context, index, node_id, entry, results[node_id].output)
            if entry["status"] != COMPENSATED:
                return self._stop(context, entries, entry)
        self._state(context, UNWIND_COMPLETED, entries, "compensation.completed")
        return UNWIND_COMPLETED

    async def _compensate(
        self, context: RunContext, index: int, node_id: str, entry: dict, output: Any
    ) -> None:
        node = context.workflow.node(node_id)
        assert node is not None and node.compensation is not None
        comp_id = node_id + COMPENSATION_SUFFIX
        try:
            args = render(node.compensation.args, {"output": output})
        except TemplateError as unresolved:
            self._reserve(context, comp_id, index, entry, None)
            self._finish_entry(
                context, entry, node_id, AgentError("TemplateError", str(unresolved))
            )
            return
        agent = context.agents.get(node.compensation.tool)
        if agent is None:
            self._reserve(context, comp_id, index, entry, args)
            failure = AgentError(
                "UnknownAgent",
                f"compensation tool '{node.compensation.tool}' is not in the agent registry",
            )
            self._finish_entry(context, entry, node_id, failure)
            return
        context.learn_agent_secrets(agent)  # a tool's own key is hidden like a node agent's
        call = AgentCall(
            execution_id=context.execution_id,
            workflow_id=context.workflow.id or "",
            node_id=comp_id,
            agent=agent,
            input=args,
            secrets=context.secrets,
        )
        request = DispatchRequest(
            call=call,
            policy=context.policy,
            tool=node.compensation.tool,
            needs_approval=agent.id in context.policy.require_approval or agent.kind == "approval",
            approval_title=f"Approve compensation '{node.compensation.tool}' for '{node.label}'",
            reserve=lambda: self._reserve(context, comp_id, index, entry, args),
        )
        try:
            result = await self.dispatcher.dispatch(request)
        except ReservationRefused:
            self._finish_entry(
                context, entry, node_id, AgentError("Cancelled", "the execution was cancelled")
            )
            return
        except ApprovalPending as waiting:
            self._reserve(context, comp_id, index, entry, args)
            self._finish_entry(context, entry, node_id, waiting)
            return
        except AgentError as failure:
            if not entry.get("reserved"):
                self._reserve(context, comp_id, index, entry, args)
            self._finish_entry(context, entry, node_id, failure)
            return
        self.recorder.record(
            context.execution_id,
            comp_id,
            COMPENSATED,
            "compensation.compensated",
            {},
            output=context.redactor.redact(result),
        )
        entry["status"] = COMPENSATED

    def _reserve(
        self, context: RunContext, comp_id: str, index: int, entry: dict, args: Any
    ) -> bool:
        event = self.executions.begin_compensation(
            context.execution_id,
            comp_id,
            COMPENSATION_POSITION + index,
            {"tool": entry["tool"], "args": context.redactor.redact(args)},
        )
        self.bus.publish(event)
        entry["reserved"] = True
        entry["status"] = COMPENSATING
        return True

    def _finish_entry(
        self,
        context: RunContext,
        entry: dict,
        node_id: str,
        failure: AgentError,
    ) -> None:
        error = error_record(failure, context.redactor)
        self.recorder.record(
            context.execution_id,
            node_id + COMPENSATION_SUFFIX,
            COMPENSATION_FAILED,
            "compensation.failed",
            {"error": error},
            error=error,
        )
        entry.update(
            status=COMPENSATION_FAILED,
            error=error,
            failureClass=error["failureClass"],
            recommendedAction=error["recommendedAction"],
        )
        self.executions.record_finding(
            context.execution_id,
            node_id,
            error["failureClass"],
            error["recommendedAction"],
            error["message"],
        )

    def _stop(self, context: RunContext, entries: list[dict], failed: dict) -> str:
        summary = self._state(context, UNWIND_PARTIAL, entries, "compensation.partial")
        self.bus.publish(
            self.executions.note(
                context.execution_id,
                "execution.escalated",
                failed["nodeId"],
                {"reason": "compensation did not complete", "compensationSummary": summary},
            )
        )
        log.error(
            "compensation stopped",
            extra={
                "executionId": context.execution_id,
                "nodeId": failed["nodeId"],
                "action": "compensation_stopped",
                "error": (failed.get("error") or {}).get("message"),
            },
        )
        return UNWIND_PARTIAL

    def _state(
        self, context: RunContext, status: str, entries: list[dict], event_type: str
    ) -> dict:
        summary = {"entries": [{k: v for k, v in e.items() if k != "reserved"} for e in entries]}
        self.bus.publish(
            self.executions.set_compensation_state(
                context.execution_id, status, summary, event_type, {"compensationStatus": status}
            )
        )
        return summary


def _entry(workflow: Workflow, node_id: str) -> dict[str, Any]:
    node = workflow.node(node_id)
    assert node is not None and node.compensation is not None
    return {
        "nodeId": node_id,
        "compensationId": node_id + COMPENSATION_SUFFIX,
        "tool": node.compensation.tool,
        "status": NOT_STARTED,
    }
