"""A filed item's body is scanned exactly as the Markdown parser scans it, whatever its
Order, snapshot, work log and artifacts hold."""

from dataclasses import replace
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.knowledge import filed_body_scan
from studio.knowledge.derivation import BodyScan, scan_body
from studio.knowledge.filed_body_scan import scan_filed_body
from studio.model.work_items import WorkItem, render_body

MARKDOWN_PIECES = [
    "plain words",
    "see `code that",
    "runs on` to [[kind]] here",
    "Over two [[design]]",
    "lines [[requirements]]  ",
    "   ",
    "Ünïcode first",
    "Design [[requirements]] now",
    "`[[code]]` span",
    "# Heading",
    "## Work log",
    "## Artifacts",
    "```",
    "```yaml claim",
    "~~~",
    "<!--",
    "-->",
    "<pre>",
    "> quoted",
    "- item",
    "* star",
    "1. one",
    "2) two",
    "    indented",
    "---",
    "===",
    "[ref]: https://example.com",
    "[[design]]",
    "",
    "\t",
    "2026-12-02T08:17:57Z leased by w1 (token 3)",
]
pieces = st.sampled_from(MARKDOWN_PIECES)
texts = st.lists(pieces, max_size=6).map("\n".join)
entries = st.one_of(
    pieces,
    st.sampled_from(
        [
            "ack advance by w → done",
            "filed to acme as acme/work-item/x.md",
            "1. # Heading in a list",
            "2) > quoted [[design]]",
            "10.",
        ]
    ),
    st.text(max_size=20),
)


def _item(order: str, snapshot: list[str], work_log: list[str], artifacts: list[str]) -> WorkItem:
    return WorkItem(
        "order-one",
        "design",
        "design-studio",
        "acme",
        "intake",
        datetime(2026, 9, 12, tzinfo=UTC),
        order,
        status="done",
        snapshot=tuple(snapshot),
        work_log=tuple(work_log),
        artifacts=tuple(artifacts),
    )


@settings(max_examples=300)
@given(
    texts,
    st.lists(texts, max_size=2),
    st.lists(entries, max_size=5),
    st.lists(entries, max_size=3),
    st.integers(min_value=1, max_value=40),
)
def test_the_scan_is_the_parsers_scan(
    order: str, snapshot: list[str], work_log: list[str], artifacts: list[str], body_line: int
) -> None:
    item = _item(order, snapshot, work_log, artifacts)
    body = render_body(item)
    expected = scan_body.__wrapped__(body, body_line)
    assert _comparable(scan_filed_body(item, body, body_line)) == _comparable(expected)


def _comparable(scan: BodyScan) -> BodyScan:
    """The scan with each block's error as its message (two errors are never equal)."""
    blocks = tuple(replace(block, error=block.error and str(block.error)) for block in scan.blocks)
    return replace(scan, blocks=blocks)


def test_a_plain_item_is_not_parsed(monkeypatch) -> None:
    """An item of plain text is scanned without the parser: its citations are still found
    and its sections still have their lines."""
    work_log = [f"2026-12-02T08:17:{second:02d}Z step {second}" for second in range(40)]
    order = "Design it from [[requirements]].\n\nKeep it `short\nand` plain."
    item = _item(order, [], [*work_log, "cites [[personas]]"], ["acme/design/d.md"])
    body = render_body(item)
    expected = scan_body.__wrapped__(body, 20)

    def no_parser(_text: str) -> None:
        raise AssertionError("the parser ran")

    monkeypatch.setattr(filed_body_scan, "block_tokens", no_parser)
    scan = scan_filed_body(item, body, 20)
    assert scan == expected
    assert scan.citations == ("requirements", "personas")
    lines = body.split("\n")
    assert [lines[heading.line - 20] for heading in scan.headings] == [
        "## Order",
        "## Resolved-context snapshot",
        "## Work log",
        "## Artifacts",
    ]
