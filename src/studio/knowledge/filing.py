"""Filing a closed work item to its subject: the knowledge landing the queue stores in the
same transaction as the ack that closed it.

The filed artifact keeps the envelope's fields and its four sections, and says which run it
ordered (the run that landed its artifacts), so the graph reads order → run → artifacts.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from studio.knowledge.derivation import derive
from studio.knowledge.front_matter import artifact_ref, split_artifact
from studio.knowledge.item_types import DEFAULT_REGISTRY, ItemTypeRegistry
from studio.knowledge.landing import ArtifactRejectedError, with_supersedes
from studio.knowledge.preparation import prepare
from studio.model.knowledge import WORK_ITEM_KIND, ArtifactVersion
from studio.model.work_items import WorkItem, dump_yaml, envelope, render_body
from studio.store.knowledge import KnowledgeRepository, Landing, body_digest


def filed_text(item: WorkItem, runs: list[str]) -> str:
    """A closed work item as a knowledge artifact: its envelope with kind, title and
    provenance added (the last run it ordered, when there is one), then its four sections."""
    produced_by: dict[str, Any] = {"capability": item.capability, "work_item": item.id}
    if runs:
        produced_by["execution"] = runs[-1]
    fields = envelope(item)
    fields.pop("lease", None)
    front = {
        "id": fields.pop("id"),
        "kind": WORK_ITEM_KIND,
        "subject": fields.pop("subject"),
        "title": item.title,
        "created_at": fields.pop("created_at"),
        "produced_by": produced_by,
        **fields,
    }
    return f"---\n{dump_yaml(front)}---\n\n{render_body(item)}"


def filing_landing(
    repository: KnowledgeRepository, text: str, registry: ItemTypeRegistry = DEFAULT_REGISTRY
) -> Landing:
    """The checked, derived landing of a filed work item, not stored yet; it supersedes an
    artifact of the same subject and id if one is there. Raises ArtifactRejectedError."""
    prepared = prepare("the work item", text, registry)
    if prepared.problems or prepared.front is None:
        raise ArtifactRejectedError(list(prepared.problems), prepared.source)
    front, derivation = prepared.front, prepared.derivation
    assert derivation is not None
    head = repository.latest_ref(front.subject, front.id)
    if head is not None:
        text = with_supersedes(text, head)
        front = replace(front, supersedes=head)
    version = ArtifactVersion(artifact_ref(front), front, body_digest(text), datetime.now(UTC))
    if head is None:
        return version, text, derivation
    _data, body, body_line = split_artifact(text)
    return version, text, derive(version, body, body_line, registry)
