"""What ``studio run``, ``resume``, ``cancel`` and ``executions`` do: the engine from a terminal."""

import argparse
import asyncio
import gc
import json
import sys
from pathlib import Path
from typing import Any

from studio.cli.execution_text import listing_line, record_lines, took_seconds
from studio.cli.ids import resolve_execution, resolve_workflow, resolving
from studio.cli.progress import ProgressPrinter
from studio.cli.shared import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_WAITING,
    fail,
    workspace_for,
)
from studio.cli.validation_handlers import report_unreadable
from studio.engine.logs import configure_logging
from studio.engine.runner import AlreadyDecidedError, ExecutionBusyError, StepRunner
from studio.model import DefinitionError, WorkflowFileError
from studio.model.errors import StudioError
from studio.model.execution import COMPLETED, WAITING, ExecutionRecord
from studio.model.input_limits import InputLimitError, load_json_within_limits
from studio.store.errors import StorageFaultError
from studio.workspace import PublishRefusedError, Workspace


def run_run(args: argparse.Namespace) -> int:
    """``studio run``: exit 0 completed, 1 failed or cancelled, 2 could not start."""
    workspace = _workspace(args)
    try:
        execution_input = parse_input(args.input)
        workflow = _workflow_to_run(workspace, args.target)
        record = workspace.runner().start(workflow.id, execution_input)
    except WorkflowFileError as failure:
        return report_unreadable(args, failure)
    except (DefinitionError, PublishRefusedError) as refused:
        for problem in refused.problems:
            print(f"{args.target}: {problem.describe()}", file=sys.stderr)
        return fail(f"{args.target} cannot run: it does not pass publish validation")
    except (StudioError, ValueError) as failure:
        return fail(str(failure))
    return _drive(workspace, args, record)


def run_resume(args: argparse.Namespace) -> int:
    """``studio resume``: continue from the store alone; completed nodes are not run again."""
    workspace = _workspace(args)
    try:
        record = workspace.executions.get(resolve_execution(workspace, args.execution_id))
    except StudioError as failure:
        return fail(str(failure))
    return _drive(workspace, args, record)


def run_cancel(args: argparse.Namespace) -> int:
    """``studio cancel``: a finished execution is reported unchanged."""
    workspace = workspace_for(args)
    try:
        record = workspace.runner().cancel(resolve_execution(workspace, args.execution_id))
    except StudioError as failure:
        return fail(str(failure))
    _print_record(record, args.json)
    return EXIT_OK


def run_executions_list(args: argparse.Namespace) -> int:
    """``studio executions list``."""
    workspace = workspace_for(args)
    workflow_id = resolving(resolve_workflow, workspace, args.workflow)
    records = workspace.executions.find(workflow_id=workflow_id, status=args.status)
    if args.json:
        print(json.dumps([_summary(record) for record in records], indent=2))
        return EXIT_OK
    for record in records:
        print(listing_line(record, _summary(record)["startedAt"]))
    return EXIT_OK


def run_executions_show(args: argparse.Namespace) -> int:
    """``studio executions show ID``."""
    workspace = workspace_for(args)
    try:
        record = workspace.executions.get(resolve_execution(workspace, args.execution_id))
    except StudioError as failure:
        return fail(str(failure))
    events = workspace.executions.events(record.execution_id) if args.events else None
    if args.json:
        document = record.to_data()
        if events is not None:
            document["events"] = [event.to_data() for event in events]
        print(json.dumps(document, indent=2))
        return EXIT_OK
    _print_record(record, False)
    for event in events or []:
        node = event.node_id or ""
        print(f"  #{event.seq:<4} {event.type:<20} {node:<24} {json.dumps(event.payload)}")
    return EXIT_OK


def parse_input(text: str | None) -> Any:
    """``--input``: JSON text, or ``@path`` to a JSON file; nothing means null. Like a
    workflow file, it must keep within the input limits and hold only finite numbers."""
    if text is None:
        return None
    source = "--input"
    if text.startswith("@"):
        source = text[1:]
        try:
            text = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as failure:
            raise ValueError(f"cannot read the input file {source}: {failure}") from failure
    try:
        return load_json_within_limits(text)
    except json.JSONDecodeError as failure:
        raise ValueError(
            f"{source} is not valid JSON: {failure.msg} at line {failure.lineno}, "
            f"column {failure.colno}"
        ) from failure
    except InputLimitError as failure:
        raise ValueError(f"{source}: {failure}") from failure


def _workspace(args: argparse.Namespace) -> Workspace:
    # What is loaded by now lives as long as the command: leaving it out of the collector's
    # passes spares a run its full collections and the exit its sweep (about 0.2 s).
    gc.freeze()
    workspace = workspace_for(args)
    configure_logging(workspace.log_file, json_to_stderr=args.log_json)
    return workspace


def _workflow_to_run(workspace: Workspace, target: str):
    path = Path(target)
    if path.suffix.lower() in (".yaml", ".yml", ".json") or path.is_file():
        return workspace.import_and_publish(path)
    return workspace.workflows.get(resolve_workflow(workspace, target))


def _drive(workspace: Workspace, args: argparse.Namespace, record: ExecutionRecord) -> int:
    """Run ``record``'s execution to its end, with progress on stderr unless ``--quiet``."""
    runner, execution_id = workspace.runner(), record.execution_id
    progress = None if args.quiet else _progress_of(record)
    if progress is not None:
        workspace.bus.subscribe(progress)
    try:
        record = asyncio.run(_run_until_done(runner, execution_id))
    except KeyboardInterrupt:
        record = runner.cancel(execution_id)
        print("studio: interrupted; the execution was cancelled", file=sys.stderr)
    except ExecutionBusyError as busy:
        return fail(str(busy))
    except StorageFaultError as fault:
        return fail(
            f"{fault}. Execution {execution_id} is left resumable: once that is fixed, "
            f"`studio resume {execution_id}` finishes it"
        )
    finally:
        if progress is not None:
            progress.close()  # the line it held back comes before the record and any error
    _print_record(record, args.json)
    if record.status == WAITING:
        _print_waiting(workspace, record)
        return EXIT_WAITING
    return EXIT_OK if record.status == COMPLETED else EXIT_INVALID


def _progress_of(record: ExecutionRecord) -> ProgressPrinter:
    """Progress lines for a run, counting the nodes it has already finished."""
    finished = sum(
        result.status in ("completed", "skipped", "failed", "cancelled")
        for result in record.node_results.values()
    )
    return ProgressPrinter(len(record.node_results), finished=finished)


def _print_waiting(workspace: Workspace, record: ExecutionRecord) -> None:
    for task in workspace.human_tasks.for_execution(record.execution_id):
        if not task.is_decided:
            print(
                f"studio: waiting for approval: {task.title}\n"
                f"  studio approve {record.execution_id} {task.node_id} [--reject] "
                "[--comment TEXT]",
                file=sys.stderr,
            )


def run_approve(args: argparse.Namespace) -> int:
    """``studio approve``: record a decision (who, when, comment) and resume a waiting run."""
    workspace = _workspace(args)
    runner = workspace.runner()
    execution_id = resolve_execution(workspace, args.execution_id)
    try:
        task = runner.decide(
            execution_id,
            args.node_id,
            approved=not args.reject,
            by=args.by,
            comment=args.comment,
        )
        record = workspace.executions.get(execution_id)
    except AlreadyDecidedError as refused:
        return fail(str(refused), EXIT_INVALID)
    except StudioError as failure:
        return fail(str(failure))
    print(f"{task.node_id}: {task.status} by {task.decided_by}", file=sys.stderr)
    if record.status != WAITING:
        return EXIT_OK  # decided before the run reached the node, or recorded for the record
    return _drive(workspace, args, record)


def run_approvals(args: argparse.Namespace) -> int:
    """``studio approvals``: every decision people still have to make."""
    workspace = workspace_for(args)
    tasks = workspace.human_tasks.waiting()
    if args.json:
        print(json.dumps([task.to_data() for task in tasks], indent=2))
        return EXIT_OK
    for task in tasks:
        since = f"{task.created_at:%Y-%m-%d %H:%M}"
        print(f"{task.execution_id}  {task.node_id:<24} since {since}  {task.title}")
    return EXIT_OK


async def _run_until_done(runner: StepRunner, execution_id: str) -> ExecutionRecord:
    return await runner.run(execution_id)


def _print_record(record: ExecutionRecord, as_json: bool) -> None:
    if as_json:
        print(json.dumps(record.to_data(), indent=2))
        return
    print("\n".join(record_lines(record)))
    if record.status == COMPLETED:
        print(f"  output: {json.dumps(record.output)}")


def _summary(record: ExecutionRecord) -> dict[str, Any]:
    data = record.to_data()
    duration = took_seconds(record)
    return {
        key: data[key]
        for key in (
            "executionId",
            "workflowId",
            "workflowVersion",
            "status",
            "startedAt",
            "completedAt",
        )
    } | {"durationSeconds": duration}
