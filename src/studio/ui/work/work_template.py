"""The work item a new order starts from: every field and section in place, with words to
replace."""

from datetime import datetime

from studio.model.capabilities import PublishedManifest

TEMPLATE = """\
---
id: {id}
artifact: {artifact}
capability: {capability}
subject: your-subject
status: queued
lease: null
requested_by: {person}
context:
  - {{id: brief, type: artifact, ref: your-subject/kind/file.md, when: always}}
---

## Order

What is wanted, the scope, and what done looks like.

## Resolved-context snapshot

## Work log

## Artifacts
"""


def work_template(
    person: str, now: datetime, capability: str = "capability", artifact: str = "artifact"
) -> str:
    """A new work item's text, with an id of the moment and the person as requester."""
    item_id = f"order-{now:%Y%m%d-%H%M%S}"
    return TEMPLATE.format(id=item_id, artifact=artifact, capability=capability, person=person)


def offered_pair(manifests: list[PublishedManifest]) -> tuple[str, str] | None:
    """The first capability with a live type, and that type; None when nothing is live."""
    for manifest in manifests:
        live = [name for name, status in manifest.offered().items() if status == "live"]
        if manifest.stamped and live:
            return manifest.capability, live[0]
    return None
