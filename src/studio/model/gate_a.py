"""Gate A: the eight rules a work item must pass on both sides of the queue port.

The same check runs at enqueue (a failure bounces to the submitter and nothing is stored) and
at pull (a failure parks the item ``needs-context`` as an in-transit defect: the item passed on
one side and fails on the other, so something changed it on the way). The function is pure:
what it needs to know about the queue, the published manifests and the sources comes in
``GateFacts``.

1. The id is present, kebab-case and unique on the queue.
2. ``artifact`` is a type the capability's published manifest offers live (``menu``, the
   discovery type, is universal), and ``subject`` names what it is about.
3. ``status`` is in the enum (``queued`` at enqueue); ``lease`` is null unless the item is
   leased or in build, and well-formed when set.
4. ``context`` has at least one source; each carries id, type, ref and when; each type is
   registered.
5. Every eager source (``when`` starting "always") resolves.
6. The Order section is present and not empty.
7. The body has the four sections, named as the envelope names them, in order.
8. Context holds pointers only: no inline content.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from studio.model.work_item_documents import WorkItemDocument
from studio.model.work_items import (
    DISCOVERY_ARTIFACT,
    LEASED,
    ORDER,
    SECTIONS,
    SOURCE_KEYS,
    SOURCE_TYPES,
    STATUSES,
    ContextSource,
    lease_of,
    source_of,
)

KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""Ids and subjects are canonical keys: lower-case words joined by single hyphens (the
knowledge store files a closed item under both)."""
LONGEST_KEY = 128
LONGEST_REF = 2000
"""A longer ref is content pasted where a pointer belongs (rule 8)."""

ENQUEUE, PULL = "enqueue", "pull"


@dataclass(frozen=True)
class GateFailure:
    """One broken rule: its number (1–8) and what is wrong, in the submitter's terms."""

    rule: int
    message: str

    def describe(self) -> str:
        return f"rule {self.rule}: {self.message}"


@dataclass(frozen=True)
class Offering:
    """What a capability's published manifest offers: type → ``live`` or ``planned``; or why
    it cannot be read (no manifest published, no freshness stamp)."""

    types: dict[str, str]
    refusal: str | None = None


@dataclass(frozen=True)
class GateFacts:
    """What Gate A asks of the world, answered by the side that runs it."""

    id_taken: Callable[[str], bool]
    """Whether another item with this id is on the queue."""
    offering: Callable[[str], Offering]
    """The published manifest of a capability."""
    resolves: Callable[[ContextSource], bool]
    """Whether an eager source resolves now."""
    source_types: frozenset[str] = frozenset(SOURCE_TYPES)


def gate_a(document: WorkItemDocument, facts: GateFacts, side: str = ENQUEUE) -> list[GateFailure]:
    """Every rule ``document`` breaks, in rule order; empty when it passes."""
    failures: list[GateFailure] = []
    for rule, check in enumerate(_RULES, start=1):
        failures.extend(GateFailure(rule, message) for message in check(document, facts, side))
    return failures


def _rule_1_id(document: WorkItemDocument, facts: GateFacts, side: str) -> list[str]:
    value = document.front.get("id")
    if not isinstance(value, str) or not value:
        return ["the work item has no id"]
    if not KEBAB.fullmatch(value) or len(value) > LONGEST_KEY:
        return [f"id '{value}' is not kebab-case (lower-case words joined by '-', ≤ 128)"]
    if side == ENQUEUE and facts.id_taken(value):
        return [f"an item with id '{value}' is already on the queue"]
    return []


def _rule_2_offered(document: WorkItemDocument, facts: GateFacts, side: str) -> list[str]:
    front = document.front
    problems = []
    subject = front.get("subject")
    if not isinstance(subject, str) or not KEBAB.fullmatch(subject) or len(subject) > LONGEST_KEY:
        problems.append(f"subject {subject!r} is not a canonical key (e.g. 'acme-corp')")
    artifact, capability = front.get("artifact"), front.get("capability")
    if not isinstance(capability, str) or not capability:
        return [*problems, "the item names no capability to order from"]
    if not isinstance(artifact, str) or not artifact:
        return [*problems, "the item names no artifact type to order"]
    if artifact == DISCOVERY_ARTIFACT:
        return problems
    offering = facts.offering(capability)
    if offering.refusal is not None:
        return [*problems, offering.refusal]
    status = offering.types.get(artifact)
    if status is None:
        offered = ", ".join(sorted(offering.types)) or "nothing"
        refusal = f"capability '{capability}' offers no '{artifact}' (it offers {offered})"
        return [*problems, refusal]
    if status != "live":
        return [*problems, f"'{artifact}' is {status} at capability '{capability}', not live"]
    return problems


def _rule_3_status(document: WorkItemDocument, facts: GateFacts, side: str) -> list[str]:
    status, lease = document.front.get("status"), document.front.get("lease")
    if status not in STATUSES:
        return [f"status {status!r} is not one of {', '.join(STATUSES)}"]
    if side == ENQUEUE and status != "queued":
        return [f"an item enters the queue queued, not {status}"]
    if status not in LEASED:
        return [] if lease is None else [f"a {status} item carries no lease, but this one does"]
    if lease_of(lease) is None:
        return [f"a {status} item needs a lease with worker, token and expires_at"]
    return []


def _rule_4_context(document: WorkItemDocument, facts: GateFacts, side: str) -> list[str]:
    context = document.front.get("context")
    if not isinstance(context, list) or not context:
        return ["context must list at least one source"]
    problems, seen = [], set()
    for index, entry in enumerate(context, start=1):
        if not isinstance(entry, dict):
            problems.append(f"context source {index} is not a mapping of id, type, ref and when")
            continue
        missing = [key for key in SOURCE_KEYS if not _filled(entry.get(key))]
        name = entry.get("id") or f"source {index}"
        if missing:
            problems.append(f"context {name} has no {', '.join(missing)}")
        elif entry["type"] not in facts.source_types:
            known = ", ".join(sorted(facts.source_types))
            problems.append(f"context {name}: type '{entry['type']}' is not registered ({known})")
        if entry.get("id") in seen:
            problems.append(f"context id '{entry['id']}' is used twice")
        seen.add(entry.get("id"))
    return problems


def _rule_5_eager(document: WorkItemDocument, facts: GateFacts, side: str) -> list[str]:
    problems = []
    for source in _sources(document, facts):
        if source.eager and not facts.resolves(source):
            pointer = f"{source.type} {source.ref}"
            problems.append(f"eager source {source.id} ({pointer}) does not resolve")
    return problems


def _rule_6_order(document: WorkItemDocument, facts: GateFacts, side: str) -> list[str]:
    order = document.section(ORDER)
    if order is None:
        return ["the item has no Order section"]
    return [] if order.strip() else ["the Order section is empty: say what is wanted"]


def _rule_7_sections(document: WorkItemDocument, facts: GateFacts, side: str) -> list[str]:
    names = tuple(name for name, _ in document.sections)
    if names == SECTIONS:
        return []
    expected = ", ".join(f"'## {name}'" for name in SECTIONS)
    written = ", ".join(f"'## {name}'" for name in names) or "none"
    return [f"the body needs the sections {expected} in that order; it has {written}"]


def _rule_8_pointers(document: WorkItemDocument, facts: GateFacts, side: str) -> list[str]:
    problems = []
    context = document.front.get("context")
    for index, entry in enumerate(context if isinstance(context, list) else (), start=1):
        if not isinstance(entry, dict):
            continue
        name = entry.get("id") or f"source {index}"
        extra = sorted(str(key) for key in entry if key not in SOURCE_KEYS)
        if extra:
            problems.append(
                f"context {name} carries {', '.join(extra)}: context holds pointers only; "
                "resolved content is written to the snapshot at build time"
            )
        ref = entry.get("ref")
        if isinstance(ref, str) and ("\n" in ref.strip() or len(ref) > LONGEST_REF):
            problems.append(f"context {name}: its ref is content, not a pointer")
    return problems


def _filled(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _sources(document: WorkItemDocument, facts: GateFacts) -> list[ContextSource]:
    """The well-formed, registered, pointer-only sources (the others fail rules 4 and 8)."""
    context = document.front.get("context")
    found = []
    for entry in context if isinstance(context, list) else ():
        if not isinstance(entry, dict) or set(entry) != set(SOURCE_KEYS):
            continue
        filled = all(_filled(entry.get(key)) for key in SOURCE_KEYS)
        if filled and entry["type"] in facts.source_types:
            found.append(source_of(entry))
    return found


_RULES: tuple[Callable[[WorkItemDocument, GateFacts, str], list[str]], ...] = (
    _rule_1_id,
    _rule_2_offered,
    _rule_3_status,
    _rule_4_context,
    _rule_5_eager,
    _rule_6_order,
    _rule_7_sections,
    _rule_8_pointers,
)
