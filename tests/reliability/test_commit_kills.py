"""Property: a runner killed at random transaction boundaries of a random DAG, then resumed,
runs each node's side effect at most once, exactly once for a node that completed, and
never before the node's reservation is committed.

Each example draws a DAG of side-effecting ledger nodes (see ``random_dag``), how often each
node fails before it succeeds (some retry, some fail for good, so the nodes after them fail
too), a concurrency and one to three kills, each at a write transaction of its runner, just
before its commit or just after it (see ``commit_kills``). The first runner starts the
execution; each kill leaves its database as a dead process would and the next, fresh runner
resumes the execution from the file. A last resume, left alone, finishes it. Then the ledger
and the store must agree:

- the execution and each of its nodes are finished; a node failed only as interrupted by a
  kill, because a node before it failed, or because it fails more often than it may retry;
- a node whose call returned before its runner made another commit ended completed (its
  completion was in that commit);
- no node's side effect happened twice, no attempt was made twice and none started twice;
- a completed node's side effect happened exactly once;
- every call was made after its node's reservation was committed;
- the execution's events are numbered 1..N without a gap.

The runners never beat their heartbeat here: a heartbeat is a commit that takes no
completion along, and the property is about the run's own commits.
"""

import asyncio
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from studio.engine.agent_kinds.registry import default_kind_registry
from studio.engine.events import EventBus
from studio.engine.runner import RunnerSettings, StepRunner
from studio.model import AgentDefinition, AgentRegistry, Workflow
from studio.model.execution import EXECUTION_TERMINAL, NODE_TERMINAL
from studio.store import Database, ExecutionRepository, WorkflowRepository, open_database
from tests.reliability.commit_kills import (
    AFTER_COMMIT,
    BEFORE_COMMIT,
    CommitKiller,
    Killed,
    LedgerKind,
    Outside,
    die,
)
from tests.reliability.random_dag import RandomDag, ledger_counts
from tests.reliability.test_random_kills import event_sequence_gaps

EXAMPLES = 100
AGENT = AgentDefinition(id="ledger", name="Ledger", kind="ledger")
MAX_RETRIES = 2
FAILURES = (0, 0, 0, 0, 1, 2, MAX_RETRIES + 1)
"""How often a node fails before it succeeds: most never, some retry, some fail for good."""
FAILURES_FROM_KILLS = ("Interrupted", "UpstreamFailed")
NEVER_BEATS = 3600.0
"""The runners' heartbeat interval: longer than any example."""


@dataclass(frozen=True)
class Case:
    """One example: the DAG, how often each node fails, the runners' concurrency and where
    each killed runner dies."""

    dag: RandomDag
    failures: dict[str, int]
    concurrency: int
    kills: tuple[tuple[int, str], ...]

    def doomed(self, node_id: str) -> bool:
        """Whether the node fails more often than it may retry."""
        return self.failures[node_id] > MAX_RETRIES


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A DAG of 2–12 nodes and 1–3 kills, each within the commits a run of it makes (two
    more for each failed attempt: its retry and the next attempt's reservation)."""
    size = draw(st.integers(min_value=2, max_value=12))
    dag = RandomDag.generate(random.Random(draw(st.integers(0, 2**32 - 1))), size)
    counts = draw(st.lists(st.sampled_from(FAILURES), min_size=size, max_size=size))
    failures = dict(zip(dag.node_ids, counts, strict=True))
    commits = size + 4 + 2 * sum(min(count, MAX_RETRIES + 1) for count in counts)
    kill = st.tuples(st.integers(1, commits), st.sampled_from([BEFORE_COMMIT, AFTER_COMMIT]))
    kills = draw(st.lists(kill, min_size=1, max_size=3))
    return Case(dag, failures, draw(st.integers(min_value=1, max_value=4)), tuple(kills))


_examples = Counter[Path]()


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=cases())
def test_a_run_killed_at_commits_runs_each_side_effect_once(tmp_path: Path, case: Case) -> None:
    _examples[tmp_path] += 1
    folder = tmp_path / f"example-{_examples[tmp_path]}"
    folder.mkdir()
    outside = Outside(folder / "studio.db", folder / "ledger.txt")
    LedgerKind.outside = outside
    execution_id = play(case, outside, publish(outside.database_file, case))
    problems = outcome_problems(outside, execution_id, case)
    assert not problems, "\n".join([*problems, f"kills: {case.kills}", f"edges: {case.dag.edges}"])


def play(case: Case, outside: Outside, workflow_id: str) -> str:
    """Start the execution, let each killer kill a runner, then resume it to its end."""
    execution_id: str | None = None
    for at, when in case.kills:
        killer = CommitKiller(at, when)
        outside.killer = killer
        database = open_database(outside.database_file)
        killer.watch(database)
        runner = make_runner(database, case.concurrency)
        if execution_id is None:
            execution_id = runner.start(workflow_id).execution_id
        killer.arm()
        try:
            asyncio.run(runner.run(execution_id))
        except Killed:
            event("a runner was killed")
        die(database)
    assert execution_id is not None
    outside.killer = None
    database = open_database(outside.database_file)
    try:
        asyncio.run(make_runner(database, case.concurrency).run(execution_id))
    finally:
        database.close()
    return execution_id


def publish(database_file: Path, case: Case) -> str:
    """Store and publish the DAG as a workflow of ledger nodes; its id. The circuit breaker
    stays closed: nodes that fail on purpose must not turn the others away."""
    retry = {"maxRetries": MAX_RETRIES, "backoffBase": 0.001, "backoffMax": 0.002}
    nodes = [
        {
            "id": node_id,
            "agentId": AGENT.id,
            "constraints": {"sideEffecting": True},
            "retryPolicy": retry,
            "configuration": {"parameters": {"failures": case.failures[node_id]}},
        }
        for node_id in case.dag.node_ids
    ]
    edges = [{"source": source, "target": target} for source, target in case.dag.edges]
    breaker = {"governance": {"circuitBreaker": {"failureThreshold": 10_000}}}
    workflow = Workflow.model_validate(
        {"name": "killed dag", "nodes": nodes, "edges": edges, "configuration": breaker}
    )
    database = open_database(database_file)
    try:
        workflows = WorkflowRepository(database)
        published, problems = workflows.publish(workflows.create(workflow).id, agents())
        assert published.status == "PUBLISHED", problems
        assert published.id is not None
        return published.id
    finally:
        database.close()


def agents() -> AgentRegistry:
    registry = AgentRegistry()
    registry.add(AGENT)
    return registry


def make_runner(database: Database, concurrency: int) -> StepRunner:
    """A fresh runner on the file; it takes over a claim whatever its heartbeat's age (the
    killed runner was this same process, so only its silence tells it is gone)."""
    kinds = default_kind_registry()
    kinds.register(LedgerKind)
    settings_ = RunnerSettings(
        concurrency=concurrency, stale_after=0.0, heartbeat_interval=NEVER_BEATS
    )
    return StepRunner(
        WorkflowRepository(database),
        ExecutionRepository(database),
        agents(),
        kinds,
        EventBus(),
        settings_,
    )


def outcome_problems(outside: Outside, execution_id: str, case: Case) -> list[str]:
    """Where the ledger, the reservations seen by the calls and the store disagree."""
    problems = [f"{node} was called before its reservation" for node in outside.unreserved]
    problems += event_sequence_gaps(outside.database_file)
    database = open_database(outside.database_file)
    try:
        executions = ExecutionRepository(database)
        record = executions.get(execution_id)
        events = executions.events(execution_id)
    finally:
        database.close()
    event(f"the execution ended {record.status}")
    if record.status not in EXECUTION_TERMINAL:
        problems.append(f"the execution ended {record.status}")
    starts = Counter((e.node_id, e.payload["attempt"]) for e in events if e.type == "node.started")
    problems += [
        f"node {n} attempt {a} was started {c} times" for (n, a), c in starts.items() if c > 1
    ]
    done = ledger_counts(outside.ledger)
    problems += [
        f"attempt {line} was made {count} times"
        for line, count in done.items()
        if "!" in line and count > 1
    ]
    must_complete = {r.node_id for r in outside.returns if r.committed_after()}
    if any(r.killer is not None and r.committed_after() for r in outside.returns):
        event("a killed runner committed after a call returned")
    if any("!" in line for line in done):
        event("a node failed an attempt")
    for node_id, result in record.node_results.items():
        found = node_problems(result, done[node_id], case.doomed(node_id))
        if node_id in must_complete and result.status != "completed":
            found.append(f"ended {result.status} though its call returned before a commit")
        problems += [f"node {node_id} {p}" for p in found]
        if done[node_id] and not any(n == node_id for n, _ in starts):
            problems.append(f"node {node_id} had its side effect without a reservation")
    return problems


def node_problems(result, side_effects: int, doomed: bool) -> list[str]:
    """What is wrong with one node's end, given how often its side effect happened and
    whether it fails more often than it may retry."""
    problems = []
    if result.status not in NODE_TERMINAL:
        problems.append(f"ended {result.status}")
    if side_effects > 1:
        problems.append(f"had its side effect {side_effects} times ({result.status})")
    if result.status == "completed" and side_effects != 1:
        problems.append(f"completed with its side effect {side_effects} times")
    if doomed and result.status == "completed":
        problems.append("completed though every attempt it may make fails")
    error_type = (result.error or {}).get("type")
    allowed = (*FAILURES_FROM_KILLS, "Boom") if doomed else FAILURES_FROM_KILLS
    if result.status == "failed" and error_type not in allowed:
        problems.append(f"failed with {error_type}: {(result.error or {}).get('message')}")
    return problems
