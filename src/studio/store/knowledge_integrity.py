"""What makes every stored field of an artifact version checkable on read: the version hash,
and the damage a check finds.

A version's text (front matter and Markdown, as landed) is stored once in ``artifact_bodies``
under the SHA-256 of its UTF-8 bytes. Its row in ``artifact_versions`` copies what the front
matter says (subject, id, kind, title, created_at, supersedes, produced_by, links) and adds what
the store assigned (ref, landed_at, seq). The row's ``version_sha256`` covers all of it:

    version_sha256 = SHA-256, in hex, of the UTF-8 bytes of one JSON object holding every
    other column of the row under its column name — ref, subject, artifact_id, kind, title,
    created_at, landed_at, sha256 (the body's hash), supersedes, produced_by, links, seq —
    written with sorted keys, no whitespace (separators "," and ":") and non-ASCII characters
    as themselves. Times are written as stored: UTC, ISO 8601 with microseconds and a "Z"
    ("2026-09-09T11:00:00.000000Z"); produced_by and links are the JSON values as stored
    (links in stored order); supersedes is null when there is none; seq is a number.

So the hash over the row plus the body's hash together cover front matter and body: a reader
checks the row against ``version_sha256`` and, when it reads the text, the text against
``sha256``. Nothing in the object depends on the database, so SQLite and PostgreSQL compute the
same hash for the same version. Versions stored before schema version 4 were hashed as the
migration found them. The search index and the derived graph rows are not covered: they are
rebuilt from what is (and ``kg verify`` derives the rows again to compare them). The hash
catches a change made without recomputing it (a careless tool, damaged bytes); it is not a
signature: whoever can write the file can write a matching hash.
"""

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from studio.store.errors import DatabaseError
from studio.store.schema import UtcTimestamp

HASHED_COLUMNS = (
    "ref",
    "subject",
    "artifact_id",
    "kind",
    "title",
    "created_at",
    "landed_at",
    "sha256",
    "supersedes",
    "produced_by",
    "links",
    "seq",
)
"""Every column of artifact_versions but the version hash itself."""
_TIMES = ("created_at", "landed_at")
_JSON = ("produced_by", "links")
RAW_COLUMNS = frozenset({*_TIMES, *_JSON})
"""Columns a check reads as the text stored (SQLite): another program may have written text
that does not parse, and the check must come before anything parses it."""
_STORED_TIME = UtcTimestamp()
_SHOWN = 3  # damaged versions named in an error before "and N more"


@dataclass(frozen=True)
class DamagedVersion:
    """A stored version that fails its check, and how."""

    ref: str
    problem: str

    @property
    def message(self) -> str:
        """One line for a person: "damaged: <ref>: <what is wrong>"."""
        return f"damaged: {self.ref}: {self.problem}"


class ArtifactIntegrityError(DatabaseError):
    """Stored text or fields that no longer match the hash they were stored with."""

    def __init__(self, message: str, damaged: Iterable[DamagedVersion] = ()) -> None:
        super().__init__(message)
        self.damaged = tuple(damaged)

    @classmethod
    def naming(cls, damaged: list[DamagedVersion]) -> "ArtifactIntegrityError":
        """The error for versions found damaged, naming the first few."""
        message = "; ".join(d.message for d in damaged[:_SHOWN])
        if len(damaged) > _SHOWN:
            message += f"; and {len(damaged) - _SHOWN} more damaged version(s)"
        return cls(message, damaged)


def version_digest(fields: Mapping[str, Any]) -> str:
    """The version hash of a row's fields (the module docstring defines it); times may be
    given as datetimes or as their stored text."""
    document = {name: fields[name] for name in HASHED_COLUMNS}
    for name in _TIMES:
        if isinstance(document[name], datetime):
            document[name] = _STORED_TIME.process_bind_param(document[name], None)
    return body_digest(
        json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    )


def body_digest(text: str) -> str:
    """The SHA-256 (hex) a body is stored under: of its text encoded as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def plain_fields(row: Any) -> dict[str, Any] | None:
    """A version row's fields (RAW_COLUMNS read as text) with its JSON parsed and its times
    still as text; None when its JSON does not parse."""
    fields = dict(row._mapping)
    try:
        for name in _JSON:
            if isinstance(fields[name], str):  # SQLite hands back the text, PostgreSQL the value
                fields[name] = json.loads(fields[name])
    except ValueError:
        return None
    return fields


def checked_fields(row: Any) -> dict[str, Any] | DamagedVersion:
    """A version row's plain fields, or what is wrong with it when they do not match its
    version hash."""
    fields = plain_fields(row)
    if fields is not None and version_digest(fields) == fields["version_sha256"]:
        return fields
    return DamagedVersion(
        str(row._mapping["ref"]),
        "its stored fields do not match its version hash (they were changed after it landed)",
    )


def text_damage(ref: str, digest: str, text: str | None) -> DamagedVersion | None:
    """What is wrong with the text a version stored under ``digest``, or None."""
    if text is None:
        return DamagedVersion(ref, f"its text (SHA-256 {digest}) is missing")
    actual = body_digest(text)
    if actual == digest:
        return None
    return DamagedVersion(
        ref,
        f"its text does not match the SHA-256 it was stored under: it was stored as {digest} "
        f"but now hashes to {actual}",
    )


def report(found: list[DamagedVersion], damaged: list[DamagedVersion] | None) -> None:
    """Hand damaged versions to the caller's list, or raise when the caller gave none."""
    if not found:
        return
    if damaged is None:
        raise ArtifactIntegrityError.naming(found)
    damaged.extend(found)
