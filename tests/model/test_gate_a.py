"""Gate A as a pure function: each of the eight rules, an item that breaks only that rule,
on the enqueue side and the pull side; what differs between the two sides."""

from __future__ import annotations

from typing import Any

import pytest

from studio.model.gate_a import ENQUEUE, PULL, GateFacts, Offering, gate_a
from studio.model.work_item_documents import read_document
from studio.model.work_items import ContextSource
from tests.fabric.items import BREAKS_AT_ENQUEUE, CAPABILITY, item_text, sections

OFFERED = {"design": "live", "design-review": "planned", "wireframe": "live"}
LEASE = {"worker": "w1", "token": 3, "expires_at": "2026-09-12T10:00:30Z"}


def facts(
    taken: frozenset[str] = frozenset({"already-there"}),
    offering: Offering | None = None,
    dead: frozenset[str] = frozenset({"missing.md"}),
) -> GateFacts:
    """A queue holding ``taken``, the design studio offering OFFERED, every ref but ``dead``
    resolving."""

    def offered(capability: str) -> Offering:
        if capability != CAPABILITY:
            return Offering({}, f"capability '{capability}' has published no manifest")
        return offering or Offering(dict(OFFERED))

    def resolves(source: ContextSource) -> bool:
        return source.ref not in dead

    return GateFacts(lambda item_id: item_id in taken, offered, resolves)


def rules(side: str = ENQUEUE, world: GateFacts | None = None, **arguments: Any) -> list[int]:
    document = read_document(item_text(**arguments))
    return [failure.rule for failure in gate_a(document, world or facts(), side)]


def test_a_good_item_passes_on_both_sides() -> None:
    assert rules(ENQUEUE) == []
    assert rules(PULL) == []


@pytest.mark.parametrize("side", [ENQUEUE, PULL])
@pytest.mark.parametrize("rule", sorted(BREAKS_AT_ENQUEUE))
def test_an_item_breaking_one_rule_fails_that_rule_only(rule: int, side: str) -> None:
    assert rules(side, **BREAKS_AT_ENQUEUE[rule]) == [rule]


def test_the_failures_say_what_is_wrong() -> None:
    document = read_document(item_text(**BREAKS_AT_ENQUEUE[5]))
    (failure,) = gate_a(document, facts())
    assert failure.describe().startswith("rule 5: ")
    assert "missing.md" in failure.message


@pytest.mark.parametrize(
    "fields",
    [
        {"raw_front": "artifact: design\ncapability: design-studio\n"},
        {"item_id": "order one"},
        {"item_id": "-order"},
        {"item_id": 42},
    ],
)
def test_rule_1_wants_a_kebab_case_id(fields: dict[str, Any]) -> None:
    assert 1 in rules(**fields)


def test_rule_1_uniqueness_is_the_enqueue_sides_question() -> None:
    assert rules(ENQUEUE, item_id="already-there") == [1]
    assert rules(PULL, item_id="already-there") == []


@pytest.mark.parametrize(
    "fields",
    [
        {"artifact": "poster"},
        {"artifact": "design-review"},
        {"capability": "copy-desk"},
        {"capability": None},
        {"artifact": ""},
        {"subject": "Checkout Redesign"},
    ],
)
def test_rule_2_wants_a_live_offered_type_and_a_canonical_subject(
    fields: dict[str, Any],
) -> None:
    assert rules(**fields) == [2]


def test_rule_2_takes_discovery_items_from_any_capability() -> None:
    assert rules(artifact="menu", capability="copy-desk", subject="copy-desk") == []


def test_rule_2_refuses_a_manifest_the_offering_refuses() -> None:
    unstamped = Offering({}, "the manifest of 'design-studio' has no freshness stamp")
    document = read_document(item_text())
    (failure,) = gate_a(document, facts(offering=unstamped))
    assert failure.rule == 2 and "freshness stamp" in failure.message


@pytest.mark.parametrize(
    ("fields", "enqueue", "pull"),
    [
        ({"status": "leased", "lease": LEASE}, [3], []),
        ({"status": "in-build", "lease": LEASE}, [3], []),
        ({"status": "leased", "lease": None}, [3], [3]),
        ({"status": "leased", "lease": {**LEASE, "token": "three"}}, [3], [3]),
        ({"status": "leased", "lease": {**LEASE, "expires_at": "soon"}}, [3], [3]),
        ({"status": "needs-context", "lease": LEASE}, [3], [3]),
        ({"status": "finished"}, [3], [3]),
        ({"status": None}, [3], [3]),
    ],
)
def test_rule_3_status_in_the_enum_and_a_lease_only_when_held(
    fields: dict[str, Any], enqueue: list[int], pull: list[int]
) -> None:
    assert rules(ENQUEUE, **fields) == enqueue
    assert rules(PULL, **fields) == pull


BRIEF = {"id": "brief", "type": "file", "ref": "brief.md", "when": "always"}


@pytest.mark.parametrize(
    "context",
    [
        [],
        None,
        "brief.md",
        ["brief.md"],
        [{key: value for key, value in BRIEF.items() if key != "when"}],
        [{**BRIEF, "ref": "  "}],
        [BRIEF, BRIEF],
    ],
)
def test_rule_4_wants_registered_sources_with_id_type_ref_and_when(context: Any) -> None:
    assert rules(context=context) == [4]


def test_rule_5_asks_only_eager_sources_to_resolve() -> None:
    later = {"id": "later", "type": "file", "ref": "missing.md", "when": "on-demand"}
    assert rules(context=[BRIEF, later]) == []
    assert rules(context=[BRIEF, {**later, "when": "always, before building"}]) == [5]


def test_rule_6_wants_an_order_section_with_something_in_it() -> None:
    assert rules(body=sections(order="   \n\n  ")) == [6]


def test_a_missing_order_section_breaks_rules_6_and_7() -> None:
    assert rules(body=sections()[1:]) == [6, 7]


@pytest.mark.parametrize(
    "body",
    [
        [*sections(), ("Notes", "more")],
        [(name.lower(), text) for name, text in sections()],
        [sections()[0], sections()[2], sections()[3]],
    ],
)
def test_rule_7_wants_the_four_sections_named_and_in_order(body: list[tuple[str, str]]) -> None:
    assert 7 in rules(body=body)


def test_rule_8_refuses_content_written_as_a_ref() -> None:
    pasted = {**BRIEF, "when": "on-demand", "ref": "Guests pay by card.\nOr by wallet."}
    assert rules(context=[pasted]) == [8]
    assert rules(context=[{**BRIEF, "when": "on-demand", "ref": "x" * 2001}]) == [8]
