"""What the ``studio kg`` commands do.

A command that reads stored versions shows only what passes its check (the version hash and
the text's SHA-256). When it meets a damaged version it shows the rest, names each damaged one
on stderr ("studio: damaged: <ref>: …") and exits 1, so the damage cannot go unnoticed;
``kg verify`` checks every version, and every version's derived graph rows against its text
(the other commands read those rows as stored).
"""

import argparse
import json
import sys
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.cli.kg_ingest import ingest_each
from studio.cli.shared import EXIT_INVALID, EXIT_OK, ArgumentProblem, fail, workspace_for
from studio.knowledge.knowledge_base import KnowledgeBase, Verification
from studio.knowledge.landing import ArtifactRejectedError
from studio.knowledge.projection import Projection, ViewOptions, lineage, neighbourhood
from studio.model.errors import StudioError
from studio.model.knowledge import ArtifactVersion
from studio.model.text_files import UnreadableFileError, read_text_file
from studio.store.errors import StorageFaultError
from studio.store.knowledge import ArtifactIntegrityError, DamagedVersion


def kg_land(args: argparse.Namespace) -> int:
    """``studio kg land FILE``: lint and land one artifact; prints its ref, and says so on
    stderr when that exact text had landed already (nothing new is stored then)."""
    text = read_artifact(Path(args.file), "land")
    try:
        landed = _knowledge(args).land_text(text, source=args.file)
    except ArtifactRejectedError as rejected:
        return _rejected(rejected, args.json)
    except StorageFaultError:
        raise  # the store failed, not the artifact: one line from main, exit 2
    except StudioError as failure:
        return fail(str(failure), EXIT_INVALID)
    data = {"ref": landed.ref, "alreadyLanded": not landed.new, "head": landed.head}
    _print(args, data, landed.ref)
    if not landed.new:
        later = f"; the current head is {landed.head}" if landed.head != landed.ref else ""
        print(f"already landed as {landed.ref}{later}", file=sys.stderr)
    return EXIT_OK


def kg_ingest(args: argparse.Namespace) -> int:
    """``studio kg ingest DIR``: land a folder in date order, with a progress bar; each file
    that does not land is named with why (exit 1), the others land."""
    folder = Path(args.folder)
    if not folder.is_dir():
        return fail(f"{folder} is not a folder")
    show = None if (args.quiet or args.json) else _progress_bar
    try:
        outcome = ingest_each(_knowledge(args), folder, show)
    except StorageFaultError:
        _end_progress(show)
        raise  # the store failed, not a file: one line from main, exit 2
    except StudioError as failure:
        _end_progress(show)
        return fail(str(failure), EXIT_INVALID)
    _end_progress(show)
    for path, reason in outcome.failed:
        print(f"studio: {path}: {reason}", file=sys.stderr)
    failed = [{"file": str(path), "reason": reason} for path, reason in outcome.failed]
    text = f"landed {len(outcome.refs)} artifact(s) from {folder}"
    if failed:
        text += f"; {len(failed)} file(s) did not land"
    _print(args, {"landed": outcome.refs} | ({"failed": failed} if failed else {}), text)
    return EXIT_INVALID if failed else EXIT_OK


def kg_show(args: argparse.Namespace) -> int:
    """``studio kg show``: the projection as {nodes, edges}."""
    options = _view(args)
    damaged: list[DamagedVersion] = []
    try:
        graph = _knowledge(args).graph(options, _time(args.as_of), damaged)
        if args.around:
            around = node_named(graph, args.around)
            graph = (
                lineage(graph, around, args.lineage)
                if args.lineage
                else neighbourhood(graph, around, args.depth)
            )
    except KeyError:
        _report_damage(damaged)  # the node may be one of a damaged version's, left out
        return fail(f"no node '{args.around}' in this view (try --items, --units or --subject)")
    data = graph.to_data()
    if args.json:
        print(json.dumps(data, indent=2, default=str))
        return _report_damage(damaged)
    for node in data["nodes"]:
        hidden = node.get("hidden_neighbours") or 0
        more = f"  ({hidden} more neighbour{'s' if hidden != 1 else ''} hidden)" if hidden else ""
        print(f"{node['id']:<40} {node['type']:<14} {node['label']}{more}")
    for edge in data["edges"]:
        print(f"{edge['source']} -{edge['type']}-> {edge['target']}")
    return _report_damage(damaged)


def kg_search(args: argparse.Namespace) -> int:
    """``studio kg search QUERY``: current artifacts matching the words, best first."""
    damaged: list[DamagedVersion] = []
    moment = _time(args.as_of)
    hits = _knowledge(args).search(args.query, args.subject, args.kind, moment, damaged)
    if args.json:
        found = [_version_data(hit.version) | {"snippet": hit.snippet} for hit in hits]
        print(json.dumps(found, indent=2))
        return _report_damage(damaged)
    for hit in hits:
        snippet = " ".join(hit.snippet.split())
        print(f"{hit.version.ref}\n  {hit.version.front.title}: {snippet}")
    if not hits and not damaged:
        print("nothing matches", file=sys.stderr)
    return _report_damage(damaged)


def kg_lint(args: argparse.Namespace) -> int:
    """``studio kg lint FILE``: exit 1 with every problem, 0 when it would land."""
    text = read_artifact(Path(args.file), "lint")
    problems = _knowledge(args).lint(text)
    if args.json:
        print(json.dumps([problem.to_data() for problem in problems], indent=2))
    else:
        for problem in problems:
            print(f"{args.file}: {problem.describe()}")
        if not problems:
            print(f"{args.file}: would land", file=sys.stderr)
    return EXIT_INVALID if problems else EXIT_OK


def kg_history(args: argparse.Namespace) -> int:
    """``studio kg history SUBJECT ID``: every version, oldest first, the head marked."""
    damaged: list[DamagedVersion] = []
    versions = _knowledge(args).history(args.subject, args.artifact_id, damaged)
    if not versions and not damaged:
        return fail(f"no artifact '{args.artifact_id}' in subject '{args.subject}'", EXIT_INVALID)
    superseded = {version.front.supersedes for version in versions}
    if args.json:
        print(json.dumps([_version_data(v) for v in versions], indent=2))
        return _report_damage(damaged)
    for version in versions:
        state = "superseded" if version.ref in superseded else "current"
        print(f"{version.front.created_at:%Y-%m-%d %H:%M}  {state:<10}  {version.ref}")
    return _report_damage(damaged)


def kg_diff(args: argparse.Namespace) -> int:
    """``studio kg diff --from T1 --to T2``: nodes and edges added, removed, changed."""
    damaged: list[DamagedVersion] = []
    before, after = parse_moment(args.before), parse_moment(args.after)
    change = _knowledge(args).diff(before, after, _view(args), damaged)
    data = change.to_data()
    if args.json:
        print(json.dumps(data, indent=2, default=str))
        return _report_damage(damaged)
    for word, sign in (("added", "+"), ("removed", "-")):
        for node in data["nodes"][word]:
            print(f"{sign} {node['id']} ({node['type']}) {node['label']}")
        for edge in data["edges"][word]:
            print(f"{sign} {edge['source']} -{edge['type']}-> {edge['target']}")
    for node in data["nodes"]["changed"]:
        print(f"~ {node['id']}: {', '.join(node['fields'])}")
    if change.empty:
        print("no change", file=sys.stderr)
    return _report_damage(damaged)


def kg_coverage(args: argparse.Namespace) -> int:
    """``studio kg coverage``: coverage gaps and suspect links; exit 1 when there are any."""
    knowledge, moment = _knowledge(args), _time(args.as_of)
    damaged: list[DamagedVersion] = []
    gaps, suspects = knowledge.coverage(moment, damaged), knowledge.suspects(moment, damaged)
    if args.json:
        data = {
            "gaps": [asdict(gap) | {"message": gap.message} for gap in gaps],
            "suspects": [asdict(s) | {"message": s.message} for s in suspects],
        }
        print(json.dumps(data, indent=2, default=str))
    else:
        for gap in gaps:
            print(f"gap: {gap.message}")
        for suspect in suspects:
            print(f"suspect: {suspect.message}")
        if not gaps and not suspects and not damaged:
            print("every requirement is covered and no link is suspect", file=sys.stderr)
    return max(_report_damage(damaged), EXIT_INVALID if gaps or suspects else EXIT_OK)


def kg_rebuild(args: argparse.Namespace) -> int:
    """``studio kg rebuild``: derive every row again from the stored text; refused, changing
    nothing, when a version or text is damaged."""
    try:
        count = _knowledge(args).rebuild()
    except ArtifactIntegrityError as failure:
        _report_damage(list(failure.damaged), left_out=False)
        message = "nothing was rebuilt; `studio kg verify` lists every damaged version"
        return fail(message, EXIT_INVALID)
    _print(args, {"rebuilt": count}, f"rebuilt the graph rows of {count} artifact version(s)")
    return EXIT_OK


def kg_list(args: argparse.Namespace) -> int:
    """``studio kg list``: the current artifacts."""
    damaged: list[DamagedVersion] = []
    versions = _knowledge(args).heads(subject=args.subject, damaged=damaged)
    if args.json:
        print(json.dumps([_version_data(v) for v in versions], indent=2))
        return _report_damage(damaged)
    for version in versions:
        print(f"{version.ref:<60} {version.front.title}")
    return _report_damage(damaged)


def kg_resolve(args: argparse.Namespace) -> int:
    """``studio kg resolve REF``: the artifact's text, checked against its SHA-256."""
    try:
        text = _knowledge(args).resolve(args.ref)
    except ArtifactIntegrityError as failure:
        return _report_damage(list(failure.damaged), left_out=False)
    except StudioError as failure:
        return fail(str(failure), EXIT_INVALID)
    _print(args, {"ref": args.ref, "text": text}, text.rstrip("\n"))
    return EXIT_OK


REBUILD_HINT = "`studio kg rebuild` derives them again"


def kg_verify(args: argparse.Namespace) -> int:
    """``studio kg verify``: check every stored version, its text and its derived graph rows;
    every damaged version and every one whose rows differ is listed (exit 1), or all of them
    were verified (exit 0)."""
    found = _knowledge(args).verify()
    if args.json:
        problem = f"its derived rows differ from its text; {REBUILD_HINT}"
        data = {
            "versions": found.versions,
            "damaged": [{"ref": d.ref, "problem": d.problem} for d in found.damaged],
            "derivedRowsDiffer": [{"ref": ref, "problem": problem} for ref in found.differing],
        }
        print(json.dumps(data, indent=2))
    else:
        _print_verification(found)
    return EXIT_INVALID if found.damaged or found.differing else EXIT_OK


def _print_verification(found: Verification) -> None:
    """One line per damaged version and per version whose derived rows differ, then a count."""
    damaged, differing = found.damaged, found.differing
    if not damaged and not differing:
        print(f"all {found.versions} artifact version(s) verified")
        return
    for version in damaged:
        print(version.message)
    for ref in differing:
        print(f"derived rows of {ref} differ from its text; {REBUILD_HINT}")
    summary = f"{found.versions} artifact version(s) checked, {len(damaged)} damaged"
    if differing:
        summary += f", {len(differing)} with derived rows that differ from their text"
    print(summary)


# Helpers -------------------------------------------------------------------------------


def _knowledge(args: argparse.Namespace) -> KnowledgeBase:
    return workspace_for(args).knowledge


def node_named(graph: Projection, name: str) -> str:
    """The node a person named: its id, or a bare item id (``REQ-1``) when exactly one
    subject has it; KeyError when neither."""
    nodes = graph.graph.nodes
    if name in nodes:
        return name
    matches = sorted(node for node in nodes if str(node).rsplit("/", 1)[-1] == name)
    if len(matches) > 1:
        raise ArgumentProblem(f"'{name}' names several nodes: {', '.join(matches)}")
    if not matches:
        raise KeyError(name)
    return matches[0]


def _view(args: argparse.Namespace) -> ViewOptions:
    return ViewOptions(
        items=args.items, units=args.units, sections=args.sections, subject=args.subject
    )


def _time(text: str | None) -> datetime | None:
    """The moment of an optional ``--as-of``: None when it is not given."""
    return None if text is None else parse_moment(text)


def parse_moment(text: str) -> datetime:
    """An ISO date or time; a date means its end (everything landed that day counts)."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ArgumentProblem(
            f"'{text}' is not a date or time (use e.g. 2026-09-05 or 2026-09-05T12:00:00Z)"
        ) from None
    if len(text) == 10:  # a bare date: the end of that day
        moment = moment.replace(hour=23, minute=59, second=59)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def read_artifact(path: Path, verb: str) -> str:
    """The text of one artifact file; ArgumentProblem says why there is none (missing, a
    folder, binary, not UTF-8)."""
    if path.is_dir():
        raise ArgumentProblem(f"cannot {verb} {path}: it is a folder; `studio kg ingest` lands one")
    try:
        return read_text_file(path)
    except UnreadableFileError as unreadable:
        raise ArgumentProblem(f"cannot {verb} {path}: {unreadable.reason}") from None


def _rejected(rejected: ArtifactRejectedError, as_json: bool) -> int:
    if as_json:
        print(json.dumps([problem.to_data() for problem in rejected.problems], indent=2))
    print(f"studio: {rejected}", file=sys.stderr)
    return EXIT_INVALID


def _print(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    print(json.dumps(data, indent=2) if args.json else text)


def _version_data(version: ArtifactVersion) -> dict[str, Any]:
    front = version.front
    return {
        "ref": version.ref,
        "subject": front.subject,
        "id": front.id,
        "kind": front.kind,
        "title": front.title,
        "createdAt": front.created_at.isoformat(),
        "supersedes": front.supersedes,
        "producedBy": front.produced_by,
    }


def _report_damage(damaged: list[DamagedVersion], left_out: bool = True) -> int:
    """Name each damaged version on stderr (once), and that the rest was shown without them;
    exit 1 when there is any."""
    unique = list(dict.fromkeys(damaged))
    for version in unique:
        print(f"studio: {version.message}", file=sys.stderr)
    if unique and left_out:
        print(
            f"studio: {len(unique)} damaged version(s) left out; "
            "`studio kg verify` checks every version",
            file=sys.stderr,
        )
    return EXIT_INVALID if unique else EXIT_OK


def _progress_bar(done: int, total: int, path: Path) -> None:
    width = 30
    filled = width * done // max(1, total)
    bar = "█" * filled + "·" * (width - filled)
    print(f"\r[{bar}] {done}/{total} {path.name[:40]:<40}", end="", file=sys.stderr, flush=True)


def _end_progress(show) -> None:
    if show is not None:
        print(file=sys.stderr)
