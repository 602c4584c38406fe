"""Capability definitions, Gate B's rules and the approvals check: every refusal says where
(file and field) and what is wrong."""

from datetime import UTC, datetime
from pathlib import Path

import pytest

from studio.cli.main import main
from studio.fabric.gate_b import GateBOutputError, clear_order, resolved_context, verdict_of_output
from studio.fabric.worker_build import exit_of
from studio.fabric.worker_definition import load_capability
from studio.model.capability_definitions import (
    CapabilityDefinitionError,
    approval_refusal,
    capability_definition_of,
)
from studio.model.work_items import ContextSource, WorkItem
from tests.fabric.workers.capabilities import design_capability

NOW = datetime(2026, 9, 12, 12, 0, tzinfo=UTC)
BASE = {"name": "design-studio", "manifest": "m.md", "workflow": "w.yaml", "gate": {"rule": "x"}}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "capability.yaml: expected a mapping of fields at the top"),
        ({**BASE, "name": None}, "capability.yaml: name: is required"),
        ({**BASE, "workflow": 3}, "capability.yaml: workflow: must be a non-empty text, not 3"),
        ({**BASE, "gate": None}, "capability.yaml: gate: is required: give 'rule' or 'node'"),
        ({**BASE, "gate": {"rule": "a", "node": "b"}}, "gate: give exactly one of 'rule' and"),
        ({**BASE, "gate": {"judge": "b"}}, "capability.yaml: gate.judge: is not a field here"),
        ({**BASE, "approvals": "ana"}, "approvals: must be a list of approver names"),
        ({**BASE, "approvals": ["ana", ""]}, "approvals[1]: must be an approver's name"),
        ({**BASE, "budgets": {"build_rounds": 0}}, "budgets.build_rounds: must be a whole number"),
        ({**BASE, "owner": "me"}, "capability.yaml: owner: is not a field here"),
    ],
)
def test_a_malformed_definition_says_where_and_what(data: object, message: str) -> None:
    with pytest.raises(CapabilityDefinitionError) as refused:
        capability_definition_of(data)

    assert message in str(refused.value)


def test_a_definition_reads_with_its_defaults() -> None:
    definition = capability_definition_of(BASE)

    assert (definition.approvals, definition.build_rounds) == ((), 3)
    assert definition.gate.rule == "x" and definition.gate.node is None


def test_the_folder_is_checked_against_what_it_names(tmp_path: Path) -> None:
    folder = design_capability(tmp_path / "design")
    assert load_capability(folder).rule is clear_order

    design_capability(folder, gate={"rule": "gut-feeling"})
    with pytest.raises(CapabilityDefinitionError, match=r"gate\.rule: no rule 'gut-feeling'"):
        load_capability(folder)
    design_capability(folder, gate={"node": "judge"})
    with pytest.raises(CapabilityDefinitionError, match=r"gate\.node: the workflow workflow\.yaml"):
        load_capability(folder)
    design_capability(folder, name="writing")
    with pytest.raises(CapabilityDefinitionError, match="manifest of 'design-studio', not of"):
        load_capability(folder)
    design_capability(folder, workflow="missing.yaml")
    with pytest.raises(CapabilityDefinitionError, match="workflow: there is no file"):
        load_capability(folder)
    (folder / "capability.yaml").write_text("name: [unclosed\n", encoding="utf-8")
    with pytest.raises(CapabilityDefinitionError, match=r"capability.yaml: line \d"):
        load_capability(folder)


def test_the_worker_refuses_to_start_on_a_broken_definition(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = design_capability(tmp_path / "design", budgets={"build_rounds": "many"})

    code = main(["worker", "--capability", "design-studio", "--definition", str(folder)])

    assert code == 2
    err = capsys.readouterr().err
    assert "capability.yaml: budgets.build_rounds: must be a whole number" in err


def item(order: str = "Build it. Done when it lands.", *sources: ContextSource) -> WorkItem:
    return WorkItem("i1", "design", "c", "s", "r", NOW, order, context=sources)


def test_the_rules_judge_context_and_the_order() -> None:
    reqs = ContextSource("reqs", "artifact", "s/requirements/a.md", "always")

    assert resolved_context(item("x", reqs), []).clear
    missing = resolved_context(item("x", reqs), [reqs])
    assert missing.verdict == "Insufficient"
    assert missing.asks == ("reqs (artifact s/requirements/a.md) does not resolve",)
    assert clear_order(item("Make it nicer.", reqs), []).verdict == "Ambiguous"
    assert clear_order(item("", reqs), []).asks == ("What should be built?",)
    assert clear_order(item("Do it; done when it lands.", reqs), []).clear


@pytest.mark.parametrize(
    ("output", "message"),
    [
        ("Clear", "answered str"),
        ({"verdict": "Maybe", "rationale": "r"}, "verdict 'Maybe' is not one of"),
        ({"verdict": "Clear"}, "needs its rationale"),
        ({"verdict": "Ambiguous", "rationale": "r", "questions": "why?"}, "lists of text"),
    ],
)
def test_a_gate_node_output_that_is_not_a_verdict_is_named(output: object, message: str) -> None:
    with pytest.raises(GateBOutputError, match=message):
        verdict_of_output("judge", output)


def test_approvals_missing_malformed_or_delegated() -> None:
    signed = {"approver": "ana", "on_behalf_of": "lead", "at": "2026-09-12T08:00:00Z"}

    assert approval_refusal((), [], NOW) is None
    assert approval_refusal(("lead",), [signed], NOW) is None
    assert approval_refusal(("lead", "legal"), [signed], NOW) == (
        "missing approval of legal (policy requires it before a build)"
    )
    refusal = approval_refusal(("lead",), [{"approver": "ana", "at": "soon"}], NOW)
    assert refusal == "malformed approval: approval by ana: 'at' must be a date-time"


def test_the_exit_is_the_results_exit_field_advance_without_one() -> None:
    assert exit_of({"ref": "a"}) == ("advance", "")
    assert exit_of({"exit": "kill", "reason": "dup"}) == ("kill", "dup")
    assert exit_of({"exit": "shrug"})[0] == "escalate"
