"""The step runner: start executions of published workflows, drive, resume and cancel them."""

import asyncio
import logging
import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from studio.engine.agent_kinds.registry import KindRegistry
from studio.engine.agent_pinning import agent_choices, pinned_choices, run_agents
from studio.engine.circuit_breaker import CircuitBreakerBoard
from studio.engine.compensation import RUNNING_UNWIND, Compensator
from studio.engine.dispatch import Dispatcher
from studio.engine.events import EventBus
from studio.engine.execution_run import ExecutionRun
from studio.engine.interruption import is_interrupted
from studio.engine.node_runner import NodeRunner, needs_approval
from studio.engine.ownership import new_owner_id, owner_is_dead
from studio.engine.rerun import reused_results
from studio.engine.run_context import AgentSource, RunContext
from studio.model import AgentRegistry, Workflow
from studio.model.errors import ONLY_PUBLISHED_RUN, NotAllowedError
from studio.model.execution import CANCELLED, PENDING, RUNNING, ExecutionRecord
from studio.model.governance import GovernanceSettings
from studio.model.identifiers import identifier_problem
from studio.model.input_limits import limit_problem
from studio.store import AgentLibraryRepository, ExecutionRepository, WorkflowRepository
from studio.store.errors import DatabaseBusyError, StorageFaultError
from studio.store.human_tasks import HumanTask, HumanTaskRepository
from studio.store.schema import utc_now

log = logging.getLogger("studio.engine.runner")


@dataclass(frozen=True)
class RunnerSettings:
    """Knobs of the step runner."""

    concurrency: int = 8
    default_node_timeout: float = 60.0
    heartbeat_interval: float = 1.0
    stale_after: float = 15.0


class AlreadyDecidedError(NotAllowedError):
    """A person already decided that node otherwise; the first decision stands."""


class ExecutionBusyError(Exception):
    """Another live runner holds the execution."""


def start_refusal(workflow: Workflow, execution_input: Any) -> str | None:
    """Why a published workflow cannot start with this input, or None: an input over the
    input limits, or a node id stored before the id pattern held (it would clash with the
    names the engine derives from ids, such as ``<node>#comp``)."""
    problem = limit_problem(execution_input)
    if problem is not None:
        return f"the input cannot be used: {problem}"
    for node in workflow.nodes:
        problem = identifier_problem(node.id, "node id")
        if problem is not None:
            return f"the workflow cannot run: {problem}; import it again with a valid id"
    return None


class StepRunner:
    """Runs executions; all state lives in the store, so any runner can resume any execution."""

    def __init__(
        self,
        workflows: WorkflowRepository,
        executions: ExecutionRepository,
        agents: AgentRegistry,
        kinds: KindRegistry,
        bus: EventBus | None = None,
        settings: RunnerSettings | None = None,
        rng: random.Random | None = None,
        policy: GovernanceSettings | None = None,
        library: AgentLibraryRepository | None = None,
    ) -> None:
        self.workflows, self.executions, self.agents = workflows, executions, agents
        self.library = library or AgentLibraryRepository(executions.database)
        """Where the agent versions runs pin are kept (see ``agent_pinning``)."""
        self.bus = bus or EventBus()
        self.settings = settings or RunnerSettings()
        self.policy = policy or GovernanceSettings()
        self.owner = new_owner_id()
        self.human_tasks = HumanTaskRepository(executions.database)
        self.breakers = CircuitBreakerBoard()
        dispatcher = Dispatcher(kinds, self.human_tasks, self.breakers)
        self.node_runner = NodeRunner(
            executions,
            dispatcher,
            self.bus,
            self.settings.default_node_timeout,
            rng or random.Random(),
        )
        self.compensator = Compensator(executions, dispatcher, self.bus)
        self._active: dict[str, asyncio.Task] = {}
        self._runs: dict[str, ExecutionRun] = {}

    def start(self, workflow_id: str, execution_input: Any = None) -> ExecutionRecord:
        """Create a pending execution pinned to the workflow's current (published) version
        and to the current version of every agent it uses."""
        workflow = self.workflows.get(workflow_id)
        if workflow.status != "PUBLISHED":
            raise NotAllowedError(ONLY_PUBLISHED_RUN)
        refusal = start_refusal(workflow, execution_input)
        if refusal is not None:
            raise NotAllowedError(refusal)
        agents = agent_choices(workflow, self.agents)
        record, event = self.executions.create(workflow, execution_input, agents=agents)
        self.bus.publish(event)
        return record

    def start_from(self, execution_id: str, node_id: str) -> ExecutionRecord:
        """A pending execution that re-runs ``node_id`` and what depends on it, on the same
        workflow version, agent versions and input, reusing every other result of
        ``execution_id``."""
        source = self.executions.get(execution_id)
        workflow = self.workflows.get_version(source.workflow_id, source.workflow_version)
        refusal = start_refusal(workflow, source.input)
        if refusal is not None:
            raise NotAllowedError(refusal)
        reused = reused_results(workflow, source, node_id)
        origin = {"rerunOf": execution_id, "fromNode": node_id}
        pins = self.executions.agent_pins(execution_id)
        agents = None if pins is None else pinned_choices(self.library, pins)
        record, event = self.executions.create(workflow, source.input, reused, origin, agents)
        self.bus.publish(event)
        for later in self.executions.events(record.execution_id, after_seq=event.seq):
            self.bus.publish(later)
        return self.executions.get(record.execution_id)

    def decide(
        self, execution_id: str, node_id: str, *, approved: bool, by: str, comment: str | None
    ) -> HumanTask:
        """Record a person's decision on a node that needs approval (the first one stands).

        Raises NotFoundError for an unknown execution and NotAllowedError when the node is not
        in its workflow, does not wait for approval, or was already decided otherwise.
        """
        record = self.executions.get(execution_id)
        workflow = self.workflows.get_version(record.workflow_id, record.workflow_version)
        node = workflow.node(node_id)
        if node is None:
            raise NotAllowedError(
                f"node '{node_id}' is not in the workflow of execution {execution_id}"
            )
        agent = self._agents_of(execution_id).get(node.agent_id)
        policy = self.policy.merged_with(workflow.configuration.governance)
        if agent is None or not needs_approval(node, agent, policy):
            raise NotAllowedError(f"node '{node_id}' does not wait for approval")
        task, decided = self.human_tasks.decide(
            execution_id, node_id, approved=approved, by=by, comment=comment
        )
        if task.status != ("approved" if approved else "rejected"):
            raise AlreadyDecidedError(
                f"node '{node_id}' was already {task.status} by {task.decided_by}"
            )
        if decided is not None:
            self.bus.publish(decided)
        return task

    def stop_all(self) -> list[asyncio.Task]:
        """Stop driving every execution (the app is closing); they stay resumable.

        Returns the stopped tasks, to await: each lets go of its claim and its agents'
        processes on the way out."""
        tasks = list(self._active.values())
        for task in tasks:
            task.cancel()
        return tasks

    def is_interrupted(self, record: ExecutionRecord) -> bool:
        """Whether an unfinished execution has lost its runner and can be resumed."""
        if record.execution_id in self._active:
            return False
        if record.owner == self.owner and record.status in (PENDING, RUNNING):
            return True  # held by this runner, which no longer drives it: a storage fault
        return is_interrupted(record, utc_now(), self.settings.stale_after)

    async def execute(self, workflow_id: str, execution_input: Any = None) -> ExecutionRecord:
        """Start an execution and drive it to the end."""
        return await self.run(self.start(workflow_id, execution_input).execution_id)

    async def run(self, execution_id: str) -> ExecutionRecord:
        """Drive an execution to a terminal status; idempotent.

        A finished execution is returned as it is; one already being driven by this runner is
        awaited, not started twice; one held by another live runner raises ExecutionBusyError.
        """
        active = self._active.get(execution_id)
        if active is None:
            active = asyncio.ensure_future(self._claim_and_drive(execution_id))
            self._active[execution_id] = active
            active.add_done_callback(lambda _task: self._active.pop(execution_id, None))
        return await asyncio.shield(active)

    def cancel(self, execution_id: str) -> ExecutionRecord:
        """Cancel a pending or running execution; a finished one is returned unchanged."""
        record, events = self.executions.cancel(execution_id)
        for event in events:
            self.bus.publish(event)
        run = self._runs.get(execution_id)
        if run is not None:
            run.cancel()
        return record

    async def _claim_and_drive(self, execution_id: str) -> ExecutionRecord:
        record = self.executions.get(execution_id)
        unwinding = record.compensation_status == RUNNING_UNWIND
        if record.is_finished and not unwinding:
            return record
        # A node's step is one write transaction: on a held connection it skips the pool.
        with self.executions.database.holding_writer():
            await self._claimed_drive(record)
        return self.executions.get(execution_id)

    async def _claimed_drive(self, record: ExecutionRecord) -> None:
        """Claim the execution, drive it (or finish its unwind) and let go of it."""
        execution_id = record.execution_id
        self._claim(execution_id)
        try:
            workflow = self.workflows.get_version(record.workflow_id, record.workflow_version)
            agents = self._agents_of(execution_id)
            context = RunContext.for_execution(execution_id, workflow, self.policy, agents)
            run = ExecutionRun(
                record,
                context,
                self.executions,
                self.node_runner,
                self.compensator,
                self.bus,
                self.settings.concurrency,
                self.owner,
            )
            self._runs[execution_id] = run
            watcher = asyncio.ensure_future(self._watch(execution_id, run))
            try:
                # A crash during an unwind leaves a failed run to finish compensating.
                await (run.unwind_if_needed() if record.is_finished else run.drive())
            finally:
                watcher.cancel()
        finally:
            self._runs.pop(execution_id, None)
            self._release(execution_id)

    def _agents_of(self, execution_id: str) -> AgentSource:
        """The agent definitions the execution pinned (the current ones for an execution
        stored before pinning)."""
        pins = self.executions.agent_pins(execution_id)
        return run_agents(self.library, pins, self.agents)

    def _claim(self, execution_id: str) -> None:
        owner, heartbeat = self.executions.owner_of(execution_id)
        # This runner's own claim is left behind when a storage fault stopped its last drive.
        replacing = owner if owner and (owner == self.owner or owner_is_dead(owner)) else None
        stale_before = utc_now() - timedelta(seconds=self.settings.stale_after)
        if not self.executions.claim(execution_id, self.owner, replacing, stale_before):
            age = f"{(utc_now() - heartbeat).total_seconds():.0f} s ago" if heartbeat else "never"
            raise ExecutionBusyError(
                f"execution {execution_id} is being run by {owner} (last heartbeat {age})"
            )

    def _release(self, execution_id: str) -> None:
        """Let go of the execution; when the store cannot take even that, the claim lapses
        with this runner (a resume takes over a dead or silent owner)."""
        try:
            self.executions.release(execution_id, self.owner)
        except StorageFaultError as fault:
            log.warning(
                "claim not released: %s",
                fault,
                extra={"executionId": execution_id, "action": "release_failed"},
            )

    async def _watch(self, execution_id: str, run: ExecutionRun) -> None:
        """Keep the claim alive and notice a cancel made by another process; a store that
        cannot take the heartbeat stops the run (it stays resumable). A lock another program
        holds only skips a beat: the claim stays fresh far longer than one interval."""
        while True:
            await asyncio.sleep(self.settings.heartbeat_interval)
            try:
                status = self.executions.heartbeat(execution_id, self.owner)
            except DatabaseBusyError as busy:
                log.warning(
                    "heartbeat skipped: %s",
                    busy,
                    extra={"executionId": execution_id, "action": "heartbeat_skipped"},
                )
                continue
            except StorageFaultError as fault:
                run.stop_for(fault)
                return
            if status == CANCELLED or status is None:
                log.info(
                    "execution cancelled elsewhere",
                    extra={"executionId": execution_id, "action": "cancel_observed"},
                )
                run.cancel()
                return
