"""Derive graph nodes and edges from one artifact version's Markdown, deterministically.

Only block-level tokens are needed (headings, fences, paragraphs as raw text), so the parser
runs markdown-it-py's CommonMark block rules and skips inline parsing, which is most of the
cost of a full parse.
"""

import re
from dataclasses import dataclass, field
from datetime import UTC
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from studio.knowledge.front_matter import ArtifactFormatError, load_yaml, plain
from studio.knowledge.item_types import DEFAULT, ItemType, ItemTypeRegistry
from studio.model.knowledge import (
    ARTIFACT,
    CITES,
    DERIVED_FROM,
    HAS_ITEM,
    HAS_SECTION,
    ORDERED,
    RUN,
    SECTION,
    WORK_ITEM_KIND,
    ArtifactVersion,
    Derivation,
    GraphEdge,
    GraphNode,
)

PRODUCES = "PRODUCES"

# "inline" parses every paragraph and heading into child tokens; "text_join" then walks those
# children. Derivation reads block tokens and raw inline text only, so both are switched off.
_BLOCKS = MarkdownIt("commonmark").disable(["inline", "text_join"])
# Headings are few and short: their inline tokens tell links, images and HTML apart exactly.
_INLINE = MarkdownIt("commonmark")

_CITATION = re.compile(r"\[\[([a-z0-9]+(?:-[a-z0-9]+)*)\]\]")
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
_NOT_IN_SLUG = re.compile(r"[^\w\- ]")


@dataclass(frozen=True)
class Fence:
    """A fenced ```yaml <type>``` block: the type it names, its YAML text and where it is."""

    type_name: str
    content: str
    line: int
    """File line (1-based) of the opening fence."""

    @property
    def content_line(self) -> int:
        """File line of the first line of YAML."""
        return self.line + 1


@dataclass(frozen=True)
class Heading:
    """A Markdown heading of any level, with its file line."""

    level: int
    title: str
    line: int


@dataclass(frozen=True)
class ItemBlock:
    """An item fence with its parsed YAML, or the reason it could not be parsed."""

    fence: Fence
    fields: Any
    """The parsed YAML (a mapping for a well-formed item); None when ``error`` is set."""
    error: ArtifactFormatError | None
    heading_line: int | None
    """File line of the nearest heading above the fence (of any level), if any."""


@dataclass(frozen=True)
class BodyScan:
    """What one pass over a body's block tokens finds; lint and derivation both read it."""

    headings: tuple[Heading, ...]
    blocks: tuple[ItemBlock, ...]
    citations: tuple[str, ...]
    """Kinds cited with ``[[kind]]`` in paragraphs, de-duplicated, in order."""
    end_line: int
    """File line of the body's last line."""


def block_tokens(body: str) -> list[Token]:
    """The block-level tokens of a Markdown body (inline content left as raw text)."""
    return _BLOCKS.parse(body)


def item_fence(token: Token, body_line: int) -> Fence | None:
    """The item fence a token is, if it is a fence whose info string is ``yaml <type>``."""
    if token.type != "fence" or token.map is None:
        return None
    words = token.info.split()
    if len(words) < 2 or words[0] != "yaml":
        return None
    return Fence(words[1], token.content, body_line + token.map[0])


def heading_text(raw: str) -> str:
    """A heading's text as written, with links and images reduced to what they show and HTML
    tags dropped; markdown-it's inline tokens find them (a URL may contain parentheses)."""
    if "[" not in raw and "<" not in raw:
        return raw.strip()
    (line,) = _INLINE.parseInline(raw)
    return "".join(_shown(token) for token in line.children or ()).strip()


def _shown(token: Token) -> str:
    """What one inline token of a heading contributes to its text."""
    if token.type in ("text", "softbreak", "hardbreak"):
        return token.content or " "
    if token.type == "image":
        return token.content  # its alt text
    if token.type == "code_inline":
        return f"{token.markup}{token.content}{token.markup}"
    if token.type in ("link_open", "link_close", "html_inline"):
        return ""
    return token.markup  # emphasis as written


def slug(text: str) -> str:
    """GitHub's anchor for a heading text: lower case, punctuation dropped, spaces to hyphens."""
    return _NOT_IN_SLUG.sub("", text.lower()).replace(" ", "-")


class AnchorSet:
    """Hands out unique anchors the way GitHub does: ``intro``, ``intro-1``, ``intro-2`` …"""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}

    def add(self, base: str) -> str:
        """The anchor for the next heading whose slug is ``base``."""
        anchor = base
        if base in self._counts:
            count = self._counts[base]
            while anchor in self._counts:
                count += 1
                anchor = f"{base}-{count}"
            self._counts[base] = count
        self._counts[anchor] = 0
        return anchor


def citations(paragraph: str) -> list[str]:
    """The kinds a paragraph cites with ``[[kind]]``, outside code spans, in order."""
    if "[[" not in paragraph:
        return []
    return _CITATION.findall(_CODE_SPAN.sub("", paragraph))


def last_line(body: str, body_line: int) -> int:
    """The file line of the body's last line."""
    count = body.count("\n")
    if body and not body.endswith("\n"):
        count += 1
    return body_line + max(count - 1, 0)


def _item_block(fence: Fence, heading_line: int | None) -> ItemBlock:
    try:
        fields = load_yaml(fence.content, first_line=fence.content_line)
    except ArtifactFormatError as exc:
        return ItemBlock(fence, None, exc, heading_line)
    return ItemBlock(fence, fields, None, heading_line)


# Landing lints a text and then derives from it; the memo lets derivation reuse the lint's pass.
# A scan is shared by every caller with the same body, so nobody may change its item fields.
@lru_cache(maxsize=32)
def scan_body(body: str, body_line: int) -> BodyScan:
    """Headings, item fences (YAML parsed) and citations of a body, in one pass."""
    found = TokenFindings()
    found.read(block_tokens(body), body_line)
    return found.scan(last_line(body, body_line))


@dataclass
class TokenFindings:
    """What block tokens hold for a scan, gathered from one or more runs of them."""

    headings: list[Heading] = field(default_factory=list)
    blocks: list[ItemBlock] = field(default_factory=list)
    cited: dict[str, None] = field(default_factory=dict)
    """Kinds cited, in the order first cited."""

    def read(self, tokens: list[Token], body_line: int) -> None:
        """Add what ``tokens``, parsed from text starting on file line ``body_line``, hold."""
        for index, token in enumerate(tokens):
            if token.type == "heading_open" and token.map is not None:
                title = heading_text(tokens[index + 1].content)
                self.headings.append(Heading(int(token.tag[1]), title, body_line + token.map[0]))
            elif token.type == "fence":
                fence = item_fence(token, body_line)
                if fence is not None:
                    heading_line = self.headings[-1].line if self.headings else None
                    self.blocks.append(_item_block(fence, heading_line))
            elif token.type == "inline" and tokens[index - 1].type == "paragraph_open":
                self.cite(token.content)

    def cite(self, paragraph: str) -> None:
        """Add the kinds a paragraph's text cites."""
        self.cited.update(dict.fromkeys(citations(paragraph)))

    def scan(self, end_line: int) -> BodyScan:
        return BodyScan(tuple(self.headings), tuple(self.blocks), tuple(self.cited), end_line)


class _Builder:
    """Collects one version's nodes and edges, each stamped with subject and version ref."""

    def __init__(self, version: ArtifactVersion) -> None:
        self.version = version
        self.artifact = version.artifact_id
        self.nodes: dict[str, GraphNode] = {}
        self.edges: dict[tuple[str, str, str], None] = {}

    def node(self, key: str, node_type: str, label: str, data: dict[str, Any]) -> None:
        if key not in self.nodes:
            self.nodes[key] = GraphNode(
                key, node_type, label, self.version.subject, self.version.ref, data
            )

    def edge(self, source: str, edge_type: str, target: str) -> None:
        self.edges[(source, edge_type, target)] = None

    def derivation(self) -> Derivation:
        subject, ref = self.version.subject, self.version.ref
        edges = tuple(GraphEdge(s, t, d, subject, ref) for s, t, d in self.edges)
        return Derivation(tuple(self.nodes.values()), edges)


def _add_artifact(builder: _Builder) -> None:
    front = builder.version.front
    data = {
        "kind": front.kind,
        # In UTC, as the store keeps it: a rebuild from the stored version derives the same.
        "created_at": front.created_at.astimezone(UTC).isoformat(),
        "produced_by": plain(front.produced_by),
    }
    builder.node(front.id, ARTIFACT, front.title, data)
    execution = front.produced_by.get("execution")
    if execution is not None:
        run = f"run:{execution}"
        run_data = {"execution": str(execution)}
        for key in ("workflow", "workflow_version"):
            if key in front.produced_by:
                run_data[key] = plain(front.produced_by[key])
        builder.node(run, RUN, str(execution), run_data)
        if front.kind == WORK_ITEM_KIND:
            builder.edge(front.id, ORDERED, run)  # the order came first; its run made the rest
        else:
            builder.edge(run, PRODUCES, front.id)
    for link in front.links:
        builder.edge(front.id, link.type, link.target)


def _section_end(headings: tuple[Heading, ...], index: int, end_line: int) -> int:
    level = headings[index].level
    following = (h.line - 1 for h in headings[index + 1 :] if h.level <= level)
    return next(following, end_line)


def _add_sections(
    builder: _Builder, headings: tuple[Heading, ...], end_line: int
) -> dict[int, str]:
    """Section nodes for H2–H6; returns their keys by heading line."""
    anchors = AnchorSet()
    keys: dict[int, str] = {}
    for index, heading in enumerate(headings):
        # H1 takes part in de-duplication, as on GitHub, but is not a section.
        anchor = anchors.add(slug(heading.title))
        if heading.level == 1:
            continue
        key = f"{builder.artifact}#{anchor}"
        data = {
            "anchor": anchor,
            "level": heading.level,
            "title": heading.title,
            "start": heading.line,
            "end": _section_end(headings, index, end_line),
        }
        builder.node(key, SECTION, heading.title, data)
        builder.edge(builder.artifact, HAS_SECTION, key)
        builder.edge(key, DERIVED_FROM, builder.artifact)
        keys[heading.line] = key
    return keys


def item_of(block: ItemBlock, registry: ItemTypeRegistry) -> ItemType | None:
    """The type of an item block that can be extracted, or None (lint reports why not)."""
    item_type = registry.get(block.fence.type_name)
    if item_type is None or not isinstance(block.fields, dict):
        return None
    if block.fields.get(item_type.id_field) in (None, ""):
        return None
    return item_type


def _add_item(
    builder: _Builder, block: ItemBlock, section: str | None, registry: ItemTypeRegistry
) -> None:
    item_type = item_of(block, registry)
    if item_type is None:
        return
    fields = block.fields
    key = item_type.key(fields)
    if key in builder.nodes:
        return
    label = str(fields.get(item_type.label_field) or key)
    data = plain(fields) | {"section": section, "line": block.fence.line}
    builder.node(key, item_type.name, label, data)
    builder.edge(builder.artifact, HAS_ITEM, key)
    builder.edge(key, DERIVED_FROM, builder.artifact)
    for source, edge_type, target in item_type.edges(fields):
        builder.edge(source, edge_type, target)


def _add_citations(builder: _Builder, kinds: tuple[str, ...]) -> None:
    # An artifact naming its own kind would cite itself; that says nothing.
    own_kind = builder.version.front.kind
    for kind in kinds:
        if kind != own_kind:
            builder.edge(builder.artifact, CITES, f"kind:{kind}")


RECORD_REGISTRY = ItemTypeRegistry(())
"""No item types: what a filed work item is derived with."""


def derive(
    version: ArtifactVersion,
    body: str,
    body_line: int,
    registry: ItemTypeRegistry = DEFAULT,
    *,
    scan: BodyScan | None = None,
) -> Derivation:
    """The nodes and edges one artifact version contributes to the graph.

    Args:
        version: The landed version (its front matter and ref).
        body: The Markdown after the front matter.
        body_line: The 1-based file line the body starts on, so line numbers are file lines.
        registry: The item types to extract.
        scan: ``scan_body(body, body_line)`` when the caller has it already.
    """
    if version.front.kind == WORK_ITEM_KIND:
        registry = RECORD_REGISTRY  # an order may quote item blocks; they are not its items
    scan = scan or scan_body(body, body_line)
    builder = _Builder(version)
    _add_artifact(builder)
    sections = _add_sections(builder, scan.headings, scan.end_line)
    _add_citations(builder, scan.citations)
    for block in scan.blocks:
        section = sections.get(block.heading_line) if block.heading_line else None
        _add_item(builder, block, section, registry)
    return builder.derivation()
