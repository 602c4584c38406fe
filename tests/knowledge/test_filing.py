"""Filing a closed work item: its record lands as written, derived without item types."""

from datetime import UTC, datetime
from pathlib import Path

from studio.knowledge.filing import filing_landing
from studio.knowledge.knowledge_base import KnowledgeBase
from studio.model.knowledge import ORDERED, RUN, WORK_ITEM_KIND
from studio.model.work_items import ContextSource, WorkItem
from studio.store import open_database
from studio.store.knowledge import KnowledgeRepository

QUOTED_BLOCKS = """Design the checkout. The old requirement read:

```yaml requirement
id: [broken
```

and the revised one:

```yaml requirement
id: R-9
text: Guests pay by card.
```
"""


def _closed(order: str, subject: str = "acme") -> WorkItem:
    return WorkItem(
        "order-one",
        "design",
        "design-studio",
        subject,
        "intake-desk",
        datetime(2026, 9, 12, 9, tzinfo=UTC),
        order,
        status="done",
        context=(ContextSource("brief", "url", "https://example.com/brief", "on-demand"),),
        work_log=("2026-09-12T09:00:00Z queued by intake-desk; Gate A passed",),
    )


def test_an_order_quoting_item_blocks_files_as_a_record_with_no_items_of_its_own(
    tmp_path: Path,
) -> None:
    repository = KnowledgeRepository(open_database(tmp_path / "studio.db"))
    version, text, derivation = filing_landing(_closed(QUOTED_BLOCKS), ["e-1"], None)
    repository.add_versions([(version, text, derivation)])

    assert version.front.kind == WORK_ITEM_KIND
    assert version.ref == "acme/work-item/2026-09-12-order-one.md"
    assert repository.body(version.ref) == text
    types = {node.type for node in derivation.nodes}
    assert "requirement" not in types and RUN in types
    assert ("order-one", ORDERED, "run:e-1") in {
        (e.source, e.type, e.target) for e in derivation.edges
    }
    check = KnowledgeBase(repository).verify()
    assert check.damaged == [] and check.differing == []
