"""Work items on a real queue for the board's tests: the design studio's manifest published,
the sample subject's corpus landed, and orders that pass Gate A,
moved through the queue as workers and people would move them."""

from pathlib import Path

from studio.fabric.queue import Scope, WorkQueue
from studio.workspace import Workspace

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "fixtures" / "capability-design-studio.md"
ORDER = HERE / "fixtures" / "order-checkout-design.md"
CORPUS = HERE.parents[1] / "knowledge" / "fixtures" / "checkout-redesign"
DESIGN = Scope("design-studio", frozenset({"design"}))


def ready_queue(workspace: Workspace) -> WorkQueue:
    """The workspace's queue, with what the sample order needs to pass Gate A."""
    queue = workspace.work_queue
    queue.publish_manifest(MANIFEST.read_text(encoding="utf-8"))
    for path in sorted(CORPUS.glob("2026-*.md")):  # in date order: later ones supersede
        workspace.knowledge.land(path.read_text(encoding="utf-8"))
    return queue


def order_text(item_id: str, order: str | None = None) -> str:
    """The sample order under another id (and, when given, another Order)."""
    text = ORDER.read_text(encoding="utf-8").replace("order-checkout-design", item_id)
    if order is not None:
        head, _, rest = text.partition("## Order\n\n")
        text = (
            head
            + "## Order\n\n"
            + order
            + "\n\n## Resolved-context"
            + rest.split("## Resolved-context", 1)[1]
        )
    return text


def enqueue(queue: WorkQueue, item_id: str, order: str | None = None) -> str:
    queue.enqueue(order_text(item_id, order), by="intake-desk")
    return item_id


def seed_every_status(queue: WorkQueue) -> dict[str, str]:
    """One item in each status but returned (two queued); status → an item's id."""
    done = enqueue(queue, "design-payment-step", "Design the payment step of checkout.")
    pulled = queue.pull("worker-1", DESIGN)
    assert pulled is not None and pulled.item.id == done
    queue.append(done, "Artifacts", "checkout-redesign/design/2026-09-10-design.md", pulled.token)
    queue.ack(done, "advance", pulled.token)
    killed = enqueue(queue, "design-old-cart", "Redesign the old cart page.")
    queue.kill(killed, "the cart page is being retired", by="dana")
    escalated = enqueue(queue, "design-address-step", "Design the address step.")
    pulled = queue.pull("worker-1", DESIGN)
    assert pulled is not None
    queue.ack(escalated, "escalate", pulled.token, "three build rounds did not converge")
    intake = enqueue(queue, "design-guest-checkout", "Design guest checkout.")
    queue.return_to_intake(intake, "which markets allow guest checkout?", by="dana")
    building = enqueue(queue, "design-order-summary", "Design the order summary panel.")
    pulled = queue.pull("worker-2", DESIGN)
    assert pulled is not None
    queue.begin_build(building, pulled.token)
    queue.append(building, "Work log", "Gate B: Clear: the requirements cover it", pulled.token)
    leased = enqueue(queue, "design-promo-codes", "Design promo code entry.")
    assert queue.pull("worker-3", DESIGN) is not None
    queued = enqueue(queue, "design-receipt-email", "Design the receipt email.")
    enqueue(queue, "design-saved-cards", "Design saved cards.")
    return {
        "queued": queued,
        "leased": leased,
        "in-build": building,
        "needs-context": intake,
        "escalated": escalated,
        "done": done,
        "killed": killed,
    }
