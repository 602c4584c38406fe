"""Running one node to a terminal state through the dispatch seam: retries, waiting for a
person, and redaction of credentials from whatever is recorded."""

import asyncio
import logging
import random
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Protocol

from studio.engine.agent_kinds.base import AgentCall, AgentError
from studio.engine.credentials import (
    CredentialError,
    Redactor,
    agent_secret_name,
    resolve_credentials,
    resolve_reference,
)
from studio.engine.dispatch import ApprovalPending, Dispatcher, DispatchRequest, ReservationRefused
from studio.engine.events import EventBus
from studio.engine.overrides import effective_overrides
from studio.engine.rules.retry import calculate_backoff, should_retry
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
    item_count,
)
from studio.model.governance import GovernanceSettings, classified
from studio.store import ExecutionRepository
from studio.store.schema import utc_now

log = logging.getLogger("studio.engine.runner")


class AgentSource(Protocol):
    """Where a run finds the definition of an agent id: the versions it pinned."""

    def get(self, agent_id: str, /) -> AgentDefinition | None:
        """The definition of ``agent_id``, if the run has one."""
        ...


@dataclass
class RunContext:
    """What every node of one execution shares: the workflow, the policy, the agent
    definitions it pinned, the credentials."""

    execution_id: str
    workflow: Workflow
    policy: GovernanceSettings
    agents: AgentSource
    secrets: dict[str, str] = field(default_factory=dict, repr=False)
    credential_problem: str | None = None

    def learn_agent_secrets(self, agent: AgentDefinition) -> None:
        """Resolve an agent's own ``...Ref`` credential settings too, so that their values
        are redacted like the workflow's (the kind resolves them again for its call)."""
        for key, value in agent.settings.items():
            name = agent_secret_name(agent.id, key)
            if key.endswith("Ref") and isinstance(value, str) and name not in self.secrets:
                try:
                    self.secrets[name] = resolve_reference(value)
                except CredentialError:
                    continue  # the kind reports it when it needs the value

    @property
    def redactor(self) -> Redactor:
        """Removes credential values from anything about to be stored or logged."""
        return Redactor(self.secrets.values())

    @classmethod
    def for_execution(
        cls,
        execution_id: str,
        workflow: Workflow,
        workspace_policy: GovernanceSettings,
        agents: AgentSource,
    ):
        """Resolve the workflow's credential references for this run only."""
        policy = workspace_policy.merged_with(workflow.configuration.governance)
        context = cls(execution_id, workflow, policy, agents)
        try:
            context.secrets = resolve_credentials(workflow.configuration.credentials)
        except CredentialError as failure:
            context.credential_problem = str(failure)
        return context


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

    async def run(
        self, context: RunContext, node: Node, node_input: Any, retry_count: int
    ) -> tuple[str, Any]:
        """Attempt the node until it completes, fails for good or waits for a person."""
        while True:
            try:
                output = await self._attempt(context, node, node_input, retry_count)
            except ReservationRefused:  # cancelled meanwhile, by this process or another
                return CANCELLED, None
            except ApprovalPending as waiting:
                return self._wait_for_person(context, node, waiting)
            except AgentError as failure:
                if not should_retry(node.retry_policy, failure.error_type, retry_count):
                    self._fail(context, node, failure, retry_count)
                    return FAILED, None
                retry_count = await self._wait_to_retry(context, node, failure, retry_count)
                continue
            output = context.redactor.redact(output)
            if not self._record(
                context,
                node.id,
                COMPLETED,
                "node.completed",
                {"retryCount": retry_count, "items": item_count(output)},
                output=output,
            ):
                return CANCELLED, None
            log.info(
                "node completed", extra={**_log_fields(context, node), "action": "node_completed"}
            )
            return COMPLETED, output

    async def _attempt(
        self, context: RunContext, node: Node, node_input: Any, retry_count: int
    ) -> Any:
        agent = context.agents.get(node.agent_id)
        if agent is None:
            raise AgentError(
                "UnknownAgent", f"agent not found: '{node.agent_id}' is not in the agent registry"
            )
        if context.credential_problem is not None:
            raise AgentError("CredentialUnavailable", context.credential_problem)
        context.learn_agent_secrets(agent)
        call = self._call(context, node, agent, node_input, retry_count)
        refuse_broken_parameters(node.id, agent, call.parameters)

        def reserve() -> bool:
            log.info(
                "invoke node",
                extra={
                    **_log_fields(context, node),
                    "action": "invoke_node",
                    "retryCount": retry_count,
                },
            )
            return self._record(
                context,
                node.id,
                RUNNING,
                "node.started",
                {"attempt": retry_count + 1},
                input=node_input,
                retry_count=retry_count,
                error=None,
                next_retry_at=None,
                completed_at=None,
            )

        request = DispatchRequest(
            call=call,
            policy=context.policy,
            reserve=reserve,
            needs_approval=needs_approval(node, agent, context.policy),
            approval_title=f"Approve '{node.label}' ({agent.name}) in '{context.workflow.name}'",
        )
        return await self.dispatcher.dispatch(request)

    def _call(
        self,
        context: RunContext,
        node: Node,
        agent: AgentDefinition,
        node_input: Any,
        retry_count: int,
    ) -> AgentCall:
        configuration = effective_overrides(
            merged_configuration(context.workflow, node), context=_log_fields(context, node)
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
        self, context: RunContext, node: Node, waiting: ApprovalPending
    ) -> tuple[str, Any]:
        if not self._record(context, node.id, WAITING, "node.waiting", {"title": waiting.title}):
            return CANCELLED, None
        log.info(
            "node waits for approval",
            extra={**_log_fields(context, node), "action": "wait_for_approval"},
        )
        return WAITING, None

    async def _wait_to_retry(
        self, context: RunContext, node: Node, failure: AgentError, retry_count: int
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
        self._record(
            context,
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
                **_log_fields(context, node),
                "action": "retry_node",
                "retryCount": retry_count,
                "error": error["message"],
                "nextRetryDelay": round(delay, 3),
            },
        )
        await asyncio.sleep(delay)
        return retry_count

    def _fail(self, context: RunContext, node: Node, failure: AgentError, retry_count: int) -> None:
        error = error_record(failure, context.redactor)
        self._record(
            context,
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
                **_log_fields(context, node),
                "action": "node_failed",
                "error": error["message"],
                "retryCount": retry_count,
            },
        )

    def _record(
        self,
        context: RunContext,
        node_id: str,
        status: str,
        event_type: str,
        payload: dict,
        **fields: Any,
    ) -> bool:
        return self.recorder.record(
            context.execution_id, node_id, status, event_type, payload, **fields
        )


def error_record(failure: AgentError, redactor: Redactor) -> dict[str, Any]:
    """The stored form of an error: type, message, classification, without credentials."""
    return redactor.redact(classified(failure.to_data()))


def needs_approval(node: Node, agent: AgentDefinition, policy: GovernanceSettings) -> bool:
    """Whether a person must approve the call first."""
    return node.requires_approval or agent.kind == "approval" or agent.id in policy.require_approval


def refuse_broken_parameters(node_id: str, agent: AgentDefinition, values: dict[str, Any]) -> None:
    """Raise InvalidParameters (never retried) when the values break the agent's schema."""
    found = refusal(agent.parameters, values)
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


def _log_fields(context: RunContext, node: Node) -> dict[str, Any]:
    return {
        "executionId": context.execution_id,
        "workflowId": context.workflow.id,
        "nodeId": node.id,
        "agentId": node.agent_id,
    }
