"""Work items: the envelope that starts as an order and ends as the full build record.

A work item is Markdown with YAML front matter (what the queue and the executor agree on) and a
body of four sections in a fixed order: the Order, the resolved-context snapshot, the work log
and the artifacts. The queue reads only ``status``; the last three sections only grow.

This module holds the item and its parts, and writes an item as text; reading a text is
``studio.model.work_item_documents``, judging it ``studio.model.gate_a``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from studio.model.yaml_writer import dump_yaml

STATUSES = (
    "queued",
    "leased",
    "in-build",
    "needs-context",
    "escalated",
    "done",
    "killed",
    "returned",
)
"""Every queue status; the queue reads no other field."""
TERMINAL = frozenset({"done", "killed", "returned"})
"""Statuses after which the item files to its subject and leaves the queue."""
LEASED = frozenset({"leased", "in-build"})
"""Statuses that carry a lease."""

EXITS = ("advance", "refire-to-author", "reroute-to-spec", "reroute-to-steward", "kill")
"""Every routing decision an executor may take."""
STATION_EXITS = frozenset({"refire-to-author", "reroute-to-spec"})
"""Exits that route between stations inside a lease and never reach the queue port."""
ESCALATE = "escalate"
"""Not an exit: the build-round budget ran out and a human must make the exit call."""
PORT_EXITS = ("advance", "reroute-to-steward", "kill", ESCALATE)
"""What an ack may carry."""

SECTIONS = ("Order", "Resolved-context snapshot", "Work log", "Artifacts")
"""The body's sections, in their one order."""
ORDER, SNAPSHOT, WORK_LOG, ARTIFACTS = SECTIONS
GROWING_SECTIONS = (SNAPSHOT, WORK_LOG, ARTIFACTS)
"""The sections an append may add to."""

SOURCE_TYPES = ("artifact", "file", "url", "mcp", "query")
"""Registered context source types; ``graph`` is reserved and not registered."""
LIVE_SOURCE_TYPES = frozenset({"url", "mcp", "query"})
"""Sources whose content can change: what they resolved to is recorded in the snapshot."""
SOURCE_KEYS = ("id", "type", "ref", "when")
DISCOVERY_ARTIFACT = "menu"
"""The artifact type every capability answers: its manifest, published."""

DEFAULT_CONTEXT_BUDGET = 3
"""Bounces back to intake an item may take before it returns to its requester."""
DEFAULT_BUILD_BUDGET = 3
"""Build rounds an item may take before it escalates to a human."""


@dataclass(frozen=True)
class ContextSource:
    """A pointer to context: never the content itself."""

    id: str
    type: str
    ref: str
    when: str
    carried: tuple[tuple[str, Any], ...] = ()
    """Keys beyond the four a source may have, kept so Gate A rule 8 sees them (a source
    that carries content is refused, on either side of the queue)."""

    @property
    def eager(self) -> bool:
        """Whether the source must resolve at enqueue and is snapshotted at build time."""
        return self.when.startswith("always")

    @property
    def live(self) -> bool:
        return self.type in LIVE_SOURCE_TYPES

    def as_dict(self) -> dict[str, Any]:
        pointer = {"id": self.id, "type": self.type, "ref": self.ref, "when": self.when}
        return {**pointer, **dict(self.carried)}


@dataclass(frozen=True)
class Lease:
    """Who holds an item, until when, and the fencing token every write must carry."""

    worker: str
    token: int
    expires_at: datetime

    def expired(self, now: datetime) -> bool:
        return self.expires_at <= now

    def as_dict(self) -> dict[str, Any]:
        return {"worker": self.worker, "token": self.token, "expires_at": iso(self.expires_at)}


@dataclass(frozen=True)
class Approval:
    """A human sign-off recorded on the item: who, for whom, when."""

    approver: str
    on_behalf_of: str | None
    at: datetime

    def as_dict(self) -> dict[str, Any]:
        return {"approver": self.approver, "on_behalf_of": self.on_behalf_of, "at": iso(self.at)}


@dataclass(frozen=True)
class WorkItem:
    """A work item as the queue holds it."""

    id: str
    artifact: str
    capability: str
    subject: str
    requested_by: str
    created_at: datetime
    order: str
    status: str = "queued"
    lease: Lease | None = None
    context: tuple[ContextSource, ...] = ()
    approvals: tuple[Approval, ...] = ()
    """The well-formed approvals recorded (``approval_entries`` holds every one as written)."""
    context_bounces: int = 0
    build_rounds: int = 0
    snapshot: tuple[str, ...] = ()
    work_log: tuple[str, ...] = ()
    artifacts: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    """Front matter fields beyond the envelope's, kept as written."""
    updated_at: datetime | None = None
    """When the queue last changed the item (not part of the document)."""
    approval_entries: tuple[Any, ...] | None = None
    """Every approval as recorded, malformed ones too (the build checks them; None: the
    well-formed ``approvals`` are all there is)."""

    def recorded_approvals(self) -> list[Any]:
        """Every approval as recorded, as plain data: what the approvals policy checks."""
        if self.approval_entries is not None:
            return list(self.approval_entries)
        return [approval.as_dict() for approval in self.approvals]

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL

    @property
    def title(self) -> str:
        """The Order's first line, for lists and the filed record."""
        first = next((line for line in self.order.splitlines() if line.strip()), self.id)
        return first.strip()[:120]

    def with_status(self, status: str, lease: Lease | None = None) -> WorkItem:
        return replace(self, status=status, lease=lease)


def iso(moment: datetime) -> str:
    """A moment as ISO 8601 in UTC with a ``Z``, as work items write them."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def parse_moment(value: object) -> datetime | None:
    """An aware moment from YAML (a date-time or ISO text); naive means UTC; None if neither."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
    else:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def source_of(entry: dict[str, Any]) -> ContextSource:
    carried = tuple((key, value) for key, value in entry.items() if key not in SOURCE_KEYS)
    id_, type_, ref, when = (str(entry.get(key) or "") for key in SOURCE_KEYS)
    return ContextSource(id_, type_, ref, when, carried)


def lease_of(value: object) -> Lease | None:
    """A lease mapping as a Lease; None for null or anything malformed (Gate A rule 3)."""
    if not isinstance(value, dict):
        return None
    expires = parse_moment(value.get("expires_at"))
    worker, token = value.get("worker"), value.get("token")
    if not isinstance(worker, str) or not worker or expires is None:
        return None
    if isinstance(token, bool) or not isinstance(token, int):
        return None
    return Lease(worker, token, expires)


def recorded_entries(value: object) -> tuple[Any, ...]:
    """Approvals as written, as JSON-plain data (a date-time as ISO text); something that is
    not a list is one (malformed) entry."""
    if value is None:
        return ()
    entries = value if isinstance(value, list) else [value]
    return tuple(_plain(entry) for entry in entries)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return iso(value if value.tzinfo else value.replace(tzinfo=UTC))
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value if isinstance(value, str | int | float | bool) or value is None else str(value)


def approvals_of(value: object) -> list[Approval]:
    """The well-formed approvals of a front matter ``approvals`` list (see approval_problems)."""
    found = []
    for entry in value if isinstance(value, list) else ():
        if isinstance(entry, dict) and not approval_problem(entry):
            behalf = entry.get("on_behalf_of")
            moment = parse_moment(entry["at"])
            assert moment is not None
            found.append(Approval(str(entry["approver"]), behalf and str(behalf), moment))
    return found


def approval_problem(entry: object) -> str | None:
    """What is wrong with one recorded approval, or None."""
    if not isinstance(entry, dict):
        return "an approval must be a mapping with approver, on_behalf_of and at"
    approver = entry.get("approver")
    if not isinstance(approver, str) or not approver.strip():
        return "an approval must name its approver"
    behalf = entry.get("on_behalf_of")
    if behalf is not None and not isinstance(behalf, str):
        return f"approval by {approver}: on_behalf_of must be a name or null"
    if parse_moment(entry.get("at")) is None:
        return f"approval by {approver}: 'at' must be a date-time"
    return None


def envelope(item: WorkItem) -> dict[str, Any]:
    """The item's front matter fields, in the envelope's order, as YAML writes them."""
    return {**envelope_fields(item), **item.extra}


def envelope_fields(item: WorkItem) -> dict[str, Any]:
    """``envelope`` without the item's extra fields."""
    return {
        "id": item.id,
        "artifact": item.artifact,
        "capability": item.capability,
        "subject": item.subject,
        "status": item.status,
        "lease": item.lease.as_dict() if item.lease else None,
        "requested_by": item.requested_by,
        "created_at": iso(item.created_at),
        "context": [source.as_dict() for source in item.context],
        "approvals": item.recorded_approvals(),
        "context_bounces": item.context_bounces,
        "build_rounds": item.build_rounds,
    }


def render_work_item(item: WorkItem) -> str:
    """The item's text: front matter in the envelope's order, then the four sections."""
    return f"---\n{dump_yaml(envelope(item))}---\n\n{render_body(item)}"


def render_body(item: WorkItem) -> str:
    """The four sections of an item, in order."""
    return "\n".join(
        [body_head(item), *(list_section(title, lines) for title, lines in lists_of(item))]
    )


def body_head(item: WorkItem) -> str:
    """The Order and the snapshot sections as ``render_body`` writes them."""
    order = f"## {ORDER}\n\n{item.order.strip()}\n"
    return f"{order}\n## {SNAPSHOT}\n" + "".join(f"\n{block}\n" for block in item.snapshot)


def lists_of(item: WorkItem) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The two list sections, title and lines, in the order ``render_body`` writes them after
    ``body_head``."""
    return ((WORK_LOG, item.work_log), (ARTIFACTS, item.artifacts))


def list_section(title: str, lines: tuple[str, ...]) -> str:
    """A list section as ``render_body`` writes it."""
    return f"## {title}\n" + (("\n" + "".join(f"- {line}\n" for line in lines)) if lines else "")


def log_line(moment: datetime, text: str) -> str:
    """One work log entry: when, then what happened (kept on one line)."""
    return f"{iso(moment)} {' '.join(text.split())}"
