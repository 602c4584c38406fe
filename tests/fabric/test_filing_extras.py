"""An item's extra fields are filed beside its envelope and never stand in for it, whatever
its stored row holds (a pull would park such an item; a person's kill files it as it is)."""

from __future__ import annotations

from studio.fabric.queue import WorkQueue
from studio.store import Database
from studio.store.knowledge import KnowledgeRepository
from tests.fabric.items import item_text
from tests.fabric.test_conformance import change_row


def test_extras_named_like_envelope_fields_do_not_change_the_filed_record(
    queue: WorkQueue, database: Database
) -> None:
    queue.enqueue(item_text("order-one"))
    change_row(database, "order-one", extra={"status": "queued", "id": "other", "note": "kept"})

    closed = queue.kill("order-one", "no longer wanted", by="intake-desk")

    ref = closed.work_log[-1].rsplit(" as ", 1)[1]
    filed = KnowledgeRepository(database).version(ref)
    assert filed is not None
    assert (filed.front.id, filed.front.kind) == ("order-one", "work-item")
    text = KnowledgeRepository(database).body(ref)
    assert "\nstatus: killed\n" in text and "\nnote: kept\n" in text
    assert "status: queued" not in text and "id: other" not in text
