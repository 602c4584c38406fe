"""The one seam every agent call and every compensation passes, in this order:
deny-list → circuit breaker → approval → reservation (idempotency) → the agent kind.

The reservation is the caller's durable "started" record (a node's running transition, a
compensation's compensating row), written just before the call; the caller's completed
record finalizes it. A resumed run finds a reserved-but-unfinalized call and reports it as
interrupted instead of repeating it silently (see ExecutionRun)."""

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from studio.engine.agent_kinds.base import AgentCall, AgentError, AgentKind
from studio.engine.agent_kinds.registry import KindRegistry
from studio.engine.circuit_breaker import CircuitBreakerBoard
from studio.model.governance import CircuitBreakerSettings, GovernanceSettings
from studio.model.input_limits import limit_problem
from studio.store.errors import StorageFaultError
from studio.store.human_tasks import APPROVED, REJECTED, HumanTaskRepository

NOT_TARGET_FAILURES = frozenset(
    {
        "PolicyDenied",
        "CircuitOpen",
        "ApprovalPending",
        "ApprovalRejected",
        "TemplateError",
        "InvalidAgent",
        "InvalidParameters",
        "UnknownAgent",
        "UnknownAgentKind",
        "CredentialUnavailable",
    }
)
"""Errors that say nothing about the target's health, so the breaker does not count them."""


class ApprovalPending(AgentError):
    """The call waits for a person's decision; nothing has run."""

    def __init__(self, title: str) -> None:
        super().__init__("ApprovalPending", f"waiting for approval: {title}")
        self.title = title


class ReservationRefused(Exception):
    """The caller could not record the call as started (the execution was cancelled)."""


@dataclass(frozen=True)
class DispatchRequest:
    """One call through the seam."""

    call: AgentCall
    policy: GovernanceSettings
    needs_approval: bool
    approval_title: str
    reserve: Callable[[], bool]
    tool: str | None = None


def checked_output(output: Any) -> Any:
    """An agent's output, if it keeps within the input limits: a node's output is stored,
    redacted and fed to the next nodes, a compensation's stored and redacted, so one that
    breaks a limit fails its call instead."""
    problem = limit_problem(output)
    if problem is not None:
        raise AgentError("InvalidOutput", f"the agent's output breaks a limit: {problem}")
    return output


@dataclass(frozen=True)
class AdmittedCall:
    """A call governance let through: the call (with its approval), the kind that makes it
    and the circuit-breaker settings its outcome is judged by."""

    call: AgentCall
    kind: AgentKind
    breaker: CircuitBreakerSettings


class Dispatcher:
    """Runs calls through governance, then through their agent kind."""

    def __init__(
        self, kinds: KindRegistry, human_tasks: HumanTaskRepository, breakers: CircuitBreakerBoard
    ) -> None:
        self.kinds, self.human_tasks, self.breakers = kinds, human_tasks, breakers

    async def dispatch(self, request: DispatchRequest) -> Any:
        """The call's output, or AgentError (ApprovalPending when a person must decide)."""
        admitted = self.admit(request)
        if not request.reserve():
            raise ReservationRefused()
        return await self.invoke(admitted)

    def admit(self, request: DispatchRequest) -> AdmittedCall:
        """Pass the call through governance (deny-list, circuit breaker, approval): raises
        AgentError when it may not be made. Nothing is reserved or called yet."""
        self._check_deny_list(request)
        breaker = request.policy.circuit_breaker or CircuitBreakerSettings()
        self.breakers.check(request.call.agent.id, breaker)
        call = request.call
        decision = self._pass_approval_gate(request) if request.needs_approval else None
        if decision is not None:
            call = replace(call, approval=decision)
        return AdmittedCall(call, self.kinds.get(call.agent.kind), breaker)

    def may_admit_unattended(self, request: DispatchRequest) -> bool:
        """Whether admitting the call needs nothing but this process's memory: no person's
        decision (a stored task) and no circuit that is open or holds a trial call."""
        return not request.needs_approval and self.breakers.is_closed(request.call.agent.id)

    async def invoke(self, admitted: AdmittedCall) -> Any:
        """Make an admitted call whose reservation is already recorded."""
        call, breaker = admitted.call, admitted.breaker
        agent_id = call.agent.id
        self.breakers.begin_call(agent_id)
        try:
            async with asyncio.timeout(call.timeout):  # no task of its own, unlike wait_for
                output = checked_output(await admitted.kind.run(call))
        except TimeoutError as timed_out:
            self.breakers.record_failure(agent_id, breaker)
            message = f"the call did not finish within {call.timeout:g} s"
            raise AgentError("Timeout", message) from timed_out
        except AgentError as failure:
            if failure.error_type in NOT_TARGET_FAILURES:
                self.breakers.end_call_unjudged(agent_id)
            else:
                self.breakers.record_failure(agent_id, breaker)
            raise
        except (asyncio.CancelledError, StorageFaultError):  # a fault stops the run, resumable
            self.breakers.end_call_unjudged(agent_id)
            raise
        except Exception as crash:  # an agent kind's own bug still fails only this call
            self.breakers.record_failure(agent_id, breaker)
            raise AgentError(type(crash).__name__, str(crash) or repr(crash)) from crash
        self.breakers.record_success(agent_id)
        return output

    def _check_deny_list(self, request: DispatchRequest) -> None:
        agent_id = request.call.agent.id
        if agent_id in request.policy.deny_agents:
            raise AgentError("PolicyDenied", f"agent '{agent_id}' is on the deny-list")
        tool = request.tool
        if tool is not None and tool in request.policy.deny_tools:
            raise AgentError("PolicyDenied", f"tool '{tool}' is on the deny-list")

    def _pass_approval_gate(self, request: DispatchRequest) -> dict[str, Any]:
        call = request.call
        task = self.human_tasks.request(
            call.execution_id, call.node_id, request.approval_title, call.input
        )
        if task.status == REJECTED:
            reason = f": {task.comment}" if task.comment else ""
            raise AgentError("ApprovalRejected", f"rejected by {task.decided_by}{reason}")
        if task.status != APPROVED:
            raise ApprovalPending(request.approval_title)
        return {
            "approved": True,
            "by": task.decided_by,
            "comment": task.comment,
            "at": task.decided_at.isoformat() if task.decided_at else None,
        }
