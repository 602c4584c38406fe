"""The order a folder's artifacts land in: by the moment their front matter's ``created_at``
names, so a later version lands after the one it replaces."""

import re
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path

from studio.knowledge.front_matter import (
    ArtifactFormatError,
    load_front_matter,
    load_yaml,
    parse_created_at,
    split_fences,
)

_LAST = datetime.max.replace(tzinfo=UTC)
_CREATED_AT = re.compile(r"^created_at:[ \t]*(.+?)[ \t]*$", re.MULTILINE)


def date_order(path: Path) -> tuple[bool, datetime, str]:
    """Sort key: files with a ``created_at`` first, earliest first, then the others; then by
    name."""
    moment = created_at_of(path)
    return moment is None, moment or _LAST, path.name


def created_at_of(path: Path) -> datetime | None:
    """The moment a file's front matter states as its ``created_at``, or None (for ordering
    a folder; the lint checks it properly when the file lands). A ``created_at`` line in the
    body is never read."""
    try:
        front_text, _body, _line = split_fences(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ArtifactFormatError):
        return None
    found = _CREATED_AT.search(front_text)
    if found is None:  # e.g. a quoted key or flow style: read the front matter as YAML
        with suppress(ArtifactFormatError):
            return parse_created_at(load_front_matter(front_text).get("created_at"))
        return None
    written = found.group(1)
    moment = parse_created_at(written.strip("'\" "))
    if moment is None:  # e.g. a space instead of the 'T', a comment: read it as YAML does
        with suppress(ArtifactFormatError):
            moment = parse_created_at(load_yaml(written))
    return moment
