"""What ``studio work enqueue|lint|list|show|ack|release|kill|requeue|return|sweep`` do.

Exit codes: 0 done; 1 refused (Gate A, a stale token, an exit or a move the item's status does
not allow, a delivery that failed); 2 input that cannot be read (a file, an id that names no
item, settings that name no channel)."""

import argparse
import json
import sys
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from studio.cli.shared import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, workspace_for
from studio.fabric.closeout import Delivery, Routes, RoutesError, routes_of, sweep
from studio.fabric.queue import WorkQueue
from studio.fabric.queue_errors import GateARefusedError
from studio.model import read_definition
from studio.model.errors import NotFoundError, StudioError
from studio.model.gate_a import GateFailure
from studio.model.text_files import UnreadableFileError, read_text_file
from studio.model.work_item_documents import WorkItemFormatError
from studio.model.work_items import Lease, WorkItem, envelope, iso
from studio.store.errors import DatabaseError
from studio.store.schema import utc_now

if TYPE_CHECKING:
    from studio.workspace import Workspace

DELIVERIES_FOLDER = "deliveries"
"""The data folder's subfolder a requester without a channel of its own gets its drops in."""
LIST_COLUMNS = ("ID", "STATUS", "ARTIFACT", "CAPABILITY", "SUBJECT", "LEASE HOLDER", "TIME LEFT")


def work_lint(args: argparse.Namespace) -> int:
    """``studio work lint FILE``: Gate A as enqueue runs it; nothing is stored."""
    try:
        text = read_text_file(args.file)
        failures = workspace_for(args).work_queue.lint(text)
    except (UnreadableFileError, WorkItemFormatError) as failure:
        return _unreadable(args, failure)
    return _gate_verdict(args, failures, None, enqueue=False)


def work_enqueue(args: argparse.Namespace) -> int:
    """``studio work enqueue FILE [--by NAME]``: on the queue if Gate A passes; else each broken
    rule is listed and nothing is stored."""
    try:
        text = read_text_file(args.file)
        item = workspace_for(args).work_queue.enqueue(text, by=args.by)
    except (UnreadableFileError, WorkItemFormatError) as failure:
        return _unreadable(args, failure)
    except GateARefusedError as refused:
        return _gate_verdict(args, refused.failures, None, enqueue=True)
    return _gate_verdict(args, [], item, enqueue=True)


def work_list(args: argparse.Namespace) -> int:
    """``studio work list [--status S] [--capability C]``: a table, oldest first."""
    items = workspace_for(args).work_queue.list(args.status, args.capability)
    now = utc_now()
    if args.json:
        return _print_json([_item_data(item, now) for item in items])
    if not items:
        print("no work items", file=sys.stderr)
        return EXIT_OK
    rows = [LIST_COLUMNS, *(_list_row(item, now) for item in items)]
    widths = [max(len(row[n]) for row in rows) for n in range(len(LIST_COLUMNS))]
    for row in rows:
        cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        print("  ".join(cells).rstrip())
    return EXIT_OK


def work_show(args: argparse.Namespace) -> int:
    """``studio work show ID``: the item's document (front matter and its four sections)."""
    queue = workspace_for(args).work_queue
    try:
        item, text = queue.read(args.item_id), queue.text(args.item_id)
    except NotFoundError as missing:
        return _failed(args, str(missing), EXIT_UNREADABLE)
    if not args.json:
        sys.stdout.write(text)
        return EXIT_OK
    signed = queue.signature(item.id)
    signature = None
    if signed is not None:
        signature = {"signed_at": iso(signed[0]), "channel": signed[1], "digest": signed[2]}
    data = {"item": _item_data(item, utc_now()), "document": text, "signature": signature}
    return _print_json(data)


def work_ack(args: argparse.Namespace) -> int:
    """``studio work ack ID EXIT --token N [--reason R]``: end a lease with an exit."""
    return _act(args, lambda queue: queue.ack(args.item_id, args.exit, args.token, args.reason))


def work_release(args: argparse.Namespace) -> int:
    """``studio work release ID --token N [--reason R]``: back on the queue, unbuilt."""
    return _act(args, lambda queue: queue.release(args.item_id, args.token, args.reason))


def work_kill(args: argparse.Namespace) -> int:
    """``studio work kill ID --reason R [--by NAME]``: a person ends an open item."""
    return _act(args, lambda queue: queue.kill(args.item_id, args.reason, args.by))


def work_requeue(args: argparse.Namespace) -> int:
    """``studio work requeue ID --reason R``: a parked or escalated item back on the queue."""
    return _act(args, lambda queue: queue.requeue(args.item_id, args.reason, args.by))


def work_return(args: argparse.Namespace) -> int:
    """``studio work return ID --reason R``: an open item back to intake (needs-context)."""
    return _act(args, lambda queue: queue.return_to_intake(args.item_id, args.reason, args.by))


def work_sweep(args: argparse.Namespace) -> int:
    """``studio work sweep``: deliver every closed, unsigned item to its requester and sign it;
    exit 1 when a delivery failed (that item stays unsigned for the next sweep)."""
    workspace = workspace_for(args)
    try:
        routes = delivery_routes(workspace)
    except RoutesError as unreadable:
        return _failed(args, str(unreadable), EXIT_UNREADABLE)
    deliveries = sweep(workspace.work_queue, routes)
    failed = sum(not delivery.delivered for delivery in deliveries)
    if args.json:
        _print_json({"deliveries": [delivery.to_data() for delivery in deliveries]})
    else:
        _print_deliveries(deliveries)
    return EXIT_INVALID if failed else EXIT_OK


def delivery_routes(workspace: "Workspace") -> Routes:
    """Each requester's channel, from ``fabric.deliveries`` of the workspace's settings file;
    a file drop under the data folder by default."""
    default_drop = workspace.data_dir / DELIVERIES_FOLDER
    settings_file = workspace.settings_file
    settings = read_definition(settings_file) if settings_file.is_file() else None
    return routes_of(settings, default_drop, settings_file.parent, str(settings_file))


def _print_deliveries(deliveries: list[Delivery]) -> None:
    if not deliveries:
        print("nothing to deliver: every closed item is signed", file=sys.stderr)
        return
    for delivery in deliveries:
        head = f"{delivery.item_id} → {delivery.requester}"
        if not delivery.delivered:
            print(f"{head}: not delivered ({delivery.channel}): {delivery.problem}")
            continue
        digest = f"sha256 {str(delivery.digest)[:12]}"
        signed = "signed" if delivery.signed else "another sweep had signed it already"
        print(f"{head}: delivered by {delivery.channel} ({digest}), {signed}")
    failed = sum(not delivery.delivered for delivery in deliveries)
    if failed:
        print(f"studio: {failed} item(s) left unsigned; the next sweep retries", file=sys.stderr)


def _act(args: argparse.Namespace, act: Callable[[WorkQueue], WorkItem]) -> int:
    """Do one action on an item; a refusal (stale token, an exit or a move its status does
    not allow) exits 1, an id that names no item exits 2."""
    queue = workspace_for(args).work_queue
    try:
        item = act(queue)
    except NotFoundError as missing:
        return _failed(args, str(missing), EXIT_UNREADABLE)
    except DatabaseError:
        raise
    except StudioError as refused:
        message = str(refused)
        named = message if message.startswith(args.item_id) else f"{args.item_id}: {message}"
        return _failed(args, named, EXIT_INVALID)
    if args.json:
        return _print_json(_item_data(item, utc_now()))
    print(f"{item.id}: {item.status}")
    if item.terminal:
        print(f"filed to {item.subject}; `studio work sweep` delivers it to {item.requested_by}")
    return EXIT_OK


def _gate_verdict(
    args: argparse.Namespace, failures: list[GateFailure], item: WorkItem | None, *, enqueue: bool
) -> int:
    """Gate A's verdict on a file: each broken rule as ``FILE: rule N: message``."""
    if args.json:
        data: dict[str, Any] = {
            "file": args.file,
            "passes": not failures,
            "stored": item is not None,
            "failures": [{"rule": f.rule, "message": f.message} for f in failures],
        }
        if item is not None:
            data["item"] = _item_data(item, utc_now())
        _print_json(data)
    else:
        for failure in failures:
            print(f"{args.file}: {failure.describe()}")
        sentence = _verdict_sentence(args.file, failures, item, enqueue)
        print(sentence, file=sys.stderr if failures else sys.stdout)
    return EXIT_INVALID if failures else EXIT_OK


def _verdict_sentence(
    file: str, failures: list[GateFailure], item: WorkItem | None, enqueue: bool
) -> str:
    if failures:
        stored = "; nothing stored" if enqueue else ""
        return f"{file}: refused by Gate A ({len(failures)} rule(s) broken){stored}"
    if item is None:
        return f"{file}: passes Gate A"
    ordered = f"{item.artifact} from {item.capability} about {item.subject}"
    return f"enqueued {item.id}: {ordered}"


def _list_row(item: WorkItem, now: datetime) -> tuple[str, ...]:
    holder = item.lease.worker if item.lease else "-"
    return (
        item.id,
        item.status,
        item.artifact,
        item.capability,
        item.subject,
        holder,
        time_left(item.lease, now),
    )


def time_left(lease: Lease | None, now: datetime) -> str:
    """How long a lease has to run, as ``45s``, ``4m05s`` or ``1h02m``; ``expired``; ``-``."""
    if lease is None:
        return "-"
    seconds = int((lease.expires_at - now).total_seconds())
    if seconds <= 0:
        return "expired"
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def _item_data(item: WorkItem, now: datetime) -> dict[str, Any]:
    left = None if item.lease is None else (item.lease.expires_at - now).total_seconds()
    return envelope(item) | {"time_left_s": None if left is None else max(left, 0.0)}


def _unreadable(args: argparse.Namespace, failure: Exception) -> int:
    """Exit 2 for a file that cannot be read or is not a work item at all."""
    where = "" if isinstance(failure, UnreadableFileError) else f"{args.file}: "
    return _failed(args, f"{where}{failure}", EXIT_UNREADABLE)


def _failed(args: argparse.Namespace, message: str, code: int) -> int:
    """An error: a JSON document with ``--json``, else one line on stderr."""
    if args.json:
        subject = {"file": args.file} if getattr(args, "file", None) else {}
        item_id = getattr(args, "item_id", None)
        _print_json(subject | ({"id": item_id} if item_id else {}) | {"error": message})
    else:
        print(f"studio: {message}", file=sys.stderr)
    return code


def _print_json(document: Any) -> int:
    print(json.dumps(document, indent=2, default=str, ensure_ascii=False))
    return EXIT_OK
