"""Running one node to a terminal state through the dispatch seam: retries, waiting for a
person, and redaction of credentials from whatever is recorded.

A node's first call may be admitted ahead (``prepare``) so that its reservation is written
in the same commit as the transitions that made it ready; a completion is handed to the
execution's run as the call returns, to write with the transitions it leads to, and every
other transition is written through the run too (see ``NodeWrites``)."""

import asyncio
import logging
import random
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any, Protocol

from studio.engine.agent_kinds.base import AgentCall, AgentError
from studio.engine.credentials import Redactor
from studio.engine.dispatch import (
    AdmittedCall,
    ApprovalPending,
    Dispatcher,
    DispatchRequest,
    ReservationRefused,
)
from studio.engine.events import EventBus
from studio.engine.overrides import effective_overrides
from studio.engine.rules.retry import calculate_backoff, should_retry
from studio.engine.run_context import RunContext
from studio.engine.transitions import TransitionRecorder
from studio.model import AgentDefinition, Node, Workflow
from studio.model.agent_parameters import merged_parameters, refusal
from studio.model.execution import (
    CANCELLED,
    COMPLETED,
    FAILED,
    RETRYING,
    RUNNING,
    WAITING,
    NodeStatus,
    item_count,
)
from studio.model.governance import GovernanceSettings, classified
from studio.store import ExecutionRepository
from studio.store.node_transitions import NodeTransition
from studio.store.schema import utc_now

log = logging.getLogger("studio.engine.runner")


@dataclass(frozen=True)
class PreparedStart:
    """A node's first call, admitted, and the reservation to record before it is made."""

    admitted: AdmittedCall
    reservation: NodeTransition


class NodeWrites(Protocol):
    """Where the transitions of one execution's nodes are written (its ``ExecutionRun``)."""

    def completed(self, node_id: str, output: Any, completion: NodeTransition) -> None:
        """Take a completion as the node's call returns; it is written with the next
        transitions of the execution, whichever step or node writes them, or as the run
        stops."""
        ...

    def write(self, transition: NodeTransition) -> bool:
        """Write the transition now, in one commit with the completions waiting; False when
        the node's current status does not allow it."""
        ...


def _unreserved() -> bool:
    raise AssertionError("a request is reserved through the dispatcher's caller")


class NodeRunner:
    """Runs a node's attempts and records every transition before announcing it."""

    def __init__(
        self,
        executions: ExecutionRepository,
        dispatcher: Dispatcher,
        bus: EventBus,
        default_timeout: float,
        rng: random.Random,
    ) -> None:
        self.executions, self.dispatcher = executions, dispatcher
        self.bus, self.default_timeout, self.rng = bus, default_timeout, rng
        self.recorder = TransitionRecorder(executions, bus)

    def prepare(
        self,
        context: RunContext,
        node: Node,
        node_input: Any,
        retry_count: int,
        requires: tuple[str, ...] = (),
    ) -> PreparedStart | None:
        """Admit the node's next call ahead of its reservation, so that the caller can record
        the reservation together with other transitions, in one commit, before the call.

        None when the call cannot be admitted from memory alone (a person must approve it, its
        agent's circuit is not closed) or is refused: ``run`` without an admitted call then
        reserves it itself, or records the refusal. ``requires``: the nodes whose transitions,
        in the same commit, the reservation depends on (see ``NodeTransition.requires``)."""
        try:
            request = self._request(context, node, node_input, retry_count)
            if not self.dispatcher.may_admit_unattended(request):
                return None
            admitted = self.dispatcher.admit(request)
        except AgentError:
            return None
        self._log_invoke(context, node, retry_count)
        reservation = self._reservation(node.id, node_input, retry_count, requires)
        return PreparedStart(admitted, reservation)

    async def run(
        self,
        context: RunContext,
        node: Node,
        node_input: Any,
        retry_count: int,
        writes: NodeWrites,
        admitted: AdmittedCall | None = None,
    ) -> NodeStatus:
        """Attempt the node until it completes, fails for good or waits for a person; how
        it ended.

        ``admitted``: the first attempt's call, already admitted and reserved (see
        ``prepare``). A completion is handed to ``writes`` as the call returns, not
        recorded here: the run records it with the transitions it leads to."""
        while True:
            try:
                if admitted is not None:
                    call, admitted = admitted, None
                    output = await self.dispatcher.invoke(call)
                else:
                    output = await self._attempt(context, node, node_input, retry_count, writes)
            except ReservationRefused:  # cancelled meanwhile, by this process or another
                return CANCELLED
            except ApprovalPending as waiting:
                return self._wait_for_person(context, node, waiting, writes)
            except AgentError as failure:
                if not should_retry(node.retry_policy, failure.error_type, retry_count):
                    self._fail(context, node, failure, retry_count, writes)
                    return FAILED
                retry_count = await self._wait_to_retry(context, node, failure, retry_count, writes)
                continue
            output = context.redactor.redact(output)
            payload = {"retryCount": retry_count, "items": item_count(output)}
            completion = NodeTransition(
                node.id, COMPLETED, "node.completed", payload, {"output": output}
            )
            writes.completed(node.id, output, completion)
            return COMPLETED

    def log_completed(self, context: RunContext, node: Node) -> None:
        """Log a node whose completion was recorded."""
        if log.isEnabledFor(logging.INFO):  # the fields are built only for a line written
            extra = {**log_fields(context, node), "action": "node_completed"}
            log.info("node completed", extra=extra)

    async def _attempt(
        self,
        context: RunContext,
        node: Node,
        node_input: Any,
        retry_count: int,
        writes: NodeWrites,
    ) -> Any:
        request = self._request(context, node, node_input, retry_count)

        def reserve() -> bool:
            self._log_invoke(context, node, retry_count)
            return writes.write(self._reservation(node.id, node_input, retry_count))

        return await self.dispatcher.dispatch(replace(request, reserve=reserve))

    def _request(
        self, context: RunContext, node: Node, node_input: Any, retry_count: int
    ) -> DispatchRequest:
        """The node's call through the dispatch seam; AgentError when it cannot be made."""
        agent = context.agents.get(node.agent_id)
        if agent is None:
            raise AgentError(
                "UnknownAgent", f"agent not found: '{node.agent_id}' is not in the agent registry"
            )
        if context.credential_problem is not None:
            raise AgentError("CredentialUnavailable", context.credential_problem)
        context.learn_agent_secrets(agent)
        call = self._call(context, node, agent, node_input, retry_count)
        found = context.parameter_refusal(agent, call.parameters)
        if found is not None:
            refuse_broken_parameters(node.id, agent, call.parameters, found)
        return DispatchRequest(
            call=call,
            policy=context.policy,
            reserve=_unreserved,
            needs_approval=needs_approval(node, agent, context.policy),
            approval_title=f"Approve '{node.label}' ({agent.name}) in '{context.workflow.name}'",
        )

    def _reservation(
        self, node_id: str, node_input: Any, retry_count: int, requires: tuple[str, ...] = ()
    ) -> NodeTransition:
        """The durable "started" record of a call, written before the call is made."""
        fields = {
            "input": node_input,
            "retry_count": retry_count,
            "error": None,
            "next_retry_at": None,
            "completed_at": None,
        }
        payload = {"attempt": retry_count + 1}
        return NodeTransition(node_id, RUNNING, "node.started", payload, fields, requires)

    def _log_invoke(self, context: RunContext, node: Node, retry_count: int) -> None:
        if not log.isEnabledFor(logging.INFO):
            return
        log.info(
            "invoke node",
            extra={**log_fields(context, node), "action": "invoke_node", "retryCount": retry_count},
        )

    def _call(
        self,
        context: RunContext,
        node: Node,
        agent: AgentDefinition,
        node_input: Any,
        retry_count: int,
    ) -> AgentCall:
        configuration = effective_overrides(
            merged_configuration(context.workflow, node), context=log_fields(context, node)
        )
        return AgentCall(
            execution_id=context.execution_id,
            workflow_id=context.workflow.id or "",
            node_id=node.id,
            workflow_version=context.workflow.version,
            agent=agent,
            input=node_input,
            parameters=merged_parameters(agent.parameters, node.configuration.parameters),
            configuration=configuration,
            attempt=retry_count,
            timeout=node.timeout or self.default_timeout,
            secrets=context.secrets,
        )

    def _wait_for_person(
        self, context: RunContext, node: Node, waiting: ApprovalPending, writes: NodeWrites
    ) -> NodeStatus:
        """Record the node as waiting for a person; its status (cancelled when refused)."""
        payload = {"title": waiting.title}
        if not _record(writes, node.id, WAITING, "node.waiting", payload):
            return CANCELLED
        log.info(
            "node waits for approval",
            extra={**log_fields(context, node), "action": "wait_for_approval"},
        )
        return WAITING

    async def _wait_to_retry(
        self,
        context: RunContext,
        node: Node,
        failure: AgentError,
        retry_count: int,
        writes: NodeWrites,
    ) -> int:
        policy = node.retry_policy
        assert policy is not None  # should_retry said yes, so there is a policy
        delay = calculate_backoff(retry_count, policy.backoff_base, policy.backoff_max, self.rng)
        retry_count += 1
        error = error_record(failure, context.redactor)
        payload = {
            "retryCount": retry_count,
            "maxRetries": policy.max_retries,
            "delay": delay,
            "error": error,
        }
        _record(
            writes,
            node.id,
            RETRYING,
            "node.retrying",
            payload,
            error=error,
            retry_count=retry_count,
            next_retry_at=utc_now() + timedelta(seconds=delay),
        )
        log.warning(
            "retry node",
            extra={
                **log_fields(context, node),
                "action": "retry_node",
                "retryCount": retry_count,
                "error": error["message"],
                "nextRetryDelay": round(delay, 3),
            },
        )
        await asyncio.sleep(delay)
        return retry_count

    def _fail(
        self,
        context: RunContext,
        node: Node,
        failure: AgentError,
        retry_count: int,
        writes: NodeWrites,
    ) -> None:
        error = error_record(failure, context.redactor)
        _record(
            writes,
            node.id,
            FAILED,
            "node.failed",
            {"error": error},
            error=error,
            retry_count=retry_count,
        )
        log.error(
            "node failed",
            extra={
                **log_fields(context, node),
                "action": "node_failed",
                "error": error["message"],
                "retryCount": retry_count,
            },
        )


def _record(
    writes: NodeWrites,
    node_id: str,
    status: str,
    event_type: str,
    payload: dict,
    **fields: Any,
) -> bool:
    """Write one transition of the node through its run; False when refused."""
    return writes.write(NodeTransition(node_id, status, event_type, payload, fields))


def error_record(failure: AgentError, redactor: Redactor) -> dict[str, Any]:
    """The stored form of an error: type, message, classification, without credentials."""
    return redactor.redact(classified(failure.to_data()))


def needs_approval(node: Node, agent: AgentDefinition, policy: GovernanceSettings) -> bool:
    """Whether a person must approve the call first."""
    return node.requires_approval or agent.kind == "approval" or agent.id in policy.require_approval


def refuse_broken_parameters(
    node_id: str, agent: AgentDefinition, values: dict[str, Any], found: str | None = None
) -> None:
    """Raise InvalidParameters (never retried) when the values break the agent's schema
    (``found``: the refusal, when it was already worked out)."""
    found = found if found is not None else refusal(agent.parameters, values)
    if found is not None:
        message = f"node '{node_id}': {found} (the schema of agent '{agent.id}')"
        raise AgentError("InvalidParameters", message)


def merged_configuration(workflow: Workflow, node: Node) -> dict[str, Any]:
    """Node configuration over workflow configuration, key by key."""
    base = workflow.configuration.model_dump(mode="json", by_alias=True, exclude_none=True)
    own = node.configuration.model_dump(mode="json", by_alias=True, exclude_none=True)
    merged = {**base, **{key: value for key, value in own.items() if key != "parameters"}}
    merged["parameters"] = {**base.get("parameters", {}), **own.get("parameters", {})}
    return merged


def log_fields(context: RunContext, node: Node) -> dict[str, Any]:
    """The fields every log line about a node carries."""
    return {
        "executionId": context.execution_id,
        "workflowId": context.workflow.id,
        "nodeId": node.id,
        "agentId": node.agent_id,
    }
