"""Real ``studio worker`` processes over one SQLite file: the end-to-end design order, a worker
killed mid-build whose lease another reclaims, and Ctrl+C releasing the lease it holds."""

import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from studio.fabric.queue_errors import StaleLeaseError
from studio.model.work_items import WorkItem
from studio.workspace import Workspace
from tests.fabric.workers.capabilities import (
    CORPUS,
    MANIFEST,
    ORDER,
    design_capability,
    start_worker,
    studio,
)

ITEM = "order-checkout-design"


@pytest.fixture
def ordered(studio_data_dir: Path) -> Iterator[Workspace]:
    """The corpus landed with ``studio kg ingest``, the manifest published, the order queued."""
    landed = studio("kg", "ingest", str(CORPUS), "--quiet", data_dir=studio_data_dir)
    assert landed.returncode == 0, landed.stderr
    workspace = Workspace()
    workspace.work_queue.publish_manifest(MANIFEST.read_text(encoding="utf-8"))
    workspace.work_queue.enqueue(ORDER.read_text(encoding="utf-8"), by="intake-desk")
    yield workspace
    workspace.close()


def read(workspace: Workspace) -> WorkItem:
    return workspace.work_queue.read(ITEM)


def wait_until(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}")
        time.sleep(0.1)


def test_a_worker_builds_the_design_order_end_to_end(
    ordered: Workspace, studio_data_dir: Path, tmp_path: Path
) -> None:
    folder = design_capability(tmp_path / "design")

    worked = studio(
        "worker",
        "--capability",
        "design-studio",
        "--definition",
        str(folder),
        "--once",
        "--json",
        data_dir=studio_data_dir,
    )

    assert worked.returncode == 0, worked.stderr
    summary = json.loads(worked.stdout)
    assert summary["exits"] == {"advance": 1} and summary["stoppedBy"] == "out of work"
    done = read(ordered)
    design = "checkout-redesign/design/2026-09-12-design-order-checkout-design.md"
    assert done.status == "done" and done.artifacts == (design,)
    assert [block.split(":")[0] for block in done.snapshot] == ["### reqs", "### stories"]
    shown = studio("kg", "show", "--around", ITEM, "--depth", "2", data_dir=studio_data_dir)
    assert shown.returncode == 0, shown.stderr
    run = f"run:{summary['items'][0]['executions'][0]}"
    assert f"checkout-redesign/{ITEM} -ORDERED-> checkout-redesign/{run}" in shown.stdout
    produced = f"checkout-redesign/{run} -PRODUCES-> checkout-redesign/design-{ITEM}"
    assert produced in shown.stdout

    first = studio("work", "sweep", "--json", data_dir=studio_data_dir)
    assert first.returncode == 0, first.stderr
    delivered = studio_data_dir / "deliveries" / "intake-desk" / f"{ITEM}.md"
    assert delivered.is_file() and "status: done" in delivered.read_text(encoding="utf-8")
    [delivery] = json.loads(first.stdout)["deliveries"]
    assert delivery["id"] == ITEM and delivery["delivered"] and delivery["signed"]
    again = studio("work", "sweep", "--json", data_dir=studio_data_dir)
    assert again.returncode == 0 and json.loads(again.stdout)["deliveries"] == []


def test_a_killed_workers_lease_expires_is_reclaimed_and_its_late_ack_refused(
    ordered: Workspace, studio_data_dir: Path, tmp_path: Path
) -> None:
    slow = design_capability(tmp_path / "slow", sleep=60)
    quick = design_capability(tmp_path / "quick")
    ttl = ["--lease-ttl", "1.5"]
    killed = start_worker(
        "--capability",
        "design-studio",
        "--definition",
        str(slow),
        "--name",
        "killed",
        *ttl,
        "--once",
        data_dir=studio_data_dir,
        log=tmp_path / "killed.log",
        new_session=True,
    )
    try:
        wait_until(lambda: read(ordered).status == "in-build", 60, "the first build to start")
        lease = read(ordered).lease
        assert lease is not None and lease.worker == "killed"
        time.sleep(2)  # heartbeats keep the lease past its time to live while it builds
        renewed = read(ordered).lease
        assert renewed is not None and renewed.token == lease.token
        assert renewed.expires_at > lease.expires_at
    finally:
        os.killpg(killed.pid, signal.SIGKILL)  # the worker and the run's shell child with it
        killed.wait(10)

    reclaimer = studio(
        "worker",
        "--capability",
        "design-studio",
        "--definition",
        str(quick),
        "--name",
        "reclaimer",
        *ttl,
        "--idle-exit",
        "10",
        "--json",
        data_dir=studio_data_dir,
    )

    assert reclaimer.returncode == 0, reclaimer.stderr
    done = read(ordered)
    assert done.status == "done", "\n".join(done.work_log)
    reclaims = [line for line in done.work_log if "reclaimed" in line]
    assert len(reclaims) == 1
    assert (
        f"the lease of killed had expired; leased to reclaimer (token {lease.token + 1})"
        in (reclaims[0])
    )
    with pytest.raises(StaleLeaseError):
        ordered.work_queue.ack(ITEM, "advance", lease.token, "late")
    assert read(ordered).status == "done"


def test_ctrl_c_releases_the_lease_and_exits_cleanly(
    ordered: Workspace, studio_data_dir: Path, tmp_path: Path
) -> None:
    slow = design_capability(tmp_path / "slow", sleep=60)
    worker = start_worker(
        "--capability",
        "design-studio",
        "--definition",
        str(slow),
        "--name",
        "w-int",
        "--json",
        data_dir=studio_data_dir,
        log=tmp_path / "stopping.log",
    )
    try:
        wait_until(lambda: read(ordered).status == "in-build", 60, "the build to start")
        time.sleep(0.5)
        worker.send_signal(signal.SIGINT)
        assert worker.wait(20) == 0
    finally:
        if worker.poll() is None:
            worker.kill()

    released = read(ordered)
    assert released.status == "queued" and released.lease is None
    assert released.work_log[-1].endswith("released: w-int stopping")
    summary = json.loads((tmp_path / "stopping.log").read_text(encoding="utf-8"))
    assert summary["exits"] == {"released": 1} and summary["stoppedBy"] == "signal"
    runs = ordered.executions.find()
    assert [run.status for run in runs] == ["cancelled"]
