"""Running one node to a terminal state: dispatch to its agent kind, time it out, retry it."""

import asyncio
import logging
import random
from datetime import timedelta
from typing import Any

from studio.engine.agent_kinds.base import AgentCall, AgentError
from studio.engine.agent_kinds.registry import KindRegistry
from studio.engine.events import EventBus
from studio.engine.retry import calculate_backoff, should_retry
from studio.model import AgentRegistry, Node, Workflow
from studio.model.execution import CANCELLED, COMPLETED, FAILED, RETRYING, RUNNING
from studio.store import ExecutionRepository
from studio.store.schema import utc_now

log = logging.getLogger("studio.engine.runner")


class NodeRunner:
    """Runs a node's attempts and records every transition before announcing it."""

    def __init__(
        self,
        executions: ExecutionRepository,
        agents: AgentRegistry,
        kinds: KindRegistry,
        bus: EventBus,
        default_timeout: float,
        rng: random.Random,
    ) -> None:
        self.executions, self.agents, self.kinds = executions, agents, kinds
        self.bus, self.default_timeout, self.rng = bus, default_timeout, rng

    async def run(
        self, execution_id: str, workflow: Workflow, node: Node, node_input: Any, retry_count: int
    ) -> tuple[str, Any]:
        """Attempt the node until it completes or fails for good; returns (status, output)."""
        timeout = node.timeout or self.default_timeout
        context = {
            "executionId": execution_id,
            "workflowId": workflow.id,
            "nodeId": node.id,
            "agentId": node.agent_id,
        }
        while True:
            started = self._record(
                execution_id,
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
            if not started:  # cancelled meanwhile, by this process or another
                return CANCELLED, None
            log.info(
                "invoke node", extra={**context, "action": "invoke_node", "retryCount": retry_count}
            )
            try:
                output = await self._attempt(
                    execution_id, workflow, node, node_input, retry_count, timeout
                )
            except AgentError as failure:
                if not should_retry(node.retry_policy, failure.error_type, retry_count):
                    self._fail(execution_id, node.id, failure, retry_count, context)
                    return FAILED, None
                retry_count = await self._wait_to_retry(
                    execution_id, node, failure, retry_count, context
                )
                continue
            if not self._record(
                execution_id,
                node.id,
                COMPLETED,
                "node.completed",
                {"retryCount": retry_count},
                output=output,
            ):
                return CANCELLED, None
            log.info("node completed", extra={**context, "action": "node_completed"})
            return COMPLETED, output

    async def _attempt(
        self,
        execution_id: str,
        workflow: Workflow,
        node: Node,
        node_input: Any,
        retry_count: int,
        timeout: float,
    ) -> Any:
        agent = self.agents.get(node.agent_id)
        if agent is None:
            raise AgentError(
                "UnknownAgent", f"agent not found: '{node.agent_id}' is not in the agent registry"
            )
        kind = self.kinds.get(agent.kind)
        call = AgentCall(
            execution_id=execution_id,
            workflow_id=workflow.id or "",
            node_id=node.id,
            agent=agent,
            input=node_input,
            parameters=merged_parameters(agent.parameters, node),
            configuration=merged_configuration(workflow, node),
            attempt=retry_count,
            timeout=timeout,
        )
        try:
            return await asyncio.wait_for(kind.run(call), timeout)
        except TimeoutError as timed_out:
            raise AgentError(
                "Timeout", f"the node did not finish within {timeout:g} s"
            ) from timed_out
        except AgentError:
            raise
        except Exception as crash:  # an agent kind's own bug still fails only this node
            raise AgentError(type(crash).__name__, str(crash) or repr(crash)) from crash

    async def _wait_to_retry(
        self, execution_id: str, node: Node, failure: AgentError, retry_count: int, context: dict
    ) -> int:
        policy = node.retry_policy
        assert policy is not None  # should_retry said yes, so there is a policy
        delay = calculate_backoff(retry_count, policy.backoff_base, policy.backoff_max, self.rng)
        retry_count += 1
        next_at = utc_now() + timedelta(seconds=delay)
        payload = {
            "retryCount": retry_count,
            "maxRetries": policy.max_retries,
            "delay": delay,
            "error": failure.to_data(),
        }
        self._record(
            execution_id,
            node.id,
            RETRYING,
            "node.retrying",
            payload,
            error=failure.to_data(),
            retry_count=retry_count,
            next_retry_at=next_at,
        )
        log.warning(
            "retry node",
            extra={
                **context,
                "action": "retry_node",
                "retryCount": retry_count,
                "error": failure.message,
                "nextRetryDelay": round(delay, 3),
            },
        )
        await asyncio.sleep(delay)
        return retry_count

    def _fail(
        self, execution_id: str, node_id: str, failure: AgentError, retry_count: int, context: dict
    ) -> None:
        self._record(
            execution_id,
            node_id,
            FAILED,
            "node.failed",
            {"error": failure.to_data()},
            error=failure.to_data(),
            retry_count=retry_count,
        )
        log.error(
            "node failed",
            extra={
                **context,
                "action": "node_failed",
                "error": failure.message,
                "retryCount": retry_count,
            },
        )

    def _record(
        self,
        execution_id: str,
        node_id: str,
        status: str,
        event_type: str,
        payload: dict,
        **fields: Any,
    ) -> bool:
        event = self.executions.set_node_status(
            execution_id, node_id, status, event_type, payload, **fields
        )
        self.bus.publish(event)
        return event is not None


def merged_parameters(schema: dict[str, Any], node: Node) -> dict[str, Any]:
    """The agent schema's defaults, overridden by the node's parameter values."""
    properties = schema.get("properties", {})
    defaults = {
        name: spec["default"]
        for name, spec in properties.items()
        if isinstance(spec, dict) and "default" in spec
    }
    return {**defaults, **node.configuration.parameters}


def merged_configuration(workflow: Workflow, node: Node) -> dict[str, Any]:
    """Node configuration over workflow configuration, key by key."""
    base = workflow.configuration.model_dump(mode="json", by_alias=True, exclude_none=True)
    own = node.configuration.model_dump(mode="json", by_alias=True, exclude_none=True)
    merged = {**base, **{key: value for key, value in own.items() if key != "parameters"}}
    merged["parameters"] = {**base.get("parameters", {}), **own.get("parameters", {})}
    return merged
