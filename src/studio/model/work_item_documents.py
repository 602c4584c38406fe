"""A work item's text: read into its front matter and sections without judging them (Gate A
judges), the item a Gate A-clean document holds, and the document a stored item is.

Headings inside fenced blocks are not the item's: resolved content in the snapshot is fenced,
and its own headings stay its own.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import yaml

from studio.model.safe_yaml import load_yaml_text, yaml_refusal
from studio.model.work_items import (
    ARTIFACTS,
    ORDER,
    SNAPSHOT,
    WORK_LOG,
    WorkItem,
    approvals_of,
    envelope,
    lease_of,
    parse_moment,
    recorded_entries,
    render_body,
    source_of,
)

_HEADING = re.compile(r"## +(.+?) *")
_SUB_HEADING = re.compile(r"### ")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_ENTRY = re.compile(r"^- (.*)$", re.MULTILINE)


class WorkItemFormatError(ValueError):
    """A text that is not a work item at all: no front matter, or front matter that is not
    YAML mapping. ``line`` is 1-based in the text when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line


@dataclass(frozen=True)
class WorkItemDocument:
    """A work item's text split into its parts, nothing judged yet."""

    front: dict[str, Any]
    sections: tuple[tuple[str, str], ...]
    """Each level-2 heading of the body with the text under it, in the order written."""
    preamble: str = ""
    """Body text before the first level-2 heading."""

    def section(self, title: str) -> str | None:
        """The text under the first heading named ``title``, or None."""
        return next((text for name, text in self.sections if name == title), None)


def read_document(text: str) -> WorkItemDocument:
    """Split a work item's text into front matter and sections.

    Raises:
        WorkItemFormatError: no ``---`` fences, YAML that does not read, or front matter that
            is not a mapping.
    """
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        raise WorkItemFormatError("a work item must start with a '---' line", 1)
    end = next((n for n in range(1, len(lines)) if lines[n].strip() == "---"), None)
    if end is None:
        raise WorkItemFormatError("the front matter has no closing '---' line", 1)
    try:
        front = load_yaml_text("\n".join(lines[1:end]))
    except yaml.YAMLError as failure:
        refusal = yaml_refusal(failure)
        line = None if refusal.line is None else refusal.line + 1
        raise WorkItemFormatError(f"front matter: {refusal.problem}", line) from failure
    if not isinstance(front, dict):
        raise WorkItemFormatError("the front matter must be a mapping of fields", 2)
    return _with_sections(front, "\n".join(lines[end + 1 :]))


def _with_sections(front: dict[str, Any], body: str) -> WorkItemDocument:
    lines = body.split("\n")
    headings = [
        (n, found.group(1))
        for n in _outside_fences(lines)
        if (found := _HEADING.fullmatch(lines[n]))
    ]
    preamble = "\n".join(lines[: headings[0][0]] if headings else lines)
    sections = []
    for index, (start, title) in enumerate(headings):
        end = headings[index + 1][0] if index + 1 < len(headings) else len(lines)
        sections.append((title, "\n".join(lines[start + 1 : end]).strip("\n")))
    return WorkItemDocument(front, tuple(sections), preamble.strip())


def _outside_fences(lines: list[str]) -> list[int]:
    """The numbers of the lines that are not inside a fenced code block (resolved content in
    the snapshot is fenced, and its own headings are not the item's)."""
    outside, fence = [], ""
    for number, line in enumerate(lines):
        marker = _FENCE.match(line)
        if fence:
            if marker and marker.group(1).startswith(fence) and not line[marker.end() :].strip():
                fence = ""
            continue
        if marker:
            fence = marker.group(1)
            continue
        outside.append(number)
    return outside


def entries(text: str | None) -> tuple[str, ...]:
    """The ``- `` lines of a list section, without their dash."""
    return tuple(match.group(1) for match in _ENTRY.finditer(text or ""))


def snapshot_blocks(text: str | None) -> tuple[str, ...]:
    """The snapshot's entries: blocks that each open with a level-3 heading."""
    if not text or not text.strip():
        return ()
    lines = text.strip().split("\n")
    starts = [n for n in _outside_fences(lines) if _SUB_HEADING.match(lines[n])]
    bounds = [0, *[n for n in starts if n > 0], len(lines)]
    blocks = ("\n".join(lines[a:b]).strip() for a, b in itertools.pairwise(bounds))
    return tuple(block for block in blocks if block)


_ENVELOPE_KEYS = frozenset(
    {
        "id",
        "artifact",
        "capability",
        "subject",
        "status",
        "lease",
        "context",
        "requested_by",
        "approvals",
        "created_at",
        "context_bounces",
        "build_rounds",
    }
)


def work_item_of(document: WorkItemDocument, now: datetime | None = None) -> WorkItem:
    """The work item a Gate A-clean document holds (Gate A has checked every field read here).

    ``created_at`` defaults to ``now`` when the document has none.
    """
    front = document.front
    created = parse_moment(front.get("created_at")) or now or datetime.now(UTC)
    return WorkItem(
        id=str(front["id"]),
        artifact=str(front["artifact"]),
        capability=str(front["capability"]),
        subject=str(front["subject"]),
        requested_by=str(front.get("requested_by") or "unknown"),
        created_at=created,
        order=(document.section(ORDER) or "").strip(),
        status=str(front.get("status") or "queued"),
        lease=lease_of(front.get("lease")),
        context=tuple(source_of(entry) for entry in front.get("context") or ()),
        approvals=tuple(approvals_of(front.get("approvals"))),
        approval_entries=recorded_entries(front.get("approvals")),
        context_bounces=int(front.get("context_bounces") or 0),
        build_rounds=int(front.get("build_rounds") or 0),
        snapshot=snapshot_blocks(document.section(SNAPSHOT)),
        work_log=entries(document.section(WORK_LOG)),
        artifacts=entries(document.section(ARTIFACTS)),
        extra={key: value for key, value in front.items() if key not in _ENVELOPE_KEYS},
    )


def document_of(item: WorkItem) -> WorkItemDocument:
    """The document a stored item is, as the executor side receives it: what Gate A at pull
    checks. The same as reading ``render_work_item(item)`` back, without writing and reading
    the front matter as YAML."""
    return _with_sections(envelope(item), render_body(item))
