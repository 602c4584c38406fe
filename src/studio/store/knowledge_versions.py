"""Artifact version rows and records: the values a version is stored as, and the checked
versions read back (each row against its version hash; the damaged ones reported)."""

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row

from studio.model.knowledge import ArtifactVersion, FrontMatter, Link
from studio.store.knowledge_integrity import (
    DamagedVersion,
    checked_fields,
    report,
    text_damage,
    version_digest,
)
from studio.store.row_records import RecordReader

Damaged = list[DamagedVersion] | None
"""Where a read puts the damaged versions it leaves out; None: raise on the first read."""

_front_matter = RecordReader(FrontMatter, id="artifact_id")
_artifact_version = RecordReader(ArtifactVersion)


def version_values(version: ArtifactVersion, seq: int) -> dict[str, Any]:
    """The artifact_versions row of a version landed as number ``seq``, with its hash."""
    front = version.front
    values = {
        "ref": version.ref,
        "subject": front.subject,
        "artifact_id": front.id,
        "kind": front.kind,
        "title": front.title,
        "created_at": front.created_at,
        "landed_at": version.landed_at,
        "sha256": version.sha256,
        "supersedes": front.supersedes,
        "produced_by": front.produced_by,
        "links": [{"type": link.type, "target": link.target} for link in front.links],
        "seq": seq,
    }
    # Hashed as the database hands it back: once stored, JSON keys are text.
    produced_by = front.produced_by
    if not all(isinstance(key, str) and isinstance(v, str) for key, v in produced_by.items()):
        produced_by = json.loads(json.dumps(produced_by))  # text as it is needs no round trip
    values["version_sha256"] = version_digest(values | {"produced_by": produced_by})
    return values


def checked_versions(rows: Iterable[Row], damaged: Damaged) -> list[ArtifactVersion]:
    """The versions of the rows that match their version hash; the others are reported."""
    versions, found = [], []
    for row in rows:
        fields = checked_fields(row)
        if isinstance(fields, DamagedVersion):
            found.append(fields)
        else:
            versions.append(version_from_fields(fields))
    report(found, damaged)
    return versions


def checked_hits(rows: Sequence[Row], damaged: Damaged) -> list[tuple[ArtifactVersion, str]]:
    """Search hits whose version and text pass their checks; the others are reported."""
    found: list[DamagedVersion] = []
    intact = {version.ref: version for version in checked_versions(rows, found)}
    hits = []
    for row in rows:
        version = intact.get(row.ref)
        problem = None if version is None else text_damage(row.ref, version.sha256, row.text)
        if problem is not None:
            found.append(problem)
        elif version is not None:
            hits.append((version, row.snippet))
    report(found, damaged)
    return hits


def version_from_fields(fields: Mapping[str, Any]) -> ArtifactVersion:
    """The version a checked row's plain fields describe (times still as stored text)."""
    front = _front_matter(
        fields,
        produced_by=dict(fields["produced_by"]),
        created_at=datetime.fromisoformat(fields["created_at"]),
        links=tuple(Link(type=link["type"], target=link["target"]) for link in fields["links"]),
    )
    landed_at = datetime.fromisoformat(fields["landed_at"])
    return _artifact_version(fields, front=front, landed_at=landed_at)
