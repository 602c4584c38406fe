"""The work item envelope: reading a text into front matter and sections, the item it holds,
and writing it back; leases, approvals and work log lines."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from studio.model.gate_a import PULL, GateFacts, Offering, gate_a
from studio.model.work_item_documents import (
    WorkItemFormatError,
    document_of,
    read_document,
    snapshot_blocks,
    work_item_of,
)
from studio.model.work_items import (
    SECTIONS,
    ContextSource,
    Lease,
    WorkItem,
    approval_problem,
    lease_of,
    log_line,
    render_work_item,
)
from tests.fabric.items import ORDER_TEXT, item_text, sections

NOON = datetime(2026, 9, 12, 12, 0, tzinfo=UTC)
SNAPSHOT = "### brief: file brief.md\n\nresolved 2026-09-12T12:00:00Z\n\n```\nGuests pay.\n```"


def test_a_text_splits_into_front_matter_and_the_four_sections() -> None:
    document = read_document(item_text("order-one"))

    assert document.front["id"] == "order-one"
    assert tuple(name for name, _ in document.sections) == SECTIONS
    assert document.section("Order") == ORDER_TEXT
    assert document.section("Notes") is None


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("id: x\n---\n## Order\n", 1),
        ("---\nid: x\n## Order\n", 1),
        ("---\nid: x\nsubject: a: b\n---\n", 3),
        ("---\n- a list\n---\n", 2),
    ],
)
def test_a_text_that_is_no_work_item_is_refused_with_its_line(text: str, line: int) -> None:
    with pytest.raises(WorkItemFormatError) as refused:
        read_document(text)
    assert refused.value.line == line


def test_the_item_holds_the_envelope_and_the_growing_sections() -> None:
    body = sections(log=("2026-09-12T09:00:00Z enqueue by intake-desk",))
    body[1] = ("Resolved-context snapshot", SNAPSHOT + "\n\n### style: url x\n\ntext")
    body[3] = ("Artifacts", "- checkout-redesign/design/d.md\n")
    item = work_item_of(read_document(item_text("order-one", body=body, priority="high")))

    assert (item.id, item.artifact, item.capability) == ("order-one", "design", "design-studio")
    assert item.status == "queued" and item.lease is None
    assert [source.id for source in item.context] == ["brief", "style"]
    assert item.context[0].eager and not item.context[1].eager
    assert item.context[1].live and not item.context[0].live
    assert item.snapshot == (SNAPSHOT, "### style: url x\n\ntext")
    assert item.work_log == ("2026-09-12T09:00:00Z enqueue by intake-desk",)
    assert item.artifacts == ("checkout-redesign/design/d.md",)
    assert item.extra == {"priority": "high"}
    assert item.created_at == datetime(2026, 9, 12, 9, 0, tzinfo=UTC)
    assert item.title == "Design the one-page checkout."


def test_an_item_written_and_read_again_is_the_same_item() -> None:
    body = sections(log=("2026-09-12T09:00:00Z enqueue by intake-desk",))
    body[1] = ("Resolved-context snapshot", SNAPSHOT)
    held = {"worker": "w1", "token": 4, "expires_at": "2026-09-12T12:00:30Z"}
    approvals = [{"approver": "dana", "on_behalf_of": None, "at": "2026-09-12T08:00:00Z"}]
    text = item_text("order-one", body=body, status="leased", lease=held, approvals=approvals)
    item = work_item_of(read_document(text))

    again = work_item_of(read_document(render_work_item(item)))

    assert again == item
    assert again.lease == Lease("w1", 4, datetime(2026, 9, 12, 12, 0, 30, tzinfo=UTC))
    assert again.approvals[0].approver == "dana"


def test_the_document_of_an_item_is_the_document_its_text_reads_as() -> None:
    body = sections(log=("2026-09-12T09:00:00Z enqueue by intake-desk",))
    body[1] = ("Resolved-context snapshot", SNAPSHOT)
    item = work_item_of(read_document(item_text("order-one", body=body)))

    direct, rendered = document_of(item), read_document(render_work_item(item))
    assert direct.front == rendered.front
    assert [(name, text.strip()) for name, text in direct.sections] == [
        (name, text.strip()) for name, text in rendered.sections
    ]


def test_an_order_holding_a_heading_is_seen_the_same_way_rendered_or_not() -> None:
    """Gate A at pull checks document_of(item); what a reader receives is the rendered text.
    The two must agree, or an item changed in transit passes one check and fails the other."""
    item = work_item_of(read_document(item_text("order-one")))
    changed = item.__class__(**{**item.__dict__, "order": "Design it.\n\n## Notes\n\nmore"})
    facts = GateFacts(lambda _: False, lambda _: Offering({"design": "live"}), lambda _: True)

    rendered = gate_a(read_document(render_work_item(changed)), facts, PULL)
    direct = gate_a(document_of(changed), facts, PULL)

    assert [failure.rule for failure in direct] == [failure.rule for failure in rendered]


def test_a_lease_is_read_only_when_well_formed() -> None:
    good = {"worker": "w1", "token": 2, "expires_at": "2026-09-12T12:00:00Z"}
    assert lease_of(good) == Lease("w1", 2, NOON)
    assert lease_of({**good, "worker": ""}) is None
    assert lease_of({**good, "token": True}) is None
    assert lease_of({**good, "expires_at": "noon"}) is None
    assert lease_of(None) is None
    assert Lease("w1", 2, NOON).expired(NOON)
    assert not Lease("w1", 2, NOON).expired(NOON - timedelta(seconds=1))


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ({"approver": "dana", "on_behalf_of": "lee", "at": "2026-09-12T08:00:00Z"}, None),
        ({"approver": "dana", "on_behalf_of": None, "at": "2026-09-12T08:00:00Z"}, None),
        ({"approver": " ", "at": "2026-09-12T08:00:00Z"}, "approver"),
        ({"approver": "dana", "on_behalf_of": 3, "at": "2026-09-12T08:00:00Z"}, "on_behalf_of"),
        ({"approver": "dana", "at": "yesterday"}, "'at'"),
        ("dana approved", "mapping"),
    ],
)
def test_an_approval_names_its_approver_and_when(entry: object, problem: str | None) -> None:
    found = approval_problem(entry)
    assert (found is None) if problem is None else (found is not None and problem in found)


def test_a_work_log_line_is_one_line_stamped_in_utc() -> None:
    moment = datetime(2026, 9, 12, 14, 0, tzinfo=UTC).astimezone()
    assert log_line(moment, "ack advance\n  by w1") == "2026-09-12T14:00:00Z ack advance by w1"


def test_headings_inside_resolved_content_are_not_sections_of_the_item() -> None:
    """A snapshot records sources as they resolved, fenced: their headings stay theirs."""
    content = "## Requirements\n\n### R-1\n\n```yaml\nid: R-1\n```\n"
    snapshot = f"### reqs: artifact acme/requirements/r.md\n\n````\n{content}````"
    item = WorkItem(
        "order-one",
        "design",
        "design-studio",
        "acme",
        "intake",
        datetime(2026, 9, 12, tzinfo=UTC),
        "Design it.",
        context=(ContextSource("reqs", "artifact", "acme/requirements/r.md", "always"),),
        snapshot=(snapshot, "### notes: file notes.md\n\n```\nplain\n```"),
    )
    facts = GateFacts(lambda _id: False, lambda _c: Offering({"design": "live"}), lambda _s: True)
    for document in (document_of(item), read_document(render_work_item(item))):
        assert [name for name, _ in document.sections] == list(SECTIONS)
        assert gate_a(document, facts, PULL) == []
    written = read_document(render_work_item(item)).section("Resolved-context snapshot")
    assert snapshot_blocks(written) == item.snapshot
