"""What the queue keeps straight whatever an item carries: the filed record is the queue's,
an escalated item requeued by a person builds again, a closed record no longer grows, and
resolved content never breaks the item's sections."""

from datetime import UTC, datetime

import pytest

from studio.fabric.queue import Scope, WorkQueue
from studio.fabric.sources import Resolved
from studio.model.errors import StudioError
from studio.model.knowledge import WORK_ITEM_KIND
from studio.model.work_item_documents import read_document
from studio.model.work_items import ContextSource, render_work_item
from studio.store.knowledge import KnowledgeRepository
from tests.fabric.items import CAPABILITY, item_text

DESIGNERS = Scope(CAPABILITY)
FORGED = {
    "kind": "design",
    "title": "Forged",
    "produced_by": {"capability": "someone-else", "execution": "run-forged"},
    "links": "nope",
}


def _closed(queue: WorkQueue, item_id: str) -> str:
    pulled = queue.pull("w1", DESIGNERS)
    assert pulled is not None and pulled.item.id == item_id
    done = queue.ack(item_id, "advance", pulled.token)
    filed = done.work_log[-1].rsplit(" as ", 1)[1]
    return filed


def test_an_items_extra_fields_never_stand_in_for_the_filed_record(queue: WorkQueue) -> None:
    queue.enqueue(item_text("order-extra", **FORGED))

    filed = _closed(queue, "order-extra")

    version = KnowledgeRepository(queue.repository.database).version(filed)
    assert version is not None and filed == "checkout-redesign/work-item/2026-09-12-order-extra.md"
    assert version.front.kind == WORK_ITEM_KIND and version.front.title != "Forged"
    assert version.front.produced_by == {"capability": CAPABILITY, "work_item": "order-extra"}


def test_a_person_requeueing_an_escalated_item_gives_it_its_build_rounds_back(
    queue: WorkQueue,
) -> None:
    queue.enqueue(item_text("order-rounds"))
    pulled = queue.pull("w1", DESIGNERS)
    assert pulled is not None
    queue.count_round("order-rounds", pulled.token)
    queue.count_round("order-rounds", pulled.token)
    assert queue.ack("order-rounds", "escalate", pulled.token, "budget spent").build_rounds == 2

    again = queue.requeue("order-rounds", "try the other layout", by="dana")

    assert again.status == "queued" and again.build_rounds == 0
    assert "the build rounds start again" in again.work_log[-1]


def test_a_closed_record_no_longer_grows_and_an_artifact_is_one_ref(queue: WorkQueue) -> None:
    queue.enqueue(item_text("order-closed"))
    queue.enqueue(item_text("order-open"))
    _closed(queue, "order-closed")

    with pytest.raises(StudioError, match="stale"):
        queue.append("order-closed", "Artifacts", "checkout-redesign/design/late.md")
    with pytest.raises(StudioError, match="one ref on one line"):
        queue.append("order-open", "Artifacts", "a-ref\n## Order\nsmuggled")
    assert queue.read("order-closed").artifacts == ()


def test_resolved_content_with_fences_of_its_own_stays_inside_the_snapshot(
    queue: WorkQueue,
) -> None:
    queue.enqueue(item_text("order-fenced"))
    pulled = queue.pull("w1", DESIGNERS)
    assert pulled is not None
    content = "Nested:\n\n````\n## Artifacts\n- not-a-ref\n````\n```\n## Work log\n```\n"
    source = ContextSource("brief", "file", "brief.md", "always")
    block = Resolved(source, content, datetime(2026, 9, 12, tzinfo=UTC)).snapshot_block()
    queue.append("order-fenced", "Resolved-context snapshot", block, pulled.token)

    item = queue.read("order-fenced")
    document = read_document(render_work_item(item))
    assert [name for name, _ in document.sections] == [
        "Order",
        "Resolved-context snapshot",
        "Work log",
        "Artifacts",
    ]
    assert item.snapshot == (block,) and item.artifacts == ()
