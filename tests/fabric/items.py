"""Work item and manifest texts for the queue's tests: a good item by default, and the knobs
that make it break exactly one Gate A rule.

The default item orders a ``design`` from ``design-studio`` about ``checkout-redesign``, with
one eager ``file`` source (``brief.md`` in the queue's folder, which the tests write) and one
on-demand ``url`` source that is never resolved.
"""

from __future__ import annotations

from typing import Any

import yaml

CAPABILITY = "design-studio"
SUBJECT = "checkout-redesign"
BRIEF = "brief.md"
"""The eager source every default item points at, relative to the queue's folder."""

MANIFEST = """---
id: design-studio
title: Design studio
---

# Design studio

## design

**Status:** live

A design for one subject: components with the requirements they cover.

## design-review

**Status:** planned

A review of an existing design.

## wireframe

**Status:** live

A wireframe of one screen.
"""

ORDER_TEXT = "Design the one-page checkout.\nDone when a design artifact lands."

SOURCES: list[dict[str, Any]] = [
    {"id": "brief", "type": "file", "ref": BRIEF, "when": "always"},
    {"id": "style", "type": "url", "ref": "https://example.com/style-guide", "when": "on-demand"},
]


def manifest(**statuses: str) -> str:
    """The manifest with some types' status changed, e.g. ``manifest(design="planned")``."""
    text = MANIFEST
    for name, status in statuses.items():
        before = f"## {name}\n\n**Status:** "
        start = text.index(before) + len(before)
        end = text.index("\n", start)
        text = text[:start] + status + text[end:]
    return text


def front(item_id: str = "order-one", **fields: Any) -> dict[str, Any]:
    """A good item's front matter with ``fields`` replacing (or, as None, blanking) fields."""
    values: dict[str, Any] = {
        "id": item_id,
        "artifact": "design",
        "capability": CAPABILITY,
        "subject": SUBJECT,
        "status": "queued",
        "lease": None,
        "requested_by": "intake-desk",
        "created_at": "2026-09-12T09:00:00Z",
        "context": [dict(source) for source in SOURCES],
    }
    values.update(fields)
    return values


def sections(order: str = ORDER_TEXT, log: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The four body sections, in order, as (heading, text) pairs."""
    work_log = "".join(f"- {line}\n" for line in log)
    return [
        ("Order", order),
        ("Resolved-context snapshot", ""),
        ("Work log", work_log),
        ("Artifacts", ""),
    ]


def item_text(
    item_id: str = "order-one",
    body: list[tuple[str, str]] | None = None,
    raw_front: str | None = None,
    **fields: Any,
) -> str:
    """A work item's text: ``front(item_id, **fields)`` (or ``raw_front`` verbatim) and
    ``body`` (default: the four sections of ``sections()``)."""
    head = raw_front
    if head is None:
        head = yaml.safe_dump(front(item_id, **fields), sort_keys=False, width=100)
    parts = [f"## {heading}\n\n{text}".rstrip() + "\n" for heading, text in body or sections()]
    return f"---\n{head}---\n\n" + "\n".join(parts)


def without(mapping: dict[str, Any], key: str) -> dict[str, Any]:
    return {name: value for name, value in mapping.items() if name != key}


BREAKS_AT_ENQUEUE: dict[int, dict[str, Any]] = {
    1: {"item_id": "Order_One"},
    2: {"artifact": "design-review"},
    3: {"status": "queued", "lease": {"worker": "w", "token": 1, "expires_at": "2026-09-12"}},
    4: {"context": [{"id": "graph-walk", "type": "graph", "ref": "acme", "when": "always"}]},
    5: {"context": [{"id": "gone", "type": "file", "ref": "missing.md", "when": "always"}]},
    6: {"body": sections(order="")},
    7: {"body": [sections()[0], sections()[2], sections()[1], sections()[3]]},
    8: {
        "context": [
            {
                "id": "brief",
                "type": "file",
                "ref": BRIEF,
                "when": "always",
                "content": "The whole brief pasted in.",
            }
        ]
    },
}
"""For each Gate A rule, the item_text arguments of an item that breaks only that rule."""
