"""What ``studio agents list|show|versions|diff|fork`` do."""

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from studio.cli.shared import EXIT_OK, workspace_for
from studio.model.agent_files import definition_text
from studio.model.agent_library import AgentVersion, version_diff

if TYPE_CHECKING:
    from studio.store import AgentLibraryRepository


def _library(args: argparse.Namespace) -> "AgentLibraryRepository":
    """The workspace's library, its built-ins and own files recorded first."""
    workspace = workspace_for(args)
    _ = workspace.agents  # records changed built-ins and the agents folder's files
    return workspace.agent_library


def agents_list(args: argparse.Namespace) -> int:
    """``studio agents list``: the definition in use for every id; a default one says which
    SYSTEM version it shadows."""
    library = _library(args).library()
    rows = [(entry, library.shadowed(entry.agent_id)) for entry in library.entries()]
    if args.json:
        return _print_json([_listed(entry, shadowed) for entry, shadowed in rows])
    for entry, shadowed in rows:
        hides = f"  (shadows SYSTEM v{shadowed.version})" if shadowed else ""
        place = f"{entry.namespace} v{entry.version}"
        print(f"{entry.agent_id:<28} {place:<12} {entry.definition.name}{hides}")
    return EXIT_OK


def agents_show(args: argparse.Namespace) -> int:
    """``studio agents show ID [--version N]``: one version's definition as YAML."""
    entry = _library(args).get(args.agent_id, args.version, args.namespace)
    if args.json:
        return _print_json(entry.to_data())
    print(f"# {entry.agent_id}: {entry.namespace} version {entry.version}")
    print(definition_text(entry.definition), end="")
    return EXIT_OK


def agents_versions(args: argparse.Namespace) -> int:
    """``studio agents versions ID``: every version, oldest first."""
    entries = _library(args).versions(args.agent_id, args.namespace)
    if args.json:
        return _print_json([_summary(entry) for entry in entries])
    for entry in entries:
        when = entry.created_at.isoformat(timespec="seconds") if entry.created_at else "-"
        print(f"v{entry.version:<4} {entry.namespace:<8} {when}  {entry.definition.name}")
    return EXIT_OK


def agents_diff(args: argparse.Namespace) -> int:
    """``studio agents diff ID V1 V2``: a unified diff of two versions' definitions."""
    library = _library(args)
    old = library.get(args.agent_id, args.old, args.namespace)
    new = library.get(args.agent_id, args.new, old.namespace)
    lines = version_diff(old, new)
    if args.json:
        return _print_json(
            {
                "agentId": old.agent_id,
                "namespace": old.namespace,
                "from": old.version,
                "to": new.version,
                "same": not lines,
                "diff": lines,
            }
        )
    if not lines:
        print(f"versions {old.version} and {new.version} are the same", file=sys.stderr)
    for line in lines:
        print(line)
    return EXIT_OK


def agents_fork(args: argparse.Namespace) -> int:
    """``studio agents fork ID``: the SYSTEM definition copied into default as version 1."""
    entry = _library(args).fork(args.agent_id)
    if args.json:
        return _print_json(entry.to_data())
    print(f"forked {entry.agent_id} into {entry.namespace} as version {entry.version}")
    return EXIT_OK


def _listed(entry: AgentVersion, shadowed: AgentVersion | None) -> dict[str, Any]:
    shadows = (
        None if shadowed is None else {"namespace": shadowed.namespace, "version": shadowed.version}
    )
    return _summary(entry) | {"kind": entry.definition.kind, "shadows": shadows}


def _summary(entry: AgentVersion) -> dict[str, Any]:
    data = entry.to_data()
    return {key: data[key] for key in ("agentId", "namespace", "version", "createdAt")} | {
        "name": entry.definition.name
    }


def _print_json(data: Any) -> int:
    print(json.dumps(data, indent=2, ensure_ascii=False))
    return EXIT_OK
