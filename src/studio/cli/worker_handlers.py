"""What ``studio worker`` does: wires the workspace's queue, engine and knowledge store into a
``studio.fabric.worker.Worker`` and runs it until it is out of work or stopped.

Exit codes: 0 when the worker stopped (out of work, idle, or SIGINT/SIGTERM: the leases it
held are released), 2 when it could not start (a definition that does not read, a type the
manifest does not offer, a workflow that does not publish).
"""

import argparse
import asyncio
import json
import os
import signal
import socket
import sys
from collections.abc import Callable
from contextvars import ContextVar
from datetime import timedelta
from pathlib import Path
from typing import Any

from studio.cli.shared import EXIT_OK, fail
from studio.engine.logs import configure_logging
from studio.fabric.queue import Scope
from studio.fabric.worker import Worker, WorkerSettings, WorkerSummary
from studio.fabric.worker_build import BuildOutcome, Finished, ItemBuild
from studio.fabric.worker_definition import Capability, load_capability
from studio.model.capability_definitions import CapabilityDefinitionError
from studio.model.errors import StudioError
from studio.model.execution import COMPLETED
from studio.store.schema import utc_now
from studio.workspace import PublishRefusedError, Workspace, WorkspaceWorld

_LANDED: ContextVar[list[str] | None] = ContextVar("landed_by_this_build", default=None)
"""The refs landed by the run the current task drives: a run's nodes execute in tasks it
starts, which carry the context of the build that started the run."""


class EngineBuild:
    """Runs the capability's published workflow on the workspace's embedded engine and
    collects the refs its artifact nodes land, as ``watch_landings`` reports them."""

    def __init__(self, workspace: Workspace, workflow_id: str) -> None:
        self.workspace, self.workflow_id = workspace, workflow_id
        self.runner = workspace.runner()
        workspace.watch_landings(_landing)

    async def __call__(self, run_input: dict[str, Any]) -> BuildOutcome:
        landed: list[str] = []
        _LANDED.set(landed)  # this task's own context: other builds keep theirs
        execution_id = self.runner.start(self.workflow_id, run_input).execution_id
        try:
            record = await self.runner.run(execution_id)
        except asyncio.CancelledError:
            self.runner.cancel(execution_id)
            raise
        error = None if record.error is None else str(record.error.get("message", record.error))
        outputs = {node: result.output for node, result in record.node_results.items()}
        completed = record.status == COMPLETED
        return BuildOutcome(execution_id, completed, record.output, error, tuple(landed), outputs)


def _landing(ref: str) -> None:
    landed = _LANDED.get()
    if landed is not None:
        landed.append(ref)


def run_worker(args: argparse.Namespace) -> int:
    """``studio worker``."""
    folder = Path(args.definition) if args.definition else None
    workspace = _workspace(args, folder)
    configure_logging(workspace.log_file)
    try:
        capability = load_capability(folder or _default_folder(workspace, args.capability))
        worker = _worker(workspace, capability, args)
    except (CapabilityDefinitionError, PublishRefusedError, StudioError, ValueError) as failure:
        return fail(str(failure))
    summary = asyncio.run(_until_stopped(worker))
    _report(summary, args.json)
    return EXIT_OK


def _workspace(args: argparse.Namespace, folder: Path | None) -> Workspace:
    agents = [Path(path) for path in args.agents]
    if folder is not None and (folder / "agents").is_dir():
        agents.append(folder / "agents")
    workspace = Workspace(agent_dirs=agents, database=args.db)
    for problem in workspace.agents.problems:
        print(f"studio: warning: skipped agent file {problem}", file=sys.stderr)
    return workspace


def _default_folder(workspace: Workspace, name: str) -> Path:
    return workspace.data_dir / "capabilities" / name


def _worker(workspace: Workspace, capability: Capability, args: argparse.Namespace) -> Worker:
    if args.concurrency < 1 or args.lease_ttl <= 0:
        raise ValueError("--concurrency must be at least 1 and --lease-ttl more than 0 seconds")
    if capability.name != args.capability:
        raise ValueError(
            f"the definition is of capability '{capability.name}', not '{args.capability}'"
        )
    queue = workspace.open_work_queue(
        workspace.database, lease_ttl=timedelta(seconds=args.lease_ttl)
    )
    if queue.stale(capability.name, capability.manifest_text) is not False:
        queue.publish_manifest(capability.manifest_text, str(capability.definition.manifest))
    scope = Scope(capability.name, _types(capability, args.types))
    workflow = workspace.import_and_publish(capability.workflow_path)
    assert workflow.id is not None
    sources = WorkspaceWorld(workspace.knowledge.repository, workspace.data_dir).sources
    building = ItemBuild(queue, capability, EngineBuild(workspace, workflow.id), sources, utc_now)
    settings = WorkerSettings(
        name=args.name or f"{socket.gethostname()}-{os.getpid()}",
        scope=scope,
        concurrency=args.concurrency,
        once=args.once,
        idle_exit=args.idle_exit,
    )
    return Worker(queue, building, settings, _announcer(args.json))


def _types(capability: Capability, types: str | None) -> frozenset[str]:
    named = frozenset(kind.strip() for kind in (types or "").split(",") if kind.strip())
    offered = {offer.name for offer in capability.manifest.types}
    strangers = sorted(named - offered)
    if strangers:
        raise ValueError(
            f"'{capability.name}' does not offer {', '.join(strangers)} "
            f"(its manifest offers {', '.join(sorted(offered))})"
        )
    return named


async def _until_stopped(worker: Worker) -> WorkerSummary:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    summary = await worker.run(stop)
    if stop.is_set():
        summary.stopped_by = "signal"
    return summary


def _announcer(quiet: bool) -> Callable[[Finished], None] | None:
    if quiet:
        return None

    def announce(finished: Finished) -> None:
        reason = f": {finished.reason}" if finished.reason else ""
        print(f"{finished.item}: {finished.exit} → {finished.status}{reason}", flush=True)

    return announce


def _report(summary: WorkerSummary, as_json: bool) -> None:
    if as_json:
        print(json.dumps(summary.to_data(), indent=2))
        return
    exits = ", ".join(f"{exit} {count}" for exit, count in summary.to_data()["exits"].items())
    print(
        f"{summary.worker}: {len(summary.finished)} items ({exits or 'none'}); "
        f"{summary.stopped_by}",
        file=sys.stderr,
    )
