"""A filed work item's body scanned the way ``scan_body`` scans it, with the Markdown parser
run at most over the part a person wrote.

Every state change adds a line to an item's work log, so most of a filed body is its two
lists (the work log and the artifacts), which Studio wrote itself: one ``- `` line per entry.
The parser reads the Order and the snapshot, and the heading after them; when that heading is
where it should be (nothing above it, such as an unclosed fence, swallowed it), the lists
below start afresh, and a list line whose entry is plain text is a list item holding one
paragraph of that text. An Order of plain lines (each starts with a letter or a digit, or is
blank) with no snapshot needs no parser either: it is paragraphs between blank lines. Anything
else (an entry starting with a Markdown marker, a control character, a heading not where it
was written) is scanned by ``scan_body`` whole, so the scan is always the one ``scan_body``
gives.
"""

import re

from markdown_it.token import Token

from studio.knowledge.derivation import (
    BodyScan,
    Heading,
    TokenFindings,
    block_tokens,
    heading_text,
    last_line,
    scan_body,
)
from studio.model.work_items import (
    ORDER,
    SNAPSHOT,
    WorkItem,
    body_head,
    list_section,
    lists_of,
)

_PLAIN_ENTRY = re.compile(r"[A-Za-z0-9][^\x00-\x1f\x7f]*")
"""An entry that opens no block: it starts with a letter or a digit, on one line."""
_ORDERED_MARKER = re.compile(r"[0-9]{1,9}[.)](?:[ \t]|$)")
"""What would make an entry starting with a digit an ordered list instead of text."""
_BLANK = re.compile(r"[ \t]*")
"""A line the parser counts as blank."""


def scan_filed_body(item: WorkItem, body: str, body_line: int) -> BodyScan:
    """``scan_body(body, body_line)`` for ``body``, the body ``render_body(item)`` writes."""
    lists = lists_of(item)
    if not all(_plain(entry) for _title, entries in lists for entry in entries):
        return scan_body(body, body_line)
    first_title = lists[0][0]
    head = _plain_head(item, first_title, body_line) or _parsed_head(item, first_title, body_line)
    if head is None:
        return scan_body(body, body_line)
    found, line = head
    for number, (title, entries) in enumerate(lists):
        if number:
            found.headings.append(Heading(2, heading_text(title), line))
        for entry in entries:
            found.cite(entry.strip())
        line += list_section(title, entries).count("\n") + 1
    return found.scan(last_line(body, body_line))


def _parsed_head(
    item: WorkItem, first_title: str, body_line: int
) -> tuple[TokenFindings, int] | None:
    """What the parser finds in the Order and the snapshot, with the heading that follows
    them, and that heading's file line; None if the heading is not where it was written."""
    probe = f"{body_head(item)}\n## {first_title}\n"
    tokens = block_tokens(probe)
    heading_index = probe.count("\n") - 1
    if not _ends_with_heading(tokens, heading_index):
        return None
    found = TokenFindings()
    found.read(tokens, body_line)
    return found, body_line + heading_index


def _plain_head(
    item: WorkItem, first_title: str, body_line: int
) -> tuple[TokenFindings, int] | None:
    """The same for an Order of plain paragraphs and no snapshot, without the parser: the
    Order's and the snapshot's headings and the Order's citations, paragraph by paragraph;
    None for any other head."""
    if item.snapshot:
        return None
    lines = item.order.strip().split("\n")
    if not all(_BLANK.fullmatch(line) or _plain(line) for line in lines):
        return None
    found = TokenFindings()
    found.headings.append(Heading(2, heading_text(ORDER), body_line))
    paragraph: list[str] = []
    for line in [*lines, ""]:
        if not _BLANK.fullmatch(line):
            paragraph.append(line)
        elif paragraph:
            found.cite("\n".join(paragraph).strip())
            paragraph = []
    # "## Order", a blank line, the Order, a blank line, the snapshot's heading, a blank line
    snapshot_line = body_line + len(lines) + 3
    found.headings.append(Heading(2, heading_text(SNAPSHOT), snapshot_line))
    found.headings.append(Heading(2, heading_text(first_title), snapshot_line + 2))
    return found, snapshot_line + 2


def _plain(entry: str) -> bool:
    return _PLAIN_ENTRY.fullmatch(entry) is not None and not _ORDERED_MARKER.match(entry)


def _ends_with_heading(tokens: list[Token], line: int) -> bool:
    """Whether the last tokens are a level-2 heading on ``line`` (0-based), in no container."""
    if len(tokens) < 3 or tokens[-1].type != "heading_close":
        return False
    opening = tokens[-3]
    return (
        opening.type == "heading_open"
        and opening.tag == "h2"
        and opening.level == 0
        and opening.map is not None
        and opening.map[0] == line
    )
