"""A build that breaks on something other than its lease: the worker notes it on the work log,
leaves the lease to expire and goes on; the item is reclaimed and built a time to live later."""

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

from studio.cli.worker_handlers import EngineBuild
from studio.fabric.queue import Scope
from studio.fabric.worker import Worker, WorkerSettings
from studio.fabric.worker_build import Build, BuildOutcome, ItemBuild
from studio.fabric.worker_definition import load_capability
from studio.store.schema import utc_now
from studio.workspace import Workspace, WorkspaceWorld
from tests.fabric.workers.many import enqueue_ledger_items


async def refused_by_the_store(run_input: dict[str, Any]) -> BuildOutcome:
    raise RuntimeError("the store refused the landing")


def work(workspace: Workspace, folder: Path, build: Build, name: str) -> dict:
    queue = workspace.open_work_queue(workspace.database, lease_ttl=timedelta(seconds=1))
    sources = WorkspaceWorld(workspace.knowledge.repository, workspace.data_dir).sources
    building = ItemBuild(queue, load_capability(folder), build, sources, utc_now)
    worker = Worker(queue, building, WorkerSettings(name, Scope("ledger"), once=True))
    return asyncio.run(worker.run(asyncio.Event())).to_data()


def test_a_broken_build_leaves_its_lease_to_expire_and_the_item_is_reclaimed(
    tmp_path: Path,
) -> None:
    workspace = Workspace(agent_dirs=[tmp_path / "ledger" / "agents"])
    folder = enqueue_ledger_items(workspace, tmp_path / "ledger", 2)

    broken = work(workspace, folder, refused_by_the_store, "w1")

    assert broken["exits"] == {"error": 2}  # it went on to the second item
    held = workspace.work_queue.read("item-00000")
    assert held.status == "in-build" and held.lease is not None and held.lease.worker == "w1"
    assert held.work_log[-1].endswith(
        "build by w1 failed; the lease is left to expire: RuntimeError: the store refused the "
        "landing"
    )

    asyncio.run(asyncio.sleep(1.1))
    workflow = workspace.import_and_publish(folder / "workflow.yaml")
    assert workflow.id is not None
    rebuilt = work(workspace, folder, EngineBuild(workspace, workflow.id), "w2")

    assert rebuilt["exits"] == {"advance": 2}
    done = workspace.work_queue.read("item-00000")
    assert done.status == "done"
    assert any(
        "the lease of w1 had expired; leased to w2 (token 2)" in line for line in done.work_log
    )
    workspace.close()
