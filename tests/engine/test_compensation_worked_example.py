"""The seed's worked example — create-ticket → notify-oncall → close-out — with shell agents.

create-ticket files a ticket (a line in a ledger file) and outputs its ticketId; its
compensation calls the close_ticket tool with ``${output.ticketId}``; close-out fails in the
ways the seed walks through.
"""

import json
from pathlib import Path
from typing import Any

from studio.model import AgentDefinition
from tests.cli_runner import run_studio
from tests.engine.runner_harness import Harness, make_harness


def shell_agent(agent_id: str, script: str, ledger: Path, **env: str) -> AgentDefinition:
    """A shell agent running ``script`` with LEDGER pointing at the test's ledger file."""
    return AgentDefinition(
        id=agent_id,
        name=agent_id,
        kind="shell",
        settings={"argv": ["sh", "-c", script], "env": {"LEDGER": str(ledger), **env}},
    )


def example_agents(ledger: Path, ticket_output: str, close_fails: bool) -> list[AgentDefinition]:
    close = (
        'cat > "$LEDGER.args"; echo "closed" >> "$LEDGER"; printf \'{"closed": true}\''
        if not close_fails
        else 'echo \'{"errorType": "TicketingDown", "message": "ticketing is down"}\' >&2; exit 1'
    )
    return [
        shell_agent(
            "ticketing-agent",
            'echo created >> "$LEDGER"; printf %s "$OUT"',
            ledger,
            OUT=ticket_output,
        ),
        shell_agent("paging-agent", 'echo paged >> "$LEDGER"; cat', ledger),
        shell_agent("reconciliation-agent", 'echo reconciled >> "$LEDGER"; cat', ledger),
        shell_agent("close_ticket", close, ledger),
    ]


def worked_example(**close_out: Any) -> dict[str, Any]:
    """The seed's JSON, with optional extra settings for close-out and the workflow."""
    governance = close_out.pop("governance", None)
    configuration: dict[str, Any] = {
        "compensation": {
            "enabled": True,
            "trigger": {"mode": "on_terminal_failure", "minCompletedNodes": 1},
            "onFailure": "stop",
        }
    }
    if governance:
        configuration["governance"] = governance
    return {
        "name": "ticket flow",
        "configuration": configuration,
        "nodes": [
            {
                "id": "create-ticket",
                "agentId": "ticketing-agent",
                "compensation": {
                    "tool": "close_ticket",
                    "args": {"ticketId": "${output.ticketId}", "reason": "workflow rolled back"},
                    "sideEffecting": True,
                },
            },
            {"id": "notify-oncall", "agentId": "paging-agent"},
            {"id": "close-out", "agentId": "reconciliation-agent", **close_out},
        ],
        "edges": [
            {"source": "create-ticket", "target": "notify-oncall"},
            {"source": "notify-oncall", "target": "close-out"},
        ],
    }


def harness_with(
    tmp_path: Path, ticket_output: str = '{"ticketId": "TCK-4471"}', close_fails: bool = False
) -> tuple[Harness, Path]:
    harness = make_harness(tmp_path)
    ledger = tmp_path / "ledger.txt"
    for agent in example_agents(ledger, ticket_output, close_fails):
        harness.agents.add(agent)
    return harness, ledger


DENY_CLOSE_OUT = {"governance": {"denyAgents": ["reconciliation-agent"]}}


def test_close_out_denied_by_policy_rolls_the_ticket_back(tmp_path: Path) -> None:
    harness, ledger = harness_with(tmp_path)
    record = harness.execute(harness.publish(worked_example(**DENY_CLOSE_OUT)))
    assert record.status == "failed"
    close_out = record.node_results["close-out"]
    assert close_out.error["type"] == "PolicyDenied"
    assert close_out.error["failureClass"] == "POLICY_DENIED"
    assert ledger.read_text().split() == ["created", "paged", "closed"]
    args = json.loads(Path(f"{ledger}.args").read_text())
    assert args == {"ticketId": "TCK-4471", "reason": "workflow rolled back"}
    assert record.node_results["create-ticket#comp"].status == "compensated"
    assert "notify-oncall#comp" not in record.node_results
    assert "close-out#comp" not in record.node_results
    assert record.compensation_status == "completed"
    entries = record.compensation_summary["entries"]
    assert [(e["nodeId"], e["status"]) for e in entries] == [("create-ticket", "compensated")]


def test_a_failing_compensation_leaves_the_rollback_incomplete(tmp_path: Path) -> None:
    harness, _ = harness_with(tmp_path, close_fails=True)
    record = harness.execute(harness.publish(worked_example(**DENY_CLOSE_OUT)))
    assert record.status == "failed"
    assert record.node_results["create-ticket#comp"].status == "compensation_failed"
    assert record.compensation_status == "partial"
    entry = record.compensation_summary["entries"][0]
    assert entry["failureClass"] == "AGENT_ERROR"
    assert entry["recommendedAction"] == "manual_review_required"
    assert entry["error"]["message"] == "ticketing is down"
    events = [e.type for e in harness.executions.events(record.execution_id)]
    assert "execution.escalated" in events
    assert harness.executions.findings(record.execution_id)[0]["nodeId"] == "create-ticket"


def test_a_missing_ticket_id_is_never_dispatched(tmp_path: Path) -> None:
    harness, ledger = harness_with(tmp_path, ticket_output='{"id": "TCK-4471"}')
    record = harness.execute(harness.publish(worked_example(**DENY_CLOSE_OUT)))
    assert "closed" not in ledger.read_text().split()
    assert not Path(f"{ledger}.args").exists()
    compensation = record.node_results["create-ticket#comp"]
    assert compensation.status == "compensation_failed"
    assert compensation.error["failureClass"] == "UNRESOLVED_TEMPLATE"
    assert "ticketId" in compensation.error["message"]
    assert record.compensation_status == "partial"


def test_close_out_waiting_for_approval_does_not_unwind(tmp_path: Path) -> None:
    harness, ledger = harness_with(tmp_path)
    record = harness.execute(harness.publish(worked_example(requiresApproval=True)))
    assert record.status == "waiting"
    assert record.node_results["close-out"].status == "waiting"
    assert "create-ticket#comp" not in record.node_results
    assert record.compensation_status is None
    assert ledger.read_text().split() == ["created", "paged"]


def test_without_the_opt_in_nothing_is_compensated(tmp_path: Path) -> None:
    harness, ledger = harness_with(tmp_path)
    data = worked_example(**DENY_CLOSE_OUT)
    data["configuration"]["compensation"]["enabled"] = False
    record = harness.execute(harness.publish(data))
    assert record.status == "failed"
    assert "closed" not in ledger.read_text().split()
    assert "compensationStatus" not in record.to_data()
    assert set(record.node_results) == {"create-ticket", "notify-oncall", "close-out"}


def test_the_cli_shows_compensation_in_the_execution_record(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.txt"
    agents = tmp_path / "agents"
    agents.mkdir()
    for agent in example_agents(ledger, '{"ticketId": "TCK-4471"}', close_fails=False):
        (agents / f"{agent.id}.json").write_text(json.dumps(agent.to_data()))
    workflow = tmp_path / "tickets.json"
    workflow.write_text(json.dumps(worked_example(**DENY_CLOSE_OUT)))
    run = run_studio("run", str(workflow), "--agents", str(agents), "--json", "--quiet")
    assert run.returncode == 1
    record = json.loads(run.stdout)
    shown = run_studio("executions", "show", record["executionId"], "--json")
    document = json.loads(shown.stdout)
    assert document["status"] == "failed"
    assert document["compensationStatus"] == "completed"
    assert document["compensationSummary"]["entries"][0]["status"] == "compensated"
    assert document["nodeResults"]["create-ticket#comp"]["status"] == "compensated"


def test_a_node_id_ending_in_comp_is_refused_before_it_can_break_compensation(
    tmp_path: Path,
) -> None:
    """A node named ``create-ticket#comp`` used to share the row of create-ticket's
    compensation: the unwind took that node's result for an interrupted compensation, never
    closed the ticket, and filed a false INTERRUPTED finding against create-ticket. Such an
    id is now refused when the file is validated, so the run never starts."""
    ledger = tmp_path / "ledger.txt"
    agents = tmp_path / "agents"
    agents.mkdir()
    for agent in example_agents(ledger, '{"ticketId": "TCK-4471"}', close_fails=False):
        (agents / f"{agent.id}.json").write_text(json.dumps(agent.to_data()))
    data = worked_example(**DENY_CLOSE_OUT)
    data["nodes"][1]["id"] = "create-ticket#comp"
    data["edges"] = [
        {"source": "create-ticket", "target": "create-ticket#comp"},
        {"source": "create-ticket#comp", "target": "close-out"},
    ]
    workflow = tmp_path / "tickets.json"
    workflow.write_text(json.dumps(data))

    checked = run_studio("validate", str(workflow))
    assert checked.returncode == 1
    assert "nodes[1].id: 'create-ticket#comp' is not a valid id" in checked.stdout
    assert "[structure.identifier]" in checked.stdout

    run = run_studio("run", str(workflow), "--agents", str(agents), "--quiet")
    assert run.returncode == 2
    assert "'create-ticket#comp' is not a valid id" in run.stderr
    assert "Traceback" not in run.stderr
    assert not ledger.exists()  # nothing ran, so nothing needs undoing
    assert json.loads(run_studio("executions", "list", "--json").stdout) == []
