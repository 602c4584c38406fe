"""What ``studio apps list|create|show|rename|archive|delete|bind|unbind`` do."""

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from studio.cli.ids import check_prefix_length, resolve_workflow, the_one_match
from studio.cli.shared import EXIT_OK, workspace_for
from studio.model.apps import App

if TYPE_CHECKING:
    from studio.workspace import Workspace


def resolve_app(workspace: "Workspace", text: str) -> str:
    """The app id ``text`` stands for: the whole id or a unique prefix of 6 or more."""
    known = workspace.apps.find(include_archived=True)
    if any(app.id == text for app in known):
        return text
    check_prefix_length(text, "an app id")
    matches = [(app.id, f"{app.status:<8}  {app.name}") for app in known if app.id.startswith(text)]
    return the_one_match(text, "app", matches)


def apps_list(args: argparse.Namespace) -> int:
    """``studio apps list``: one line per app, by name (archived ones with ``--all``)."""
    found = workspace_for(args).apps.find(include_archived=args.all)
    if args.json:
        return _print_json([app.to_data() for app in found])
    if not found:
        print("no apps yet", file=sys.stderr)
    for app in found:
        version, count = f"v{app.version}", len(app.workflow_ids)
        print(f"{app.id}  {app.status:<8}  {version:<4}  {count} workflow(s)  {app.name}")
    return EXIT_OK


def apps_create(args: argparse.Namespace) -> int:
    """``studio apps create NAME``: a new app, its id printed."""
    app = workspace_for(args).apps.create(args.name, args.description)
    return _report(args, app, f"created app {app.name} ({app.id})")


def apps_show(args: argparse.Namespace) -> int:
    """``studio apps show ID``: the app and the workflows bound to it, oldest first."""
    workspace = workspace_for(args)
    app = workspace.apps.get(resolve_app(workspace, args.app_id))
    bound = [workspace.workflows.get(workflow_id) for workflow_id in app.workflow_ids]
    if args.json:
        listed = [{"id": w.id, "name": w.name, "status": w.status} for w in bound]
        return _print_json(app.to_data() | {"workflows": listed})
    print(f"{app.name} ({app.id}): {app.status}, version {app.version}")
    if app.description:
        print(f"  {app.description.strip()}")
    print(f"workflows ({len(bound)}):")
    for workflow in bound:
        print(f"  {workflow.id}  {workflow.status:<9}  {workflow.name}")
    return EXIT_OK


def apps_rename(args: argparse.Namespace) -> int:
    """``studio apps rename ID NAME [--description D]``."""
    workspace = workspace_for(args)
    app = workspace.apps.get(resolve_app(workspace, args.app_id))
    renamed = workspace.apps.rename(app.id, args.name, app.version, args.description)
    return _report(args, renamed, f"renamed app {app.name} to {renamed.name} ({app.id})")


def apps_archive(args: argparse.Namespace) -> int:
    """``studio apps archive ID``: out of the usual lists; its workflows stay bound."""
    workspace = workspace_for(args)
    app = workspace.apps.get(resolve_app(workspace, args.app_id))
    archived = workspace.apps.archive(app.id, app.version)
    return _report(args, archived, f"archived app {app.name} ({app.id})")


def apps_delete(args: argparse.Namespace) -> int:
    """``studio apps delete ID``: the app goes; its workflows stay, unbound."""
    workspace = workspace_for(args)
    app = workspace.apps.get(resolve_app(workspace, args.app_id))
    workspace.apps.delete(app.id, app.version)
    if args.json:
        return _print_json({"deleted": app.id, "unbound": app.workflow_ids})
    kept = len(app.workflow_ids)
    print(f"deleted app {app.name} ({app.id}); its {kept} workflow(s) are kept, unbound")
    return EXIT_OK


def apps_bind(args: argparse.Namespace) -> int:
    """``studio apps bind APP WORKFLOW``; binding again to the same app changes nothing."""
    workspace = workspace_for(args)
    app = workspace.apps.get(resolve_app(workspace, args.app_id))
    workflow_id = resolve_workflow(workspace, args.workflow_id)
    bound = workspace.apps.bind(app.id, workflow_id, app.version)
    return _report(args, bound, f"bound workflow {workflow_id} to app {app.name} ({app.id})")


def apps_unbind(args: argparse.Namespace) -> int:
    """``studio apps unbind APP WORKFLOW``; one not bound to the app changes nothing."""
    workspace = workspace_for(args)
    app = workspace.apps.get(resolve_app(workspace, args.app_id))
    workflow_id = resolve_workflow(workspace, args.workflow_id)
    unbound = workspace.apps.unbind(app.id, workflow_id, app.version)
    return _report(args, unbound, f"unbound workflow {workflow_id} from app {app.name}")


def _report(args: argparse.Namespace, app: App, sentence: str) -> int:
    """The app as JSON with ``--json``, else one sentence."""
    if args.json:
        return _print_json(app.to_data())
    print(sentence)
    return EXIT_OK


def _print_json(document: Any) -> int:
    print(json.dumps(document, indent=2))
    return EXIT_OK
