"""The governed dispatch seam on a real SQLite file: deny-list → circuit breaker → approval →
reservation (idempotency) → the agent kind, for nodes and for compensations."""

import asyncio
from pathlib import Path
from typing import Any

import pytest

from studio.engine.agent_kinds.base import AgentError
from studio.engine.circuit_breaker import CircuitBreakerBoard
from studio.model.governance import CircuitBreakerSettings, GovernanceSettings
from tests.engine.governance.governance_harness import (
    APPROVALS,
    another_runner,
    dead_owner,
    governed_harness,
    runner_with_policy,
    undone_in,
)
from tests.engine.runner_harness import INVOCATIONS, Harness, chain, make_harness

# --- helpers -------------------------------------------------------------------------------


def single(agent: str = "counter", **node: Any) -> dict[str, Any]:
    """Workflow data: one node."""
    return {"name": "single", "nodes": [{"id": "a", "agentId": agent, **node}]}


def with_governance(data: dict[str, Any], **governance: Any) -> dict[str, Any]:
    """The workflow data with ``configuration.governance`` set."""
    configuration = data.setdefault("configuration", {})
    configuration["governance"] = governance
    return data


def assert_failed_with(
    harness: Harness, record, node_id: str, error_type: str, failure_class: str, action: str
) -> dict[str, Any]:
    """The node failed with this classified error and the execution failed; returns the error."""
    assert record.status == "failed"
    result = record.node_results[node_id]
    assert result.status == "failed"
    error = result.error
    assert error is not None
    assert error["type"] == error_type
    assert error["failureClass"] == failure_class
    assert error["recommendedAction"] == action
    return error


def event_types(harness: Harness, execution_id: str) -> list[str]:
    return [event.type for event in harness.executions.events(execution_id)]


def breaker(threshold: int, cooldown: float) -> dict[str, Any]:
    return {"failureThreshold": threshold, "cooldownSeconds": cooldown}


# --- deny-list -----------------------------------------------------------------------------


def test_a_workflow_deny_list_refuses_the_agent_without_invoking_it(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    workflow = harness.publish(with_governance(chain("a", "b"), denyAgents=["counter"]))
    record = harness.execute(workflow, {"x": 1})
    error = assert_failed_with(
        harness, record, "a", "PolicyDenied", "POLICY_DENIED", "escalate_to_human"
    )
    assert "counter" in error["message"] and "deny-list" in error["message"]
    assert INVOCATIONS[(record.execution_id, "a")] == 0
    assert INVOCATIONS[(record.execution_id, "b")] == 0
    assert record.node_results["b"].error["type"] == "UpstreamFailed"
    assert "node.started" not in event_types(harness, record.execution_id)


def test_the_deny_list_only_refuses_the_listed_agent(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    data = {
        "nodes": [{"id": "a", "agentId": "recorder"}, {"id": "b", "agentId": "counter"}],
        "edges": [{"source": "a", "target": "b"}],
    }
    record = harness.execute(harness.publish(with_governance(data, denyAgents=["counter"])))
    assert record.node_results["a"].status == "completed"
    assert INVOCATIONS[(record.execution_id, "a")] == 1
    assert_failed_with(harness, record, "b", "PolicyDenied", "POLICY_DENIED", "escalate_to_human")
    assert INVOCATIONS[(record.execution_id, "b")] == 0


def test_a_workspace_policy_deny_list_has_the_same_effect(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    workflow = harness.publish(single())
    runner = runner_with_policy(harness, GovernanceSettings(deny_agents=["counter"]))
    record = asyncio.run(runner.execute(workflow.id, {"x": 1}))
    assert_failed_with(harness, record, "a", "PolicyDenied", "POLICY_DENIED", "escalate_to_human")
    assert INVOCATIONS[(record.execution_id, "a")] == 0
    # The harness's own runner has no workspace policy: the same workflow runs there.
    assert harness.execute(workflow, {"x": 1}).status == "completed"


def test_workspace_and_workflow_deny_lists_are_joined(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    data = {
        "nodes": [
            {"id": "root", "agentId": "echo"},
            {"id": "b", "agentId": "recorder"},
            {"id": "c", "agentId": "counter"},
        ],
        "edges": [{"source": "root", "target": "b"}, {"source": "root", "target": "c"}],
    }
    runner = runner_with_policy(harness, GovernanceSettings(deny_agents=["recorder"]))
    workflow = harness.publish(with_governance(data, denyAgents=["counter"]))
    record = asyncio.run(runner.execute(workflow.id, {"x": 1}))
    assert record.node_results["root"].status == "completed"
    for node_id in ("b", "c"):
        assert_failed_with(
            harness, record, node_id, "PolicyDenied", "POLICY_DENIED", "escalate_to_human"
        )
        assert INVOCATIONS[(record.execution_id, node_id)] == 0


@pytest.mark.parametrize("deny", [{"denyTools": ["undo"]}, {"denyAgents": ["undo"]}])
def test_a_denied_compensation_tool_is_refused_and_never_invoked(
    tmp_path: Path, deny: dict[str, list[str]]
) -> None:
    harness = governed_harness(tmp_path)
    data = {
        "configuration": {"compensation": {"enabled": True}, "governance": deny},
        "nodes": [
            {
                "id": "a",
                "agentId": "recorder",
                "compensation": {"tool": "undo", "args": {"node": "${output.node}"}},
            },
            {"id": "b", "agentId": "failing"},
        ],
        "edges": [{"source": "a", "target": "b"}],
    }
    record = harness.execute(harness.publish(data))
    assert record.status == "failed"
    assert record.node_results["a"].status == "completed"
    assert undone_in(record.execution_id) == []
    assert INVOCATIONS[(record.execution_id, "a#comp")] == 0
    comp = record.node_results["a#comp"]
    assert comp.status == "compensation_failed"
    assert comp.error["type"] == "PolicyDenied"
    assert comp.error["failureClass"] == "POLICY_DENIED"
    assert record.compensation_status == "partial"
    [entry] = record.compensation_summary["entries"]
    assert entry["status"] == "compensation_failed"
    assert entry["failureClass"] == "POLICY_DENIED"
    assert entry["recommendedAction"] == "escalate_to_human"
    findings = harness.executions.findings(record.execution_id)
    assert {"nodeId": "a", "failureClass": "POLICY_DENIED"}.items() <= findings[0].items()


# --- circuit breaker through the runner ----------------------------------------------------


def flaky_workflow(harness: Harness, threshold: int, cooldown: float):
    return harness.publish(
        with_governance(single("flaky"), circuitBreaker=breaker(threshold, cooldown))
    )


def run_flaky(harness: Harness, workflow, fail: bool):
    record = harness.execute(workflow, {"fail": fail})
    return record, INVOCATIONS[(record.execution_id, "a")]


def test_consecutive_failures_open_the_circuit_and_later_calls_are_refused(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    workflow = harness.publish(with_governance(single("failing"), circuitBreaker=breaker(2, 3600)))
    for _ in range(2):
        record = harness.execute(workflow)
        assert_failed_with(harness, record, "a", "Boom", "AGENT_ERROR", "manual_review_required")
        assert INVOCATIONS[(record.execution_id, "a")] == 1
    assert harness.runner.breakers.state_of("failing") == "open"
    third = harness.execute(workflow)
    error = assert_failed_with(
        harness, third, "a", "CircuitOpen", "CIRCUIT_OPEN", "retry_after_target_recovery"
    )
    assert "failing" in error["message"]
    assert INVOCATIONS[(third.execution_id, "a")] == 0
    # Other agents are not affected by this agent's circuit.
    assert harness.execute(harness.publish(single())).status == "completed"


def test_one_failure_below_the_threshold_keeps_the_circuit_closed(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    workflow = flaky_workflow(harness, 2, 3600)
    run_flaky(harness, workflow, fail=True)
    assert harness.runner.breakers.state_of("flaky") == "closed"
    record, calls = run_flaky(harness, workflow, fail=False)
    assert record.status == "completed" and calls == 1
    # The success reset the count: one more failure still does not open it.
    run_flaky(harness, workflow, fail=True)
    assert harness.runner.breakers.state_of("flaky") == "closed"


def board_on_clock(harness: Harness, clock: "FakeClock") -> CircuitBreakerBoard:
    """Give the harness's runner a breaker board that reads ``clock``."""
    board = CircuitBreakerBoard(clock)
    harness.runner.breakers = board
    harness.runner.node_runner.dispatcher.breakers = board
    return board


def test_after_the_cooldown_one_trial_goes_through_and_its_outcome_decides(
    tmp_path: Path,
) -> None:
    cooldown = 30.0
    harness = governed_harness(tmp_path)
    workflow = flaky_workflow(harness, 2, cooldown)
    clock = FakeClock()
    boards = board_on_clock(harness, clock)

    def open_circuit() -> None:
        for _ in range(2):
            run_flaky(harness, workflow, fail=True)
        assert boards.state_of("flaky") == "open"
        refused, calls = run_flaky(harness, workflow, fail=False)
        assert refused.node_results["a"].error["type"] == "CircuitOpen"
        assert calls == 0

    # A successful trial closes the circuit.
    open_circuit()
    clock.now += cooldown - 0.1
    refused, calls = run_flaky(harness, workflow, fail=False)
    assert refused.node_results["a"].error["type"] == "CircuitOpen" and calls == 0
    clock.now += 0.1
    trial, calls = run_flaky(harness, workflow, fail=False)
    assert trial.status == "completed" and calls == 1
    assert boards.state_of("flaky") == "closed"
    after, calls = run_flaky(harness, workflow, fail=False)
    assert after.status == "completed" and calls == 1

    # A failing trial opens it again at once, without waiting for the threshold.
    open_circuit()
    clock.now += cooldown
    trial, calls = run_flaky(harness, workflow, fail=True)
    assert trial.node_results["a"].error["type"] == "Boom" and calls == 1
    assert boards.state_of("flaky") == "open"
    refused, calls = run_flaky(harness, workflow, fail=False)
    assert refused.node_results["a"].error["type"] == "CircuitOpen" and calls == 0


def test_governance_refusals_do_not_count_as_target_failures(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    workflow = harness.publish(
        with_governance(single("flaky"), denyAgents=["flaky"], circuitBreaker=breaker(1, 3600))
    )
    for _ in range(3):
        record = harness.execute(workflow)
        assert record.node_results["a"].error["type"] == "PolicyDenied"
    assert harness.runner.breakers.state_of("flaky") == "closed"


def test_a_trial_held_at_the_approval_gate_does_not_wedge_the_circuit(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    settings = CircuitBreakerSettings(failure_threshold=1, cooldown_seconds=0)
    workflow = harness.publish(
        with_governance(single("recorder", requiresApproval=True), circuitBreaker=breaker(1, 0))
    )
    harness.runner.breakers.record_failure("recorder", settings)  # open, cooldown already over
    waiting = harness.execute(workflow, {"x": 1})
    assert waiting.status == "waiting"
    harness.runner.human_tasks.decide(
        waiting.execution_id, "a", approved=True, by="ana", comment="ok"
    )
    record = asyncio.run(harness.runner.run(waiting.execution_id))
    assert record.status == "completed", record.node_results["a"].error
    assert INVOCATIONS[(record.execution_id, "a")] == 1


# --- CircuitBreakerBoard with an injected clock --------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


SETTINGS = CircuitBreakerSettings(failure_threshold=3, cooldown_seconds=10)


def refused(board: CircuitBreakerBoard, agent: str = "x") -> bool:
    """Try a call as the dispatcher does: check, then (if allowed) let it reach the agent."""
    try:
        board.check(agent, SETTINGS)
    except AgentError as error:
        assert error.error_type == "CircuitOpen"
        return True
    board.begin_call(agent)
    return False


def test_board_opens_at_the_threshold_of_consecutive_failures() -> None:
    board = CircuitBreakerBoard(FakeClock())
    for _ in range(2):
        board.record_failure("x", SETTINGS)
        assert board.state_of("x") == "closed" and not refused(board)
    board.record_failure("x", SETTINGS)
    assert board.state_of("x") == "open"
    assert refused(board)
    assert not refused(board, "y")  # circuits are per agent


def test_board_success_resets_the_consecutive_count() -> None:
    board = CircuitBreakerBoard(FakeClock())
    board.record_failure("x", SETTINGS)
    board.record_failure("x", SETTINGS)
    board.record_success("x")
    board.record_failure("x", SETTINGS)
    board.record_failure("x", SETTINGS)
    assert board.state_of("x") == "closed"


def test_board_refuses_until_the_cooldown_passes_then_allows_one_trial() -> None:
    clock = FakeClock()
    board = CircuitBreakerBoard(clock)
    for _ in range(3):
        board.record_failure("x", SETTINGS)
    clock.now += 9.9
    assert refused(board)
    clock.now += 0.1
    assert not refused(board)  # the trial
    assert board.state_of("x") == "half-open"
    assert refused(board)  # only one trial at a time
    clock.now += 100
    assert refused(board)  # still one trial, however long it takes


def test_board_a_successful_trial_closes_the_circuit() -> None:
    clock = FakeClock()
    board = CircuitBreakerBoard(clock)
    for _ in range(3):
        board.record_failure("x", SETTINGS)
    clock.now += 10
    board.check("x", SETTINGS)
    board.record_success("x")
    assert board.state_of("x") == "closed"
    assert not refused(board)
    board.record_failure("x", SETTINGS)  # counting starts from zero again
    assert board.state_of("x") == "closed"


def test_board_a_failing_trial_reopens_for_a_full_cooldown() -> None:
    clock = FakeClock()
    board = CircuitBreakerBoard(clock)
    for _ in range(3):
        board.record_failure("x", SETTINGS)
    clock.now += 10
    board.check("x", SETTINGS)
    clock.now += 5
    board.record_failure("x", SETTINGS)
    assert board.state_of("x") == "open"
    clock.now += 9.9
    assert refused(board)
    clock.now += 0.1
    assert not refused(board)


def test_board_the_refusal_says_how_long_to_wait() -> None:
    clock = FakeClock()
    board = CircuitBreakerBoard(clock)
    for _ in range(3):
        board.record_failure("x", SETTINGS)
    clock.now += 4
    with pytest.raises(AgentError, match=r"3 consecutive failures; calls resume in 6 s"):
        board.check("x", SETTINGS)


def test_board_threshold_one_opens_on_the_first_failure() -> None:
    board = CircuitBreakerBoard(FakeClock())
    board.record_failure("x", CircuitBreakerSettings(failure_threshold=1, cooldown_seconds=10))
    assert board.state_of("x") == "open"


# --- order: deny-list → breaker → approval -------------------------------------------------


def test_a_denied_node_that_requires_approval_creates_no_human_task(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    workflow = harness.publish(
        with_governance(single("recorder", requiresApproval=True), denyAgents=["recorder"])
    )
    record = harness.execute(workflow, {"x": 1})
    assert_failed_with(harness, record, "a", "PolicyDenied", "POLICY_DENIED", "escalate_to_human")
    assert harness.runner.human_tasks.for_execution(record.execution_id) == []
    assert harness.runner.human_tasks.waiting() == []


def test_a_denied_agent_is_refused_before_its_open_circuit_is_consulted(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    for _ in range(5):
        harness.runner.breakers.record_failure("recorder", CircuitBreakerSettings())
    workflow = harness.publish(with_governance(single("recorder"), denyAgents=["recorder"]))
    record = harness.execute(workflow)
    assert_failed_with(harness, record, "a", "PolicyDenied", "POLICY_DENIED", "escalate_to_human")


def test_an_open_circuit_refuses_before_approval_is_asked(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    for _ in range(5):
        harness.runner.breakers.record_failure("recorder", CircuitBreakerSettings())
    record = harness.execute(harness.publish(single("recorder", requiresApproval=True)))
    assert_failed_with(
        harness, record, "a", "CircuitOpen", "CIRCUIT_OPEN", "retry_after_target_recovery"
    )
    assert harness.runner.human_tasks.for_execution(record.execution_id) == []


# --- approvals ------------------------------------------------------------------------------


def start_waiting(harness: Harness, data: dict[str, Any], execution_input: Any):
    record = harness.execute(harness.publish(data), execution_input)
    assert record.status == "waiting"
    assert record.node_results["a"].status == "waiting"
    return record


def test_a_node_that_requires_approval_waits_with_a_human_task(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    record = start_waiting(harness, single("recorder", requiresApproval=True), {"x": 1})
    execution_id = record.execution_id
    assert INVOCATIONS[(execution_id, "a")] == 0
    task = harness.runner.human_tasks.get(execution_id, "a")
    assert task is not None and task.status == "pending"
    assert task.input == {"x": 1}
    assert "a" in task.title
    assert [t.node_id for t in harness.runner.human_tasks.waiting()] == ["a"]
    types = event_types(harness, execution_id)
    assert "node.waiting" in types and types[-1] == "execution.waiting"
    assert "node.started" not in types


def test_an_approved_node_runs_with_the_decision(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    waiting = start_waiting(harness, single("recorder", requiresApproval=True), {"x": 1})
    execution_id = waiting.execution_id
    harness.runner.human_tasks.decide(execution_id, "a", approved=True, by="ana", comment="ok")
    record = asyncio.run(harness.runner.run(execution_id))
    assert record.status == "completed"
    assert record.output == {"node": "a"}
    assert INVOCATIONS[(execution_id, "a")] == 1
    task = harness.runner.human_tasks.get(execution_id, "a")
    assert (task.status, task.decided_by, task.comment) == ("approved", "ana", "ok")
    assert task.decided_at is not None
    decision = APPROVALS[(execution_id, "a")]
    assert decision["approved"] is True
    assert (decision["by"], decision["comment"]) == ("ana", "ok")
    assert harness.runner.human_tasks.waiting() == []


def test_a_rejected_node_fails_with_the_comment(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    waiting = start_waiting(harness, single("recorder", requiresApproval=True), {"x": 1})
    execution_id = waiting.execution_id
    harness.runner.human_tasks.decide(
        execution_id, "a", approved=False, by="bo", comment="too risky"
    )
    record = asyncio.run(harness.runner.run(execution_id))
    error = assert_failed_with(
        harness, record, "a", "ApprovalRejected", "APPROVAL_REJECTED", "manual_review_required"
    )
    assert "too risky" in error["message"] and "bo" in error["message"]
    assert INVOCATIONS[(execution_id, "a")] == 0


def test_the_first_decision_stands(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    waiting = start_waiting(harness, single("recorder", requiresApproval=True), {"x": 1})
    tasks = harness.runner.human_tasks
    tasks.decide(waiting.execution_id, "a", approved=False, by="bo", comment="no")
    later, event = tasks.decide(waiting.execution_id, "a", approved=True, by="ana", comment="yes")
    assert (later.status, later.decided_by) == ("rejected", "bo")
    assert event is None


@pytest.mark.parametrize("approved", [True, False])
def test_a_decision_made_before_the_run_reaches_the_node_is_used_at_once(
    tmp_path: Path, approved: bool
) -> None:
    harness = governed_harness(tmp_path)
    workflow = harness.publish(single("recorder", requiresApproval=True))
    started = harness.runner.start(workflow.id, {"x": 1})
    execution_id = started.execution_id
    harness.runner.human_tasks.decide(
        execution_id, "a", approved=approved, by="ana", comment="ahead"
    )
    record = asyncio.run(harness.runner.run(execution_id))
    assert "node.waiting" not in event_types(harness, execution_id)
    if approved:
        assert record.status == "completed"
        assert INVOCATIONS[(execution_id, "a")] == 1
        assert APPROVALS[(execution_id, "a")]["by"] == "ana"
    else:
        assert record.node_results["a"].error["type"] == "ApprovalRejected"
        assert INVOCATIONS[(execution_id, "a")] == 0


def test_a_waiting_execution_survives_a_restart(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    data = chain("a", "b", agent="recorder")
    data["nodes"][1]["requiresApproval"] = True
    record = harness.execute(harness.publish(data), {"x": 1})
    assert record.status == "waiting"
    assert record.node_results["a"].status == "completed"
    assert record.node_results["b"].status == "waiting"
    execution_id = record.execution_id
    task = harness.runner.human_tasks.get(execution_id, "b")
    assert task.input == {"node": "a"}  # b's input is a's output

    restarted = another_runner(harness)
    restarted.human_tasks.decide(execution_id, "b", approved=True, by="ana", comment="ok")
    finished = asyncio.run(restarted.run(execution_id))
    assert finished.status == "completed"
    assert INVOCATIONS[(execution_id, "a")] == 1
    assert INVOCATIONS[(execution_id, "b")] == 1
    types = event_types(harness, execution_id)
    assert "node.resumed" in types and "execution.resumed" in types


def test_a_still_undecided_execution_waits_again_after_a_restart(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    record = start_waiting(harness, single("recorder", requiresApproval=True), {"x": 1})
    again = asyncio.run(another_runner(harness).run(record.execution_id))
    assert again.status == "waiting"
    assert len(harness.runner.human_tasks.for_execution(record.execution_id)) == 1
    assert INVOCATIONS[(record.execution_id, "a")] == 0


def test_a_policy_require_approval_works_like_the_node_flag(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    data = with_governance(single("recorder"), requireApproval=["recorder"])
    waiting = start_waiting(harness, data, {"x": 1})
    harness.runner.human_tasks.decide(
        waiting.execution_id, "a", approved=True, by="ana", comment=None
    )
    record = asyncio.run(harness.runner.run(waiting.execution_id))
    assert record.status == "completed"
    assert APPROVALS[(record.execution_id, "a")]["comment"] is None


def test_a_workspace_require_approval_works_like_the_node_flag(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    runner = runner_with_policy(harness, GovernanceSettings(require_approval=["recorder"]))
    record = asyncio.run(runner.execute(harness.publish(single("recorder")).id, {"x": 1}))
    assert record.status == "waiting"
    assert runner.human_tasks.get(record.execution_id, "a").status == "pending"


def test_the_approval_kind_passes_its_input_on_after_approval(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    data = {
        "nodes": [{"id": "a", "agentId": "gate"}, {"id": "b", "agentId": "counter"}],
        "edges": [{"source": "a", "target": "b"}],
    }
    waiting = start_waiting(harness, data, {"ticket": 7})
    harness.runner.human_tasks.decide(
        waiting.execution_id, "a", approved=True, by="ana", comment="go"
    )
    record = asyncio.run(harness.runner.run(waiting.execution_id))
    assert record.status == "completed"
    assert record.node_results["a"].output == {"ticket": 7}
    assert record.output == {"ticket": 7}


# --- reservation / idempotency on resume ---------------------------------------------------


def left_running(harness: Harness, data: dict[str, Any]) -> str:
    """What a runner killed while ``b`` was running leaves behind; returns the execution id."""
    record = harness.runner.start(harness.publish(data).id, {"n": 1})
    execution_id = record.execution_id
    repo = harness.executions
    repo.set_execution_status(execution_id, "running", "execution.started")
    repo.set_node_status(execution_id, "a", "running", "node.started", input={"n": 1})
    repo.set_node_status(execution_id, "a", "completed", "node.completed", output={"n": 1})
    repo.set_node_status(execution_id, "b", "running", "node.started", input={"n": 1})
    repo.claim(execution_id, dead_owner(), None, record.created_at)
    return execution_id


def side_effecting_chain(how: str, **constraints: Any) -> dict[str, Any]:
    data = chain("a", "b")
    node = data["nodes"][1]
    if how == "constraint":
        node["constraints"] = {"sideEffecting": True, **constraints}
    else:
        node["compensation"] = {"tool": "undo", "args": {}}
        if constraints:
            node["constraints"] = constraints
    return data


@pytest.mark.parametrize("how", ["constraint", "compensation"])
def test_an_interrupted_side_effecting_node_is_failed_not_repeated(
    tmp_path: Path, how: str
) -> None:
    harness = governed_harness(tmp_path)
    execution_id = left_running(harness, side_effecting_chain(how))
    record = asyncio.run(harness.runner.run(execution_id))
    error = assert_failed_with(
        harness, record, "b", "Interrupted", "INTERRUPTED", "manual_review_required"
    )
    assert "may have run" in error["message"]
    assert INVOCATIONS[(execution_id, "a")] == 0
    assert INVOCATIONS[(execution_id, "b")] == 0
    interrupted = [
        e for e in harness.executions.events(execution_id) if e.type == "node.interrupted"
    ]
    assert [e.node_id for e in interrupted] == ["b"]
    assert interrupted[0].payload["mayHaveRun"] is True


@pytest.mark.parametrize("how", ["constraint", "compensation"])
def test_on_interrupted_retry_runs_a_side_effecting_node_again(tmp_path: Path, how: str) -> None:
    harness = governed_harness(tmp_path)
    execution_id = left_running(harness, side_effecting_chain(how, onInterrupted="retry"))
    record = asyncio.run(harness.runner.run(execution_id))
    assert record.status == "completed"
    assert INVOCATIONS[(execution_id, "a")] == 0
    assert INVOCATIONS[(execution_id, "b")] == 1


def test_an_interrupted_node_without_side_effects_runs_again(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    execution_id = left_running(harness, chain("a", "b", "c"))
    record = asyncio.run(harness.runner.run(execution_id))
    assert record.status == "completed"
    assert INVOCATIONS[(execution_id, "a")] == 0
    assert INVOCATIONS[(execution_id, "b")] == 1
    assert INVOCATIONS[(execution_id, "c")] == 1


def test_a_completed_node_is_never_invoked_again(tmp_path: Path) -> None:
    harness = governed_harness(tmp_path)
    data = chain("a", "b")
    data["nodes"][0]["constraints"] = {"sideEffecting": True}
    execution_id = left_running(harness, data)
    record = asyncio.run(harness.runner.run(execution_id))
    assert record.status == "completed"
    assert INVOCATIONS[(execution_id, "a")] == 0
    assert record.node_results["a"].output == {"n": 1}
    again = asyncio.run(another_runner(harness).run(execution_id))
    assert again.to_data() == record.to_data()
    assert INVOCATIONS[(execution_id, "b")] == 1


def test_the_nodes_downstream_of_an_interrupted_node_fail_as_upstream_failed(
    tmp_path: Path,
) -> None:
    harness = governed_harness(tmp_path)
    data = chain("a", "b", "c")
    data["nodes"][1]["constraints"] = {"sideEffecting": True}
    execution_id = left_running(harness, data)
    record = asyncio.run(harness.runner.run(execution_id))
    assert record.status == "failed"
    assert record.node_results["c"].status == "failed"
    assert record.node_results["c"].error["type"] == "UpstreamFailed"


def test_a_decision_made_while_other_branches_run_is_picked_up_by_the_same_run(
    tmp_path: Path,
) -> None:
    harness = make_harness(tmp_path)
    data = {
        "nodes": [
            {"id": "start", "agentId": "counter"},
            {"id": "gate", "agentId": "counter", "requiresApproval": True},
            {"id": "slow", "agentId": "counter", "configuration": {"parameters": {"sleep": 0.5}}},
        ],
        "edges": [{"source": "start", "target": "gate"}, {"source": "start", "target": "slow"}],
    }
    workflow = harness.publish(data)

    async def decide_while_slow_runs():
        record = harness.runner.start(workflow.id)
        task = asyncio.ensure_future(harness.runner.run(record.execution_id))
        while harness.executions.get(record.execution_id).node_results["gate"].status != "waiting":
            await asyncio.sleep(0.02)
        harness.runner.human_tasks.decide(
            record.execution_id, "gate", approved=True, by="ana", comment=None
        )
        return await asyncio.wait_for(task, 10)

    record = asyncio.run(decide_while_slow_runs())
    assert record.status == "completed"
    assert record.node_results["gate"].status == "completed"
