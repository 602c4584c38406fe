"""What ``studio blueprints list|show|import|save`` do."""

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.cli.agent_names import did_you_mean
from studio.cli.apps_handlers import resolve_app
from studio.cli.ids import MIN_PREFIX, the_one_match
from studio.cli.shared import EXIT_INVALID, EXIT_OK, ArgumentProblem, fail, workspace_for
from studio.cli.validation_handlers import print_problems
from studio.cli.workflow_handlers import print_graph
from studio.model import Blueprint, has_errors, load_workflow
from studio.model.blueprint_import import (
    UnmappedPlaceholdersError,
    placeholder_slots,
    suggested_agents,
)
from studio.model.layout import laid_out_if_needed

if TYPE_CHECKING:
    from studio.workspace import Workspace

SUGGESTED = 3
"""At most this many agents are suggested for a placeholder slot."""


def catalog(workspace: "Workspace") -> list[Blueprint]:
    """Every blueprint by name: the seed files, then those saved to the catalog (named by
    their workflow id, with no file)."""
    for failure in workspace.blueprint_failures:
        print(f"studio: warning: skipped blueprint {failure}", file=sys.stderr)
    saved = workspace.workflows.find(status="PUBLISHED", blueprints=True)
    stored = [Blueprint(workflow.stored_id, Path(), workflow) for workflow in saved]
    return sorted([*workspace.blueprints, *stored], key=lambda b: b.workflow.name.lower())


def find_blueprint(workspace: "Workspace", text: str) -> Blueprint:
    """The blueprint ``text`` names: a slug, a saved one's id (or 6+ of its first characters)
    or a name (any case)."""
    entries = catalog(workspace)
    exact = [b for b in entries if text in (b.slug, b.workflow.id)]
    exact = exact or [b for b in entries if b.workflow.name.lower() == text.lower()]
    if not exact and len(text) >= MIN_PREFIX:
        exact = [b for b in entries if b.workflow.id and b.workflow.id.startswith(text)]
    found = the_one_match(text, "blueprint", [(b.slug, b.workflow.name) for b in exact])
    return next(b for b in exact if b.slug == found)


def blueprints_list(args: argparse.Namespace) -> int:
    """``studio blueprints list``: the catalog, by name."""
    summaries = [_summary(blueprint) for blueprint in catalog(workspace_for(args))]
    if args.json:
        return _print_json(summaries)
    width = max((len(summary["name"]) for summary in summaries), default=0)
    for summary in summaries:
        name, category = summary["name"], summary["category"]
        print(f"{name:<{width}}  {category:<10}  {summary['nodes']} nodes  ({summary['slug']})")
    return EXIT_OK


def blueprints_show(args: argparse.Namespace) -> int:
    """``studio blueprints show NAME_OR_SLUG``: its nodes with their agents, its edges and
    the placeholder slots an import maps, each with the agents closest to it."""
    workspace = workspace_for(args)
    blueprint = find_blueprint(workspace, args.blueprint)
    workflow = blueprint.workflow
    slots = {
        slot: suggested_agents(slot, workspace.agents)[:SUGGESTED]
        for slot in placeholder_slots(workflow)
    }
    if args.json:
        detail = {"nodes": [n.to_data() for n in workflow.nodes], "placeholders": slots}
        return _print_json(_summary(blueprint) | detail)
    print(f"{workflow.name} ({blueprint.slug}): {workflow.category or 'no category'}")
    print_graph(workflow)
    print(f"placeholders ({len(slots)}):")
    for slot, closest in slots.items():
        print(f"  {slot}  (closest: {', '.join(closest) or 'no agents'})")
    return EXIT_OK


def blueprints_import(args: argparse.Namespace) -> int:
    """``studio blueprints import BLUEPRINT --app APP [--map SLOT=AGENT …]``: a new draft
    workflow in the app. Exit 1, listing them, when placeholders are left without ``--draft``
    or when a mapped agent is not in the registry."""
    workspace = workspace_for(args)
    blueprint = find_blueprint(workspace, args.blueprint)
    app_id = resolve_app(workspace, args.app)
    mapping = _mapping(args.map)
    unknown = [agent for agent in mapping.values() if agent not in workspace.agents]
    if unknown:
        known = [agent.id for agent in workspace.agents]
        lines = [
            f"agent '{agent}' is not in the agent registry{did_you_mean(agent, known)}"
            for agent in unknown
        ]
        return fail("\n".join(lines), EXIT_INVALID)
    try:
        copy = workspace.apps.import_blueprint(
            blueprint.workflow, app_id, mapping, args.name, keep_placeholders=args.draft
        )
    except UnmappedPlaceholdersError as left:
        return _unmapped(left.slots, workspace)
    if args.json:
        return _print_json(copy.to_data())
    print(f"imported {blueprint.workflow.name} as {copy.name} ({copy.id}), a draft in app {app_id}")
    return EXIT_OK


def blueprints_save(args: argparse.Namespace) -> int:
    """``studio blueprints save FILE [--category C]``: the file's workflow published into the
    catalog as a blueprint, or as the next version of the published blueprint of its name (an
    identical one already there is reused). Exit 1 with problems."""
    workspace = workspace_for(args)
    workflow = laid_out_if_needed(load_workflow(args.file))
    update: dict[str, Any] = {"is_blueprint": True}
    if args.category is not None:
        update["category"] = args.category
    saved, problems = workspace.workflows.save_blueprint(
        workflow.model_copy(update=update), workspace.agents
    )
    if has_errors(problems):
        if args.json:
            return _print_json(
                {"saved": False, "problems": [p.to_data() for p in problems]}, EXIT_INVALID
            )
        print_problems(args.file, problems, publish=True)
        return EXIT_INVALID
    if args.json:
        return _print_json(saved.to_data())
    print(
        f"saved {saved.name} to the catalog as {saved.id} v{saved.version} (published, read-only)"
    )
    return EXIT_OK


def _mapping(pairs: list[str]) -> dict[str, str]:
    """``SLOT=AGENT`` pairs as a mapping; anything else is an ArgumentProblem."""
    mapping: dict[str, str] = {}
    for pair in pairs:
        slot, equals, agent = pair.partition("=")
        if not (equals and slot.strip() and agent.strip()):
            raise ArgumentProblem(f"--map '{pair}' is not SLOT=AGENT")
        mapping[slot.strip()] = agent.strip()
    return mapping


def _unmapped(slots: list[str], workspace: "Workspace") -> int:
    """Exit 1 with each placeholder left on a line of its own, the closest agents beside it."""
    print(
        "studio: placeholders not mapped to an agent (map each with --map SLOT=AGENT, "
        "or keep them with --draft):",
        file=sys.stderr,
    )
    for slot in slots:
        closest = ", ".join(suggested_agents(slot, workspace.agents)[:SUGGESTED])
        print(f"{slot}  (closest: {closest or 'no agents'})", file=sys.stderr)
    return EXIT_INVALID


def _summary(blueprint: Blueprint) -> dict[str, Any]:
    """The catalog card; a saved blueprint has no file."""
    summary = blueprint.summary()
    if blueprint.path == Path():
        summary["file"] = None
    return summary | {"placeholders": placeholder_slots(blueprint.workflow)}


def _print_json(document: Any, code: int = EXIT_OK) -> int:
    print(json.dumps(document, indent=2))
    return code
