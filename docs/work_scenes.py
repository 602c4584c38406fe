"""The Work mode's picture: a queue with an item in every status, an in-build item selected
with its snapshot and work log, and two workers holding leases."""

from datetime import UTC, datetime
from pathlib import Path

from picture_scenes import Stage

from studio.fabric.queue import Scope, WorkQueue
from studio.fabric.sources import SourceResolver

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "ui" / "work" / "fixtures"
CORPUS = REPO / "tests" / "knowledge" / "fixtures" / "checkout-redesign"
DESIGN = Scope("design-studio", frozenset({"design"}))
ORDERS = {
    "design-payment-step": "Design the payment step of checkout.",
    "design-old-cart": "Redesign the old cart page.",
    "design-address-step": "Design the address step.",
    "design-guest-checkout": "Design guest checkout.",
    "design-order-summary": "Design the order summary panel.",
    "design-promo-codes": "Design promo code entry.",
    "design-receipt-email": "Design the receipt email.",
    "design-saved-cards": "Design saved cards.",
}


def work_board(stage: Stage) -> None:
    """work-board.png: the board, the in-build item's detail and the Workers dock."""
    for path in sorted(CORPUS.glob("2026-*.md")):  # the sources the orders point to
        stage.workspace.knowledge.land(path.read_text("utf-8"))
    resolver = SourceResolver(stage.workspace.knowledge.resolve, stage.root)
    queue = _seeded(stage.workspace.work_queue, resolver)
    stage.window.resize(1400, 880)
    mode = stage.window.show_mode("work")
    stage.settle()
    mode.first_show()  # the docks' first sizes, for the window's picture size
    stage.until(lambda: mode.board.card("design-order-summary"))
    mode.select("design-order-summary")
    stage.until(lambda: mode.detail.item is not None and mode.detail.item.snapshot)
    mode.detail.tabs.setCurrentIndex(2)  # the work log
    stage.save(stage.window, "work-board.png")
    del queue


def _seeded(queue: WorkQueue, resolver: SourceResolver) -> WorkQueue:
    queue.publish_manifest((FIXTURES / "capability-design-studio.md").read_text("utf-8"))
    template = (FIXTURES / "order-checkout-design.md").read_text("utf-8")
    for item_id, order in ORDERS.items():
        head, _, rest = template.replace("order-checkout-design", item_id).partition("## Order")
        body = rest.split("## Resolved-context", 1)[1]
        queue.enqueue(f"{head}## Order\n\n{order}\n\n## Resolved-context{body}", by="intake-desk")
    done = queue.pull("worker-1", DESIGN)
    assert done is not None
    queue.append(
        done.item.id, "Artifacts", "checkout-redesign/design/2026-09-10-design.md", done.token
    )
    queue.ack(done.item.id, "advance", done.token, "one component per requirement")
    queue.kill("design-old-cart", "the cart page is being retired", by="dana")
    escalated = queue.pull("worker-1", DESIGN)
    assert escalated is not None
    queue.ack(escalated.item.id, "escalate", escalated.token, "three build rounds did not converge")
    queue.return_to_intake("design-guest-checkout", "which markets allow guest checkout?", "dana")
    building = queue.pull("worker-2", DESIGN)
    assert building is not None
    queue.begin_build(building.item.id, building.token)
    for source in building.item.context[:2]:
        content = resolver.resolve(source, datetime.now(UTC))
        assert content is not None
        snapshot = content.snapshot_block()
        queue.append(building.item.id, "Resolved-context snapshot", snapshot, building.token)
    verdict = "Gate B: Clear — the requirements name every step the order covers"
    queue.append(building.item.id, "Work log", verdict, building.token)
    assert queue.pull("worker-3", DESIGN) is not None
    return queue
