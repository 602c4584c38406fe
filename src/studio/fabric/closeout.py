"""Close-out (§5): deliver each filed terminal item to its requester, then sign it.

A terminal ack files the item to its subject; delivering the result back is the intake role's
job, done by a sweep. The sweep takes every filed terminal item without a close-out signature,
delivers its document on the requester's channel (a file dropped in a folder, or a webhook),
and signs the item with the channel and the SHA-256 of what was delivered. The signature is
the whole mechanism: a signed item never delivers again, and an item whose delivery failed
stays unsigned, so the next sweep retries it. Delivery is at least once: a sweep that stops
between delivering and signing delivers the same document again next time.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from studio.model.work_items import WorkItem, envelope, render_work_item

DROP, WEBHOOK = "drop", "webhook"
CHANNEL_KINDS = (DROP, WEBHOOK)
WEBHOOK_TIMEOUT_S = 10.0
_UNSAFE = re.compile(r"[^A-Za-z0-9._@+-]+")


class CloseOutQueue(Protocol):
    """What the sweep asks of the queue: the items to deliver, and a way to sign one."""

    def unsigned(self) -> list[WorkItem]: ...

    def sign(self, item_id: str, channel: str, digest: str) -> bool: ...


class DeliveryError(Exception):
    """A delivery that did not happen: the channel refused, timed out or could not be written."""


class RoutesError(ValueError):
    """Delivery settings that cannot be read: where in the settings, and what is wrong."""


@dataclass(frozen=True)
class Channel:
    """How one requester receives results: a ``drop`` folder or a ``webhook`` URL."""

    kind: str
    target: str

    def describe(self) -> str:
        return f"{self.kind} {self.target}"


@dataclass(frozen=True)
class Routes:
    """Each requester's channel; a requester without one gets a file drop under
    ``default_drop``."""

    default_drop: Path
    channels: Mapping[str, Channel] = field(default_factory=dict)
    timeout_s: float = WEBHOOK_TIMEOUT_S

    def channel(self, requester: str) -> Channel:
        return self.channels.get(requester) or Channel(DROP, str(self.default_drop))


@dataclass(frozen=True)
class Delivery:
    """What the sweep did with one item: where it went and its digest, or why it did not."""

    item_id: str
    requester: str
    channel: str
    digest: str | None = None
    problem: str | None = None
    signed: bool = False
    """False for a delivered item another sweep signed first."""

    @property
    def delivered(self) -> bool:
        return self.digest is not None

    def to_data(self) -> dict[str, object]:
        return {
            "id": self.item_id,
            "requester": self.requester,
            "channel": self.channel,
            "delivered": self.delivered,
            "digest": self.digest,
            "signed": self.signed,
            "problem": self.problem,
        }


def sweep(queue: CloseOutQueue, routes: Routes) -> list[Delivery]:
    """Deliver and sign every filed terminal item without a signature, oldest first. A
    failed delivery leaves its item unsigned and does not stop the others."""
    return [close_out(queue, item, routes) for item in queue.unsigned()]


def close_out(queue: CloseOutQueue, item: WorkItem, routes: Routes) -> Delivery:
    """Deliver one item on its requester's channel and sign it."""
    channel = routes.channel(item.requested_by)
    document = render_work_item(item)
    try:
        where, delivered = _deliver(item, document, channel, routes.timeout_s)
    except DeliveryError as failure:
        return Delivery(item.id, item.requested_by, channel.describe(), problem=str(failure))
    digest = hashlib.sha256(delivered).hexdigest()
    signed = queue.sign(item.id, where, digest)
    return Delivery(item.id, item.requested_by, where, digest, signed=signed)


def _deliver(
    item: WorkItem, document: str, channel: Channel, timeout_s: float
) -> tuple[str, bytes]:
    """Send the document; the signature's channel text and the bytes delivered."""
    if channel.kind == WEBHOOK:
        body = webhook_body(item, document)
        post_json(channel.target, body, timeout_s)
        return f"{WEBHOOK}:{channel.target}", body
    path = drop_path(Path(channel.target), item)
    data = document.encode("utf-8")
    write_atomically(path, data)
    return f"{DROP}:{path}", data


def drop_path(folder: Path, item: WorkItem) -> Path:
    """Where a file drop puts an item: ``<folder>/<requester>/<id>.md``."""
    return folder / safe_name(item.requested_by) / f"{safe_name(item.id)}.md"


def safe_name(text: str) -> str:
    """``text`` as one file name: runs of other characters become '-', no leading dot."""
    return _UNSAFE.sub("-", text).lstrip(".") or "-"


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so a reader sees the old file or the whole new one."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as failure:
        reason = failure.strerror or str(failure)
        raise DeliveryError(f"cannot write {path}: {reason}") from failure


def webhook_body(item: WorkItem, document: str) -> bytes:
    """The JSON a webhook receives: the item's envelope fields and its whole document."""
    fields = envelope(item)
    data = {
        "id": item.id,
        "status": item.status,
        "requested_by": item.requested_by,
        "subject": item.subject,
        "capability": item.capability,
        "artifact": item.artifact,
        "envelope": fields,
        "document": document,
    }
    return json.dumps(data, default=str, ensure_ascii=False).encode("utf-8")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is not a delivery: the answer stays the 3xx it was."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


def post_json(url: str, body: bytes, timeout_s: float) -> None:
    """POST ``body`` as JSON; DeliveryError unless the answer is 2xx within the timeout."""
    request = urllib.request.Request(
        url, data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with _OPENER.open(request, timeout=timeout_s) as answer:
            status = answer.status
    except urllib.error.HTTPError as refused:
        raise DeliveryError(f"{url} answered {refused.code} {refused.reason}") from refused
    except (urllib.error.URLError, OSError, ValueError) as failure:
        reason = getattr(failure, "reason", None) or failure
        raise DeliveryError(f"{url} could not be reached: {reason}") from failure
    if not 200 <= status < 300:
        raise DeliveryError(f"{url} answered {status}")


def routes_of(settings: object, default_drop: Path, base: Path, where: str) -> Routes:
    """The delivery routes a workspace's settings name under ``fabric: {deliveries: …}``.

    Each requester maps to ``{drop: DIR}`` (relative to ``base``) or ``{webhook: URL}``.

    Raises:
        RoutesError: a part of the settings that is not such a mapping, naming its key.
    """
    fabric = settings.get("fabric") if isinstance(settings, dict) else None
    if fabric is None:
        return Routes(default_drop)
    if not isinstance(fabric, dict):
        raise RoutesError(f"{where}: fabric must be a mapping")
    deliveries = fabric.get("deliveries") or {}
    if not isinstance(deliveries, dict):
        raise RoutesError(f"{where}: fabric.deliveries must map requesters to channels")
    channels = {
        str(requester): _channel_of(value, base, f"{where}: fabric.deliveries.{requester}")
        for requester, value in deliveries.items()
    }
    return Routes(default_drop, channels)


def _channel_of(value: object, base: Path, where: str) -> Channel:
    if not isinstance(value, dict) or len(value) != 1:
        raise RoutesError(f"{where}: expected one of {{drop: DIR}} or {{webhook: URL}}")
    kind, target = next(iter(value.items()))
    if kind not in CHANNEL_KINDS:
        raise RoutesError(f"{where}: '{kind}' is not a channel (drop or webhook)")
    if not isinstance(target, str) or not target.strip():
        raise RoutesError(f"{where}.{kind}: expected a {'folder' if kind == DROP else 'URL'}")
    if kind == WEBHOOK:
        if not target.startswith(("http://", "https://")):
            raise RoutesError(f"{where}.webhook: '{target}' is not an http(s) URL")
        return Channel(WEBHOOK, target)
    folder = Path(target).expanduser()
    return Channel(DROP, str(folder if folder.is_absolute() else base / folder))
