"""Many worker processes on one queue: every item done exactly once, no item held by two.

The proof is in two records the workers cannot fake together: the ledger the capability's
workflow lands (one ``entry-<item>`` artifact per build, naming the worker and the lease token
it built under, so a second build would be a second version), and each item's work log (lease
tokens strictly increase, and each lease ends before the next begins).

``STUDIO_WORKER_ITEMS`` sets how many items (default ``DEFAULT_ITEMS``; the acceptance run
uses 10,000).
"""

import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from studio.model.work_items import WorkItem
from studio.workspace import Workspace
from tests.fabric.workers.capabilities import ledger_capability, ledger_order, start_worker

WORKERS = 8
DEFAULT_ITEMS = 1000
ITEMS = int(os.environ.get("STUDIO_WORKER_ITEMS", DEFAULT_ITEMS))

_LEASED = re.compile(r"leased to (\S+) \(token (\d+)\)")
_ENDS = ("ack ", "released", "reclaimed:")
_ENTRY = re.compile(r"worker=(\S+) token=(\d+)")


@dataclass
class Timings:
    enqueue: float = 0.0
    work: float = 0.0
    check: float = 0.0

    def describe(self, backend: str, items: int) -> str:
        rate = items / self.work if self.work else 0
        return (
            f"{backend}: {WORKERS} workers × {items} items: enqueue {self.enqueue:.1f} s, "
            f"work {self.work:.1f} s ({rate:.0f} items/s), check {self.check:.1f} s"
        )


def enqueue_ledger_items(workspace: Workspace, folder: Path, items: int) -> Path:
    """The ledger capability in ``folder``, its manifest published and ``items`` queued."""
    ledger_capability(folder)
    queue = workspace.work_queue
    queue.publish_manifest((folder / "manifest.md").read_text(encoding="utf-8"))
    rules = folder / "rules.md"
    rules.write_text("One entry per item.\n", encoding="utf-8")
    for number in range(items):
        queue.enqueue(ledger_order(number, rules))
    return folder


def run_workers(folder: Path, data_dir: Path, logs: Path, db: str | None = None) -> None:
    """``WORKERS`` worker processes until the queue has nothing left; each must exit 0."""
    database = ["--db", db] if db else []
    workers = [
        start_worker(
            "--capability", "ledger", "--definition", str(folder), "--name", f"w{n}", "--once",
            "--json", *database, data_dir=data_dir, log=logs / f"w{n}.json",
        )
        for n in range(WORKERS)
    ]  # fmt: skip
    for n, worker in enumerate(workers):
        try:
            code = worker.wait(timeout=3600)
        except subprocess.TimeoutExpired:
            worker.kill()
            raise
        errors = (logs / f"w{n}.err").read_text(encoding="utf-8")
        assert code == 0, f"worker w{n} exited {code}: {errors[-2000:]}"


def check_exactly_once(workspace: Workspace, items: int) -> None:
    """Every item done once, under leases that never overlapped, as the ledger shows."""
    queue = workspace.work_queue
    assert [item.status for item in queue.list() if item.status != "done"] == []
    entries = _ledger(workspace)
    assert len(entries) == items, f"{len(entries)} ledger entries for {items} items"
    for number in range(items):
        item = queue.read(f"item-{number:05d}")
        worker, token = one_lease_at_a_time(item)
        assert entries[item.id] == [(worker, token)], (item.id, entries[item.id])


def _ledger(workspace: Workspace) -> dict[str, list[tuple[str, int]]]:
    """Item id → (worker, token) of every version of its ledger entry."""
    repository = workspace.knowledge.repository
    found: dict[str, list[tuple[str, int]]] = {}
    for version in repository.versions(subject="ledger"):
        if version.front.kind != "ledger-entry":
            continue
        match = _ENTRY.search(repository.body(version.ref))
        assert match is not None, version.ref
        item = version.front.id.removeprefix("entry-")
        found.setdefault(item, []).append((match.group(1), int(match.group(2))))
    return found


def one_lease_at_a_time(item: WorkItem) -> tuple[str, int]:
    """The (worker, token) that acked; asserts tokens strictly increase and every lease
    ended (ack, release or reclaim of an expired one) before the next began."""
    holder: tuple[str, int] | None = None
    last_token = 0
    open_lease = False
    for line in item.work_log:
        text = line.split(" ", 1)[1]
        leased = _LEASED.search(text)
        if leased is not None:
            assert not open_lease or text.startswith("reclaimed:"), (item.id, item.work_log)
            token = int(leased.group(2))
            assert token > last_token, (item.id, item.work_log)
            holder, last_token, open_lease = (leased.group(1), token), token, True
        elif text.startswith(_ENDS):
            open_lease = False
    assert holder is not None and not open_lease, (item.id, item.work_log)
    acks = [line for line in item.work_log if " ack advance by " in line]
    assert len(acks) == 1 and f"ack advance by {holder[0]} " in acks[0], (item.id, acks)
    return holder


def work_and_check(
    workspace: Workspace, data_dir: Path, scratch: Path, backend: str, db: str | None = None
) -> None:
    """Queue ``ITEMS`` ledger items, let ``WORKERS`` processes do them, check each was done
    exactly once, and print how long each phase took."""
    timings = Timings()
    started = time.monotonic()
    folder = enqueue_ledger_items(workspace, scratch / "ledger", ITEMS)
    timings.enqueue, started = time.monotonic() - started, time.monotonic()
    run_workers(folder, data_dir, scratch, db=db)
    timings.work, started = time.monotonic() - started, time.monotonic()
    check_exactly_once(workspace, ITEMS)
    timings.check = time.monotonic() - started
    print(timings.describe(backend, ITEMS))
