"""The close-out sweep (§5) on every backend: filed terminal items are delivered to their
requester by a file drop or a webhook (a real local HTTP server), then signed; a failed
delivery stays unsigned and the next sweep delivers it; a signed item never delivers again."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from studio.fabric.closeout import (
    DROP,
    WEBHOOK,
    Channel,
    Routes,
    RoutesError,
    close_out,
    routes_of,
    sweep,
)
from studio.fabric.queue import Scope, WorkQueue
from tests.fabric.items import CAPABILITY, item_text
from tests.fabric.webhook import Hook


def closed(queue: WorkQueue, item_id: str, requester: str = "intake-desk") -> str:
    """Enqueue an item, lease it and ack it ``advance``: done and filed. Its document."""
    queue.enqueue(item_text(item_id, requested_by=requester), by="tester")
    pulled = queue.pull("w1", Scope(CAPABILITY))
    assert pulled is not None and pulled.item.id == item_id
    queue.ack(item_id, "advance", pulled.token, "design landed")
    return queue.text(item_id)


def signature(queue: WorkQueue, item_id: str) -> tuple[str, str] | None:
    signed = queue.repository.signature(item_id)
    return None if signed is None else (signed[1], signed[2])


def test_a_done_item_is_dropped_in_its_requesters_folder_and_signed(
    queue: WorkQueue, tmp_path: Path
) -> None:
    document = closed(queue, "order-one")
    deliveries = sweep(queue, Routes(tmp_path / "deliveries"))
    dropped = tmp_path / "deliveries" / "intake-desk" / "order-one.md"
    assert dropped.read_text(encoding="utf-8") == document
    digest = hashlib.sha256(dropped.read_bytes()).hexdigest()
    assert [(d.item_id, d.delivered, d.signed, d.digest) for d in deliveries] == [
        ("order-one", True, True, digest)
    ]
    assert signature(queue, "order-one") == (f"{DROP}:{dropped}", digest)
    assert queue.unsigned() == []
    assert [p.name for p in dropped.parent.iterdir()] == ["order-one.md"]  # no temporary left


def test_a_second_sweep_does_nothing(queue: WorkQueue, tmp_path: Path) -> None:
    closed(queue, "order-one")
    routes = Routes(tmp_path / "deliveries")
    assert len(sweep(queue, routes)) == 1
    dropped = tmp_path / "deliveries" / "intake-desk" / "order-one.md"
    dropped.unlink()
    assert sweep(queue, routes) == []
    assert not dropped.exists()


def test_only_filed_terminal_items_are_delivered(queue: WorkQueue, tmp_path: Path) -> None:
    closed(queue, "order-done")
    queue.enqueue(item_text("order-open"), by="tester")
    queue.enqueue(item_text("order-killed"), by="tester")
    queue.kill("order-killed", "no longer wanted", by="lead")
    deliveries = sweep(queue, Routes(tmp_path / "deliveries"))
    assert [d.item_id for d in deliveries] == ["order-done", "order-killed"]
    assert signature(queue, "order-open") is None
    killed = (tmp_path / "deliveries" / "intake-desk" / "order-killed.md").read_text()
    assert "status: killed" in killed and "killed by lead: no longer wanted" in killed


def test_an_item_another_sweep_signed_meanwhile_keeps_the_first_signature(
    queue: WorkQueue, tmp_path: Path
) -> None:
    closed(queue, "order-one")
    [item] = queue.unsigned()
    assert queue.sign("order-one", "drop:elsewhere", "0" * 64)
    delivery = close_out(queue, item, Routes(tmp_path))
    assert (delivery.delivered, delivery.signed) == (True, False)
    assert signature(queue, "order-one") == ("drop:elsewhere", "0" * 64)


def test_a_webhook_receives_the_document_as_json_and_the_item_is_signed(
    queue: WorkQueue, tmp_path: Path, hook: Hook
) -> None:
    document = closed(queue, "order-one", requester="billing")
    routes = Routes(tmp_path / "deliveries", {"billing": Channel(WEBHOOK, hook.url)})
    [delivery] = sweep(queue, routes)
    [body] = hook.received
    sent = json.loads(body)
    assert (sent["id"], sent["status"], sent["requested_by"]) == ("order-one", "done", "billing")
    assert sent["document"] == document
    digest = hashlib.sha256(body).hexdigest()
    assert (delivery.delivered, delivery.signed, delivery.digest) == (True, True, digest)
    assert signature(queue, "order-one") == (f"{WEBHOOK}:{hook.url}", digest)
    assert not (tmp_path / "deliveries").exists()


def test_a_failing_webhook_leaves_the_item_unsigned_until_a_later_sweep_delivers(
    queue: WorkQueue, tmp_path: Path, hook: Hook
) -> None:
    closed(queue, "order-one", requester="billing")
    routes = Routes(tmp_path / "deliveries", {"billing": Channel(WEBHOOK, hook.url)})
    hook.status = 500
    [failed] = sweep(queue, routes)
    assert (failed.delivered, failed.signed) == (False, False)
    assert failed.problem is not None and "500" in failed.problem
    assert signature(queue, "order-one") is None
    assert [item.id for item in queue.unsigned()] == ["order-one"]

    hook.status = 204
    [delivered] = sweep(queue, routes)
    assert (delivered.delivered, delivered.signed) == (True, True)
    assert signature(queue, "order-one") is not None
    assert sweep(queue, routes) == []
    assert len(hook.received) == 2


def test_a_webhook_that_answers_too_late_leaves_the_item_unsigned(
    queue: WorkQueue, tmp_path: Path, hook: Hook
) -> None:
    closed(queue, "order-one", requester="billing")
    hook.delay_s = 1.0
    channels = {"billing": Channel(WEBHOOK, hook.url)}
    [late] = sweep(queue, Routes(tmp_path / "deliveries", channels, timeout_s=0.2))
    assert not late.delivered and late.problem is not None
    assert signature(queue, "order-one") is None


def test_a_redirect_is_not_a_delivery(queue: WorkQueue, tmp_path: Path, hook: Hook) -> None:
    closed(queue, "order-one", requester="billing")
    hook.status = 302
    [redirected] = sweep(queue, Routes(tmp_path, {"billing": Channel(WEBHOOK, hook.url)}))
    assert not redirected.delivered and "302" in str(redirected.problem)
    assert signature(queue, "order-one") is None


def test_an_unreachable_webhook_is_retried_and_the_rest_are_still_delivered(
    queue: WorkQueue, tmp_path: Path
) -> None:
    closed(queue, "order-one", requester="billing")
    closed(queue, "order-two")
    nowhere = Channel(WEBHOOK, "http://127.0.0.1:9/closed-port")
    deliveries = sweep(queue, Routes(tmp_path / "deliveries", {"billing": nowhere}))
    assert [(d.item_id, d.delivered) for d in deliveries] == [
        ("order-one", False),
        ("order-two", True),
    ]
    assert [item.id for item in queue.unsigned()] == ["order-one"]


def test_a_drop_folder_that_cannot_be_written_leaves_the_item_unsigned(
    queue: WorkQueue, tmp_path: Path
) -> None:
    closed(queue, "order-one")
    blocked = tmp_path / "deliveries"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    [failed] = sweep(queue, Routes(blocked))
    assert not failed.delivered and str(blocked) in str(failed.problem)
    assert signature(queue, "order-one") is None
    blocked.unlink()
    [delivered] = sweep(queue, Routes(blocked))
    assert delivered.signed


def test_a_requester_name_never_leaves_the_drop_folder(queue: WorkQueue, tmp_path: Path) -> None:
    closed(queue, "order-one", requester="../../outside")
    [delivery] = sweep(queue, Routes(tmp_path / "deliveries"))
    assert delivery.signed
    [dropped] = (tmp_path / "deliveries").rglob("*.md")
    assert dropped.parent.parent == tmp_path / "deliveries"
    assert dropped.parent.name == "-..-outside"
    assert not (tmp_path.parent / "outside").exists()


def test_a_drop_replaces_a_half_delivered_copy_whole(queue: WorkQueue, tmp_path: Path) -> None:
    document = closed(queue, "order-one")
    dropped = tmp_path / "intake-desk" / "order-one.md"
    dropped.parent.mkdir()
    dropped.write_text("a copy from a sweep that stopped before signing", encoding="utf-8")
    sweep(queue, Routes(tmp_path))
    assert dropped.read_text(encoding="utf-8") == document


def test_routes_come_from_the_settings(tmp_path: Path) -> None:
    settings = {
        "fabric": {
            "deliveries": {
                "billing": {"webhook": "https://hooks.example.com/studio"},
                "legal": {"drop": "legal-inbox"},
                "archive": {"drop": "/srv/archive"},
            }
        }
    }
    routes = routes_of(settings, tmp_path / "deliveries", tmp_path, "settings.yaml")
    assert routes.channel("billing") == Channel(WEBHOOK, "https://hooks.example.com/studio")
    assert routes.channel("legal") == Channel(DROP, str(tmp_path / "legal-inbox"))
    assert routes.channel("archive") == Channel(DROP, "/srv/archive")
    assert routes.channel("anyone") == Channel(DROP, str(tmp_path / "deliveries"))
    assert routes_of({}, tmp_path, tmp_path, "s").channels == {}
    assert routes_of(None, tmp_path, tmp_path, "s").channels == {}


@pytest.mark.parametrize(
    ("deliveries", "message"),
    [
        ({"billing": "https://x"}, "fabric.deliveries.billing: expected one of"),
        ({"billing": {"mail": "a@b"}}, "fabric.deliveries.billing: 'mail' is not a channel"),
        ({"billing": {"webhook": "ftp://x"}}, "billing.webhook: 'ftp://x' is not an http(s)"),
        ({"billing": {"drop": ""}}, "fabric.deliveries.billing.drop: expected a folder"),
        (
            {"billing": {"drop": "a", "webhook": "https://x"}},
            "fabric.deliveries.billing: expected one of",
        ),
        (["billing"], "fabric.deliveries must map requesters"),
    ],
)
def test_settings_that_name_no_channel_are_refused_where_they_are(
    tmp_path: Path, deliveries: object, message: str
) -> None:
    with pytest.raises(RoutesError, match=r"^settings\.yaml: ") as refused:
        routes_of({"fabric": {"deliveries": deliveries}}, tmp_path, tmp_path, "settings.yaml")
    assert message in str(refused.value)
