"""What ``studio workflows list|show|export|delete`` do."""

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from studio.cli.ids import resolve_workflow
from studio.cli.shared import EXIT_INVALID, EXIT_OK, fail, workspace_for
from studio.model import Workflow
from studio.model.workflow_files import export_text, format_of, write_workflow


def workflows_list(args: argparse.Namespace) -> int:
    """``studio workflows list``: one line per stored workflow, most recently changed first."""
    stored = workspace_for(args).workflows.find()
    if args.json:
        print(json.dumps([_summary(workflow) for workflow in stored], indent=2))
        return EXIT_OK
    if not stored:
        print("no workflows stored yet", file=sys.stderr)
    for workflow in stored:
        blueprint = "  (blueprint)" if workflow.is_blueprint else ""
        version = f"v{workflow.version}"
        print(f"{workflow.id}  {workflow.status:<9}  {version:<4}  {workflow.name}{blueprint}")
    return EXIT_OK


def workflows_show(args: argparse.Namespace) -> int:
    """``studio workflows show ID``: the workflow, its nodes and its edges."""
    workspace = workspace_for(args)
    workflow = workspace.workflows.get(resolve_workflow(workspace, args.workflow_id))
    if args.json:
        print(json.dumps(workflow.to_data(), indent=2))
        return EXIT_OK
    print(f"{workflow.name} ({workflow.id}): {workflow.status}, version {workflow.version}")
    print_graph(workflow)
    return EXIT_OK


def print_graph(workflow: Workflow) -> None:
    """A workflow's description, then its nodes and edges, a line each."""
    if workflow.description:
        print(f"  {workflow.description.strip()}")
    print(f"nodes ({len(workflow.nodes)}):")
    for node in workflow.nodes:
        print(f"  {node.id}  {node.agent_id}  {node.name}".rstrip())
    print(f"edges ({len(workflow.edges)}):")
    for edge in workflow.edges:
        condition = (
            f"  when {edge.condition.field} {edge.condition.operator}" if edge.condition else ""
        )
        print(f"  {edge.source} -> {edge.target}{condition}")


def workflows_export(args: argparse.Namespace) -> int:
    """``studio workflows export ID [FILE]``: the portable file, written to FILE (its format
    chosen by its extension) or to stdout."""
    workspace = workspace_for(args)
    if args.file is not None:
        format_of(args.file)  # an unknown extension is refused before anything is read
    workflow = workspace.workflows.get(resolve_workflow(workspace, args.workflow_id))
    if args.file is None:
        sys.stdout.write(export_text(workflow, args.format))
        return EXIT_OK
    try:
        write_workflow(workflow, Path(args.file))
    except OSError as failure:
        return fail(f"cannot write {args.file}: {failure.strerror or failure}")
    print(f"wrote {args.file}")
    return EXIT_OK


def workflows_delete(args: argparse.Namespace) -> int:
    """``studio workflows delete ID``: the workflow and its runs, without a question; a
    published one only with ``--force``."""
    workspace = workspace_for(args)
    workflows = workspace.workflows
    workflow = workflows.get(resolve_workflow(workspace, args.workflow_id))
    named = f"{workflow.name} ({workflow.id})"
    if workflow.status == "PUBLISHED":
        if not args.force:
            return fail(
                f"{named} is published; add --force to unpublish and delete it", EXIT_INVALID
            )
        workflow = workflows.unpublish(workflow.stored_id, workflow.version)
    runs = workspace.executions.count(workflow_id=workflow.id)
    workflows.delete(workflow.stored_id)
    print(f"deleted {named} and its {runs} run(s)")
    return EXIT_OK


def _summary(workflow: Workflow) -> dict[str, Any]:
    return {
        "id": workflow.id,
        "name": workflow.name,
        "status": workflow.status,
        "version": workflow.version,
        "isBlueprint": workflow.is_blueprint,
        "nodes": len(workflow.nodes),
        "edges": len(workflow.edges),
        "updatedAt": workflow.updated_at.isoformat() if workflow.updated_at else None,
    }
