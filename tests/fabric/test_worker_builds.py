"""``studio worker`` building items on a real workspace (SQLite file, embedded engine,
knowledge store): the snapshot, Gate B's verdicts, the approvals policy, the exits a
workflow's result names, the build-round budget and a failed run."""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.cli.main import main
from studio.fabric.queue import Scope
from studio.model.work_items import WorkItem
from studio.workspace import Workspace
from tests.fabric.workers.capabilities import (
    CORPUS,
    MANIFEST,
    ORDER,
    design_capability,
    shell_agent,
    write_workflow,
)

FIXTURE_ORDER = ORDER.read_text(encoding="utf-8")


@pytest.fixture
def workspace() -> Iterator[Workspace]:
    """The fixture corpus landed and the design-studio manifest published."""
    workspace = Workspace()
    workspace.knowledge.ingest(CORPUS)
    workspace.work_queue.publish_manifest(MANIFEST.read_text(encoding="utf-8"))
    yield workspace
    workspace.close()


def order(item_id: str, text: str | None = None, front: str = "") -> str:
    """The fixture order under another id, with another Order text or more front matter."""
    document = FIXTURE_ORDER.replace("id: order-checkout-design", f"id: {item_id}")
    if front:
        document = document.replace("context:\n", f"{front}\ncontext:\n", 1)
    if text is not None:
        start = document.index("## Order") + len("## Order\n\n")
        end = document.index("## Resolved-context snapshot")
        document = document[:start] + text + "\n\n" + document[end:]
    return document


def work(folder: Path, capsys: pytest.CaptureFixture[str], *more: str) -> dict:
    """Run the worker until nothing is leasable; its JSON summary."""
    capsys.readouterr()
    argv = ["worker", "--capability", "design-studio", "--definition", str(folder)]
    code = main([*argv, "--once", "--json", "--name", "w1", *more])
    output = capsys.readouterr().out
    assert code == 0, output
    return json.loads(output)


def item(item_id: str) -> WorkItem:
    with_fresh = Workspace()
    try:
        return with_fresh.work_queue.read(item_id)
    finally:
        with_fresh.close()


def log_with(found: WorkItem, words: str) -> list[str]:
    return [line for line in found.work_log if words in line]


def test_a_clear_item_is_snapshotted_built_and_done(
    workspace: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace.work_queue.enqueue(FIXTURE_ORDER)

    summary = work(design_capability(tmp_path / "design"), capsys)

    done = item("order-checkout-design")
    assert summary["exits"] == {"advance": 1}
    assert done.status == "done"
    assert [block.split(":")[0] for block in done.snapshot] == ["### reqs", "### stories"]
    assert "REQ-3" in done.snapshot[0] and "ST-2" in done.snapshot[1]  # the content itself
    assert done.artifacts == (
        "checkout-redesign/design/2026-09-12-design-order-checkout-design.md",
    )
    assert log_with(done, "Gate B (rule clear-order): Clear — every eager source resolved")
    landed = workspace.knowledge.repository.version(done.artifacts[0])
    assert landed is not None
    assert landed.front.produced_by["execution"] == summary["items"][0]["executions"][0]


def test_an_order_that_does_not_say_when_it_is_done_is_ambiguous(
    workspace: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace.work_queue.enqueue(order("vague", "Make the checkout nicer."))

    summary = work(design_capability(tmp_path / "design"), capsys)

    bounced = item("vague")
    assert summary["exits"] == {"reroute-to-steward": 1}
    assert bounced.status == "needs-context" and bounced.context_bounces == 1
    assert log_with(bounced, "Gate B (rule clear-order): Ambiguous — the Order does not say")
    [ack] = log_with(bounced, "ack reroute-to-steward")
    assert "questions: When is the design done" in ack
    assert bounced.artifacts == () and summary["items"][0]["executions"] == []


def test_a_gate_node_answering_insufficient_sends_the_missing_list_back(
    workspace: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = design_capability(tmp_path / "design", gate={"node": "judge"})
    verdict = {"verdict": "Thin", "rationale": "no brand", "missing": ["the style guide"]}
    shell_agent(folder, "judge", f"printf '{json.dumps(verdict)}'")
    write_workflow(folder, [("judge", "judge")], [])
    workspace.work_queue.enqueue(FIXTURE_ORDER)

    work(folder, capsys)

    thin = item("order-checkout-design")
    assert thin.status == "needs-context"
    assert [block.split(":")[0] for block in thin.snapshot] == ["### reqs", "### stories"]
    assert log_with(thin, "Gate B (node judge): Insufficient — no brand (the style guide)")
    [ack] = log_with(thin, "ack reroute-to-steward")
    assert "Gate B Insufficient: missing: the style guide" in ack


def test_a_missing_approval_hard_stops_and_a_delegated_one_lets_the_build_go(
    workspace: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    queue = workspace.work_queue
    queue.enqueue(order("unsigned"))
    delegated = (
        "approvals:\n  - {approver: ana, on_behalf_of: design-lead, at: 2026-09-12T08:00:00Z}"
    )
    queue.enqueue(order("signed", front=delegated))
    future = "approvals:\n  - {approver: design-lead, on_behalf_of: null, at: 2999-01-01T00:00:00Z}"
    queue.enqueue(order("postdated", front=future))
    undated = "approvals:\n  - {approver: design-lead, on_behalf_of: null, at: soon}"
    queue.enqueue(order("undated", front=undated))

    folder = design_capability(tmp_path / "design", approvals=["design-lead"])
    work(folder, capsys)

    unsigned, signed, postdated = item("unsigned"), item("signed"), item("postdated")
    assert unsigned.status == "escalated" and unsigned.artifacts == ()
    assert log_with(unsigned, "hard stop: missing approval of design-lead")
    assert signed.status == "done" and len(signed.artifacts) == 1
    assert postdated.status == "escalated"
    assert log_with(postdated, "hard stop: malformed approval: design-lead's is dated 2999")
    undated_item = item("undated")
    assert undated_item.status == "escalated"
    assert log_with(undated_item, "hard stop: malformed approval: approval by design-lead: 'at'")


def test_the_exit_the_result_names_is_the_ack(
    workspace: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = design_capability(tmp_path / "design")
    shell_agent(folder, "decider", """printf '{"exit": "kill", "reason": "already built"}'""")
    write_workflow(
        folder,
        [("design", "design-writer"), ("decide", "decider")],
        [{"id": "then", "source": "design", "target": "decide"}],
    )
    workspace.work_queue.enqueue(FIXTURE_ORDER)

    work(folder, capsys)

    killed = item("order-checkout-design")
    assert killed.status == "killed"
    assert log_with(killed, "ack kill by w1 → killed: already built")
    assert len(killed.artifacts) == 1  # what the run landed is on the record all the same


def test_station_exits_loop_inside_the_lease_until_the_round_budget_escalates(
    workspace: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = design_capability(tmp_path / "design", budgets={"build_rounds": 2})
    shell_agent(folder, "decider", """printf '{"exit": "refire-to-author", "reason": "C-2"}'""")
    write_workflow(
        folder,
        [("design", "design-writer"), ("decide", "decider")],
        [{"id": "then", "source": "design", "target": "decide"}],
    )
    workspace.work_queue.enqueue(FIXTURE_ORDER)

    summary = work(folder, capsys)

    escalated = item("order-checkout-design")
    assert escalated.status == "escalated"
    assert len(summary["items"][0]["executions"]) == 2
    assert len(log_with(escalated, "ended refire-to-author: C-2")) == 2
    assert log_with(escalated, "the build-round budget (2) is spent")
    assert len(log_with(escalated, "leased to")) == 1  # one lease for both rounds
    assert escalated.build_rounds == 2  # the envelope counts them


def test_a_reclaimed_item_does_not_get_its_build_rounds_back(
    workspace: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = design_capability(tmp_path / "design", budgets={"build_rounds": 2})
    queue = workspace.work_queue
    queue.enqueue(FIXTURE_ORDER)
    lost = queue.pull("w-lost", Scope("design-studio"))
    assert lost is not None
    queue.count_round(lost.item.id, lost.token)
    queue.count_round(lost.item.id, lost.token)  # both rounds spent, then the worker died
    queue.requeue(lost.item.id, "its worker is gone", by="dana")

    summary = work(folder, capsys)

    escalated = item("order-checkout-design")
    assert escalated.status == "escalated" and escalated.build_rounds == 2
    assert summary["items"][0]["executions"] == []
    assert log_with(escalated, "the build-round budget (2) is spent")


def test_a_failed_run_escalates_with_its_failure(
    workspace: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = design_capability(tmp_path / "design")
    shell_agent(folder, "breaker", "echo 'no renderer' >&2; exit 3")
    write_workflow(folder, [("render", "breaker")], [])
    workspace.work_queue.enqueue(FIXTURE_ORDER)

    work(folder, capsys)

    escalated = item("order-checkout-design")
    assert escalated.status == "escalated"
    [ack] = log_with(escalated, "ack escalate")
    assert "the workflow failed (run " in ack and "render" in ack


def test_a_gate_node_of_the_workflow_judges(
    workspace: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = design_capability(tmp_path / "design", gate={"node": "judge"})
    verdict = {"verdict": "Ambiguous", "rationale": "two checkouts", "questions": ["Which one?"]}
    shell_agent(folder, "judge", f"printf '{json.dumps(verdict)}'")
    clear = {"field": "verdict", "operator": "equals", "value": "Clear"}
    write_workflow(
        folder,
        [("judge", "judge"), ("design", "design-writer")],
        [{"id": "if-clear", "source": "judge", "target": "design", "condition": clear}],
    )
    workspace.work_queue.enqueue(FIXTURE_ORDER)

    work(folder, capsys)

    bounced = item("order-checkout-design")
    assert bounced.status == "needs-context" and bounced.artifacts == ()
    assert log_with(bounced, "Gate B (node judge): Ambiguous — two checkouts (Which one?)")
    assert log_with(bounced, "Gate B Ambiguous: questions: Which one?")


def test_a_type_the_manifest_does_not_offer_is_refused_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = design_capability(tmp_path / "design")

    argv = ["worker", "--capability", "design-studio", "--definition", str(folder)]
    code = main([*argv, "--types", "design,logo", "--once"])

    assert code == 2
    assert "'design-studio' does not offer logo" in capsys.readouterr().err


@pytest.mark.parametrize("option", [["--concurrency", "0"], ["--lease-ttl", "0"]])
def test_no_slots_or_no_lease_time_is_refused_at_start(
    option: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = design_capability(tmp_path / "design")
    argv = ["worker", "--capability", "design-studio", "--definition", str(folder), "--once"]

    assert main([*argv, *option]) == 2
    assert "--concurrency must be at least 1 and --lease-ttl more than 0" in capsys.readouterr().err
