"""What ``studio capabilities publish|list|show`` do.

Exit codes: 0 done; 1 a manifest that cannot be published (or a source of another
capability); 2 a source that cannot be read, or a capability that has published nothing."""

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from studio.cli.shared import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, workspace_for
from studio.model.capabilities import (
    ManifestError,
    PublishedManifest,
    read_manifest,
    source_hash,
)
from studio.model.text_files import UnreadableFileError, read_text_file
from studio.model.work_items import iso

MANIFEST_FILE = "manifest.md"
"""The manifest source in a capability folder."""


def capabilities_publish(args: argparse.Namespace) -> int:
    """``studio capabilities publish FILE|DIR``: the next version, stamped with the source's
    SHA-256; a source that is not a manifest is refused and nothing is published."""
    try:
        path, text = read_source(args.file)
    except UnreadableFileError as unreadable:
        return _failed(args, str(unreadable), EXIT_UNREADABLE)
    try:
        published = workspace_for(args).work_queue.publish_manifest(text, str(path))
    except ManifestError as refused:
        return _failed(args, str(refused), EXIT_INVALID)
    if args.json:
        return _print_json(manifest_data(published))
    offers = ", ".join(f"{offer.name} {offer.status}" for offer in published.types) or "nothing"
    stamp = f"sha256 {str(published.source_hash)[:12]}"
    print(f"published {published.capability} version {published.version} ({stamp}): {offers}")
    return EXIT_OK


def capabilities_list(args: argparse.Namespace) -> int:
    """``studio capabilities list``: each capability's latest published manifest, by name."""
    published = workspace_for(args).work_queue.manifests()
    if args.json:
        return _print_json([manifest_data(manifest) for manifest in published])
    if not published:
        print("no capability has published a manifest", file=sys.stderr)
    for manifest in published:
        offers = ", ".join(f"{offer.name} ({offer.status})" for offer in manifest.types)
        version = f"v{manifest.version}"
        print(f"{manifest.capability}  {version:<4}  {_stamp(manifest)}  {offers or '-'}")
    return EXIT_OK


def capabilities_show(args: argparse.Namespace) -> int:
    """``studio capabilities show NAME [--source FILE|DIR]``: the published manifest; with a
    source, the readiness check warns when the published copy is stale."""
    queue = workspace_for(args).work_queue
    published = queue.manifest(args.name)
    if published is None:
        message = f"capability '{args.name}' has published no manifest"
        return _failed(args, message, EXIT_UNREADABLE)
    readiness: dict[str, Any] = {}
    if args.source is not None:
        try:
            readiness = _readiness(args.source, published)
        except UnreadableFileError as unreadable:
            return _failed(args, str(unreadable), EXIT_UNREADABLE)
        except ManifestError as refused:
            return _failed(args, str(refused), EXIT_INVALID)
    if args.json:
        return _print_json(manifest_data(published) | readiness | {"text": published.text})
    _print_manifest(published)
    _warn_unready(args.source, published, readiness)
    return EXIT_OK


def read_source(given: str) -> tuple[Path, str]:
    """A manifest source's path and text: the file, or a capability folder's manifest.md."""
    path = Path(given)
    if path.is_dir():
        path = path / MANIFEST_FILE
        if not path.is_file():
            raise UnreadableFileError(given, f"the folder holds no {MANIFEST_FILE}")
    return path, read_text_file(path)


def manifest_data(published: PublishedManifest) -> dict[str, Any]:
    """A published manifest as JSON: its version, stamp and the types it offers."""
    return {
        "capability": published.capability,
        "version": published.version,
        "source_hash": published.source_hash,
        "stamped": published.stamped,
        "published_at": iso(published.published_at),
        "types": [
            {"name": offer.name, "status": offer.status, "requirements": offer.requirements}
            for offer in published.types
        ],
    }


def _readiness(source: str, published: PublishedManifest) -> dict[str, Any]:
    """The readiness check: the source's hash now against the published copy's stamp."""
    path, text = read_source(source)
    capability = read_manifest(text, str(path)).capability
    if capability != published.capability:
        raise ManifestError(
            f"{path}: this is the manifest of '{capability}', not of '{published.capability}'"
        )
    current = source_hash(text)
    stale = not published.stamped or published.source_hash != current
    return {"source": str(path), "current_hash": current, "stale": stale}


def _warn_unready(
    source: str | None, published: PublishedManifest, readiness: dict[str, Any]
) -> None:
    again = f"studio capabilities publish {readiness.get('source') or source or 'SOURCE'}"
    if not published.stamped:
        print(f"studio: warning: no freshness stamp: Gate A refuses it ({again})", file=sys.stderr)
    elif readiness.get("stale"):
        print(f"studio: warning: stale: re-run discovery ({again})", file=sys.stderr)


def _print_manifest(published: PublishedManifest) -> None:
    when = f"{published.published_at:%Y-%m-%d %H:%M:%S}"
    print(f"{published.capability} version {published.version}, published {when}")
    print(f"stamp: {published.source_hash or 'none'}")
    for offer in published.types:
        print(f"  {offer.name}: {offer.status}")
    print()
    sys.stdout.write(published.text if published.text.endswith("\n") else published.text + "\n")


def _stamp(published: PublishedManifest) -> str:
    return f"sha256 {published.source_hash[:12]}" if published.source_hash else "unstamped"


def _failed(args: argparse.Namespace, message: str, code: int) -> int:
    """An error: a JSON document with ``--json``, else one line on stderr."""
    if args.json:
        _print_json({"error": message})
    else:
        print(f"studio: {message}", file=sys.stderr)
    return code


def _print_json(document: Any) -> int:
    print(json.dumps(document, indent=2, ensure_ascii=False))
    return EXIT_OK
