"""Filing a closed work item to its subject: the knowledge landing the queue stores in the
same transaction as the ack that closed it.

The filed artifact keeps the envelope's fields and its four sections, and says which run it
ordered (the run that landed its artifacts), so the graph reads order → run → artifacts.

The queue writes this artifact itself, from an item Gate A passed, so only its front matter is
linted (what the queue wrote); the body is the item's own record and is derived as stored,
without item types (see ``derive``): an Order that quotes an item block, even a malformed one,
never keeps an item from closing, and never adds items to the subject.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from studio.knowledge.derivation import derive
from studio.knowledge.filed_body_scan import scan_filed_body
from studio.knowledge.front_matter import artifact_ref, read_front_matter
from studio.knowledge.landing import ArtifactRejectedError
from studio.knowledge.lint import lint_front_matter
from studio.model.knowledge import WORK_ITEM_KIND, ArtifactVersion
from studio.model.work_items import WorkItem, envelope_fields, render_body
from studio.model.yaml_writer import dump_yaml
from studio.store.knowledge import Landing, body_digest


def filed_front(item: WorkItem, runs: list[str]) -> dict[str, Any]:
    """A closed item's envelope as knowledge front matter: kind, title and provenance added
    (the last run it ordered, when there is one), the lease left out."""
    produced_by: dict[str, Any] = {"capability": item.capability, "work_item": item.id}
    if runs:
        produced_by["execution"] = runs[-1]
    extras = {key: value for key, value in item.extra.items() if key not in _STORE_KEYS}
    fields = envelope_fields(item)
    fields.pop("lease", None)
    return {
        **extras,  # the item's own extra fields never stand in for the record's
        "id": fields.pop("id"),
        "kind": WORK_ITEM_KIND,
        "subject": fields.pop("subject"),
        "title": item.title,
        "created_at": fields.pop("created_at"),
        "produced_by": produced_by,
        **fields,
    }


_STORE_KEYS = frozenset({"kind", "title", "produced_by", "supersedes", "links"})
"""Front matter the knowledge store reads: the filed record's own, never an item's extras."""


def filing_landing(item: WorkItem, runs: list[str], head: str | None) -> Landing:
    """The checked, derived landing of a closed item, not stored yet; it supersedes ``head``,
    the ref of the subject's artifact with the item's id, if there is one. Raises
    ArtifactRejectedError."""
    front_fields = filed_front(item, runs)
    problems = lint_front_matter(front_fields, lambda _ref: True)
    if problems:
        raise ArtifactRejectedError(problems, f"work item {item.id}")
    if head is not None:
        front_fields["supersedes"] = head
    body = render_body(item)
    text = _text(front_fields, body)
    front = read_front_matter(front_fields)
    version = ArtifactVersion(artifact_ref(front), front, body_digest(text), datetime.now(UTC))
    body_line = text.count("\n", 0, len(text) - len(body)) + 1
    scan = scan_filed_body(item, body, body_line)
    return version, text, derive(version, body, body_line, scan=scan)


def _text(front: dict[str, Any], body: str) -> str:
    return f"---\n{dump_yaml(front)}---\n\n{body}"
