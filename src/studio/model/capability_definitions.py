"""A capability definition: what a worker needs to build a capability's items.

A definition is a folder holding ``capability.yaml``::

    name: design-studio        # the capability; the manifest must name the same one
    manifest: manifest.md      # the manifest source (published when its stamp is stale)
    workflow: workflow.yaml    # run once per build round: input {order, item, snapshot, ...}
    gate:                      # Gate B: exactly one of
      rule: resolved-context   #   a named rule (studio.fabric.gate_b.RULES)
      # node: judge            #   or a node of the workflow whose output is
                               #   {verdict, rationale, questions | missing}
    approvals: [design-lead]   # whose sign-off policy requires (approver or on_behalf_of)
    budgets:
      build_rounds: 3          # rounds inside one lease before the item escalates

Paths are relative to the folder; an ``agents/`` folder beside ``capability.yaml`` holds the
agents the workflow uses. ``approvals`` and ``budgets`` may be left out (no sign-off required;
three build rounds). The workflow's input is ``{order, item, snapshot, round}`` (``item``: the
envelope fields and the lease's worker and token); its result names the exit in an ``exit``
field (``advance`` without one) with an optional ``reason``. Reading judges the mapping only;
whether the files exist is the reader's business (``studio.fabric.worker_definition``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from studio.model.work_items import DEFAULT_BUILD_BUDGET, approval_problem, approvals_of, iso

DEFINITION_FILE = "capability.yaml"
KEYS = ("name", "manifest", "workflow", "gate", "approvals", "budgets")
GATE_KEYS = ("rule", "node")
BUDGET_KEYS = ("build_rounds",)


class CapabilityDefinitionError(ValueError):
    """A definition that cannot be used; the message says where (file and field) and what."""

    def __init__(self, where: str, field: str | None, problem: str) -> None:
        place = f"{where}: {field}" if field else where
        super().__init__(f"{place}: {problem}")
        self.where, self.field, self.problem = where, field, problem


@dataclass(frozen=True)
class GateChoice:
    """How Gate B is judged: by a named rule, or by a node of the capability's workflow."""

    rule: str | None = None
    node: str | None = None

    def describe(self) -> str:
        return f"rule {self.rule}" if self.rule else f"node {self.node} of the workflow"


@dataclass(frozen=True)
class CapabilityDefinition:
    """A capability definition as written: file names are relative to its folder."""

    name: str
    manifest: str
    workflow: str
    gate: GateChoice
    approvals: tuple[str, ...] = ()
    build_rounds: int = DEFAULT_BUILD_BUDGET


def capability_definition_of(data: object, where: str = DEFINITION_FILE) -> CapabilityDefinition:
    """The definition a parsed ``capability.yaml`` holds.

    Raises:
        CapabilityDefinitionError: naming the file, the field and what is wrong with it.
    """
    if not isinstance(data, dict):
        raise CapabilityDefinitionError(where, None, "expected a mapping of fields at the top")
    _no_strangers(data, KEYS, where, None)
    return CapabilityDefinition(
        name=_text(data, "name", where),
        manifest=_text(data, "manifest", where),
        workflow=_text(data, "workflow", where),
        gate=_gate(data.get("gate"), where),
        approvals=_approvers(data.get("approvals"), where),
        build_rounds=_build_rounds(data.get("budgets"), where),
    )


def _text(data: dict[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if value is None:
        raise CapabilityDefinitionError(where, key, "is required")
    if not isinstance(value, str) or not value.strip():
        raise CapabilityDefinitionError(where, key, f"must be a non-empty text, not {value!r}")
    return value.strip()


def _gate(value: object, where: str) -> GateChoice:
    if value is None:
        raise CapabilityDefinitionError(where, "gate", "is required: give 'rule' or 'node'")
    if not isinstance(value, dict):
        raise CapabilityDefinitionError(
            where, "gate", "must be a mapping with 'rule: NAME' or 'node: NODE_ID'"
        )
    _no_strangers(value, GATE_KEYS, where, "gate")
    named = {key: value[key] for key in GATE_KEYS if value.get(key) is not None}
    if len(named) != 1:
        raise CapabilityDefinitionError(
            where, "gate", "give exactly one of 'rule' and 'node'" + (", not both" if named else "")
        )
    key, choice = next(iter(named.items()))
    if not isinstance(choice, str) or not choice.strip():
        raise CapabilityDefinitionError(where, f"gate.{key}", "must be a non-empty name")
    return GateChoice(**{key: choice.strip()})


def _approvers(value: object, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise CapabilityDefinitionError(where, "approvals", "must be a list of approver names")
    for index, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            raise CapabilityDefinitionError(
                where, f"approvals[{index}]", f"must be an approver's name, not {name!r}"
            )
    return tuple(name.strip() for name in value)


def _build_rounds(value: object, where: str) -> int:
    if value is None:
        return DEFAULT_BUILD_BUDGET
    if not isinstance(value, dict):
        raise CapabilityDefinitionError(where, "budgets", "must be a mapping (build_rounds: N)")
    _no_strangers(value, BUDGET_KEYS, where, "budgets")
    rounds = value.get("build_rounds", DEFAULT_BUILD_BUDGET)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise CapabilityDefinitionError(
            where, "budgets.build_rounds", f"must be a whole number of at least 1, not {rounds!r}"
        )
    return rounds


def _no_strangers(data: dict[str, Any], known: tuple[str, ...], where: str, at: str | None) -> None:
    strangers = sorted(str(key) for key in data if key not in known)
    if strangers:
        field = f"{at}.{strangers[0]}" if at else strangers[0]
        raise CapabilityDefinitionError(
            where, field, f"is not a field here (known: {', '.join(known)})"
        )


def approval_refusal(
    required: tuple[str, ...], recorded: list[object], now: datetime
) -> str | None:
    """Why a build may not start under the approvals policy requires, or None.

    Every recorded approval must be well formed (``approval_problem``) and dated no later than
    ``now``; every required approver must have signed, themselves or through someone acting
    on their behalf.
    """
    for entry in recorded:
        problem = approval_problem(entry)
        if problem is not None:
            return f"malformed approval: {problem}"
    approvals = approvals_of(recorded)
    future = next((approval for approval in approvals if approval.at > now), None)
    if future is not None:
        return f"malformed approval: {future.approver}'s is dated {iso(future.at)}, in the future"
    signed = {approval.approver for approval in approvals}
    signed |= {approval.on_behalf_of for approval in approvals if approval.on_behalf_of}
    missing = [name for name in required if name not in signed]
    if missing:
        return f"missing approval of {', '.join(missing)} (policy requires it before a build)"
    return None
