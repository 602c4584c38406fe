"""An artifact's text (front matter and Markdown) as HTML for Qt's rich-text browser.

The body is CommonMark with tables (markdown-it-py). Raw HTML in the text is shown as text,
images as their alt text (nothing is ever loaded), and links with a dangerous scheme are not
links. Fenced code is coloured by Pygments with inline styles, since Qt's rich text reads only
a little CSS. A fence that holds a registered typed item (```yaml story```) becomes a card:
its type and id as the heading, then its fields. The front matter comes first, as a property
table.

Citations (``[[kind]]``), relationship fields of items and the front matter's links point at
graph nodes. What a node's address is depends on the view (a view of one subject names nodes
by their plain key), so the caller passes ``node_href(subject, key)``; it is asked with the
key the store derives: an artifact's id, an item's key, ``run:<execution>`` for the run that
produced it, and ``kind:<kind>`` for a citation (the current artifact of that kind).
"""

import html
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.lexers.special import TextLexer
from pygments.styles import get_style_by_name
from pygments.util import ClassNotFound

from studio.knowledge.derivation import AnchorSet, heading_text, slug
from studio.knowledge.front_matter import (
    ArtifactFormatError,
    load_yaml,
    plain,
    split_artifact,
    supersedes_ref,
)
from studio.knowledge.item_types import DEFAULT_REGISTRY, ItemType, ItemTypeRegistry

NodeHref = Callable[[str, str], str | None]
"""``node_href(subject, key)``: the address a link to that node gets, or None for no link."""

NODE_SCHEME = "studio-node"
VERSION_SCHEME = "studio-version"

_CITATION_OPEN = "[["
_CITATION_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
_FRONT_ORDER = ("id", "kind", "subject", "title", "created_at", "produced_by", "supersedes")


@dataclass(frozen=True)
class Look:
    """The colours the HTML uses; text itself keeps the browser's palette colour."""

    border: str
    heading_fill: str
    muted: str
    warning: str
    code_style: str

    @property
    def code_fill(self) -> str:
        """The background of a code block: the Pygments style's own."""
        return get_style_by_name(self.code_style).background_color


LIGHT = Look("#c9ccd1", "#eef1f5", "#5f6368", "#b3261e", "default")
DARK = Look("#55585c", "#2f3237", "#a0a4a8", "#ff8a80", "monokai")


def node_link(node_id: str) -> str:
    """The address of a link to a graph node: ``studio-node:<id>``, the id percent-encoded."""
    return f"{NODE_SCHEME}:{quote(node_id, safe='')}"


def version_link(ref: str) -> str:
    """The address of a link to an artifact version: ``studio-version:<ref>``."""
    return f"{VERSION_SCHEME}:{quote(ref, safe='')}"


def target_of(href: str, scheme: str) -> str | None:
    """The node id or ref a ``studio-node:`` / ``studio-version:`` address names, else None."""
    prefix = f"{scheme}:"
    if not href.startswith(prefix):
        return None
    return unquote(href.removeprefix(prefix)) or None


def plain_node_href(_subject: str, key: str) -> str:
    """Links by plain key, as a view of one subject names its nodes."""
    return node_link(key)


@dataclass(frozen=True)
class _Context:
    """What the render rules need besides the tokens, handed through markdown-it's env."""

    subject: str
    node_href: NodeHref
    look: Look
    registry: ItemTypeRegistry
    anchors: AnchorSet

    def anchor(self, key: str, text: str) -> str:
        """``text`` (escaped) as a link to the node ``key``, or as plain text."""
        href = self.node_href(self.subject, key)
        if href is None:
            return _escape(text)
        return f'<a href="{_escape(href)}">{_escape(text)}</a>'


def _escape(value: object) -> str:
    return html.escape(str(value), quote=True)


# --- inline citations ------------------------------------------------------------------------


def _citation(state: StateInline, silent: bool) -> bool:
    """Inline rule: ``[[kind]]`` becomes a citation token (a slug of lower-case words)."""
    start = state.pos
    if not state.src.startswith(_CITATION_OPEN, start):
        return False
    end = state.src.find("]]", start + 2, state.posMax + 1)
    kind = state.src[start + 2 : end] if end > start + 2 else ""
    if not kind or not set(kind) <= _CITATION_CHARS or kind.startswith("-"):
        return False
    if not silent:
        state.push("citation", "", 0).content = kind
    state.pos = end + 2
    return True


def _render_citation(
    _renderer: RendererHTML, tokens: list[Token], idx: int, _options: OptionsDict, env: EnvType
) -> str:
    context: _Context = env["context"]
    kind = tokens[idx].content
    return context.anchor(f"kind:{kind}", f"[[{kind}]]")


# --- blocks ----------------------------------------------------------------------------------


def _render_heading_open(
    _renderer: RendererHTML, tokens: list[Token], idx: int, _options: OptionsDict, env: EnvType
) -> str:
    """A heading with the anchor derivation gives its section, so ``#anchor`` links work."""
    context: _Context = env["context"]
    anchor = context.anchors.add(slug(heading_text(tokens[idx + 1].content)))
    return f'<{tokens[idx].tag}><a name="{_escape(anchor)}"></a>'


def _render_image(
    _renderer: RendererHTML, tokens: list[Token], idx: int, _options: OptionsDict, env: EnvType
) -> str:
    """An image is never loaded: its alt text stands in for it."""
    context: _Context = env["context"]
    alt = tokens[idx].content or "image"
    return f'<span style="color: {context.look.muted}">[image: {_escape(alt)}]</span>'


def _render_table_open(
    _renderer: RendererHTML, _tokens: list[Token], _idx: int, _options: OptionsDict, env: EnvType
) -> str:
    context: _Context = env["context"]
    return _table_open(context.look, width="")


def _table_open(look: Look, width: str = ' width="100%"') -> str:
    style = (
        f"border-collapse: collapse; border-style: solid; border-color: {look.border}; "
        "margin: 8px 0"
    )
    return f'<table border="1" cellspacing="0" cellpadding="5"{width} style="{style}">\n'


def _render_fence(
    _renderer: RendererHTML, tokens: list[Token], idx: int, _options: OptionsDict, env: EnvType
) -> str:
    context: _Context = env["context"]
    token = tokens[idx]
    words = token.info.split()
    if len(words) >= 2 and words[0] == "yaml":
        card = _item_card(words[1], token.content, context)
        if card is not None:
            return card
    return code_block(token.content, words[0] if words else "", context.look)


def code_block(code: str, language: str, look: Look) -> str:
    """Code coloured by Pygments with inline styles, in a shaded box."""
    formatter = HtmlFormatter(noclasses=True, nowrap=True, style=look.code_style)
    coloured = highlight(code, _lexer(language), formatter)
    return (
        f'<table width="100%" cellspacing="0" cellpadding="8" bgcolor="{look.code_fill}" '
        f'style="margin: 8px 0"><tr><td><pre>{coloured.rstrip()}</pre></td></tr></table>\n'
    )


def _lexer(language: str) -> Lexer:
    if language:
        try:
            return get_lexer_by_name(language)
        except ClassNotFound:
            pass
    return TextLexer()


# --- typed item cards ------------------------------------------------------------------------


def _item_card(type_name: str, content: str, context: _Context) -> str | None:
    """A registered item as a card, or None when it is not one (it is shown as code)."""
    item_type = context.registry.get(type_name)
    if item_type is None:
        return None
    try:
        fields = load_yaml(content)
    except ArtifactFormatError:
        return None
    if not isinstance(fields, dict) or fields.get(item_type.id_field) in (None, ""):
        return None
    return _card_html(item_type, plain(fields), context)


def _card_html(item_type: ItemType, fields: dict[str, Any], context: _Context) -> str:
    """A bordered table: the item's type, id (a link to its node) and label, then its other
    fields in the type's order, unknown ones last."""
    look = context.look
    label = fields.get(item_type.label_field)
    item_id = context.anchor(item_type.key(fields), str(fields[item_type.id_field]))
    heading = f"{_escape(item_type.name)} {item_id}"
    if label not in (None, ""):
        heading += f" &nbsp;{_escape(label)}"
    shown = (item_type.id_field, item_type.label_field)
    names = [n for n in item_type.fields if n in fields and n not in shown]
    names += [n for n in fields if n not in item_type.fields]
    rows = "".join(_card_row(item_type, name, fields[name], context) for name in names)
    return (
        f"{_table_open(look)}"
        f'<tr><th colspan="2" align="left" bgcolor="{look.heading_fill}">{heading}</th></tr>\n'
        f"{rows}</table>\n"
    )


def _card_row(item_type: ItemType, name: str, value: Any, context: _Context) -> str:
    relation = item_type.relations.get(name)
    if relation is None or not isinstance(value, str | list):
        shown = _value_html(value)
    else:
        targets = [value] if isinstance(value, str) else value
        shown = ", ".join(
            context.anchor(f"{relation.target_prefix}{target}", str(target)) for target in targets
        )
    return _property_row(name, shown, context.look)


def _property_row(name: str, value_html: str, look: Look) -> str:
    return (
        f'<tr><td width="22%" style="color: {look.muted}">{_escape(name)}</td>'
        f"<td>{value_html}</td></tr>\n"
    )


def _value_html(value: Any) -> str:
    """A YAML value as escaped text: lists joined by commas, mappings as ``key: value``."""
    if isinstance(value, list):
        return ", ".join(_value_html(item) for item in value)
    if isinstance(value, dict):
        return "; ".join(f"{_escape(key)}: {_value_html(item)}" for key, item in value.items())
    if value is None:
        return ""
    return _escape(value).replace("\n", "<br>")


# --- front matter ----------------------------------------------------------------------------


def _front_matter_table(front: dict[str, Any], context: _Context) -> str:
    """The front matter as a property table, its known fields first and linked."""
    names = [n for n in _FRONT_ORDER if n in front]
    names += [n for n in front if n not in _FRONT_ORDER]
    rows = "".join(
        _property_row(str(name), _front_value(name, front, context), context.look) for name in names
    )
    return f"{_table_open(context.look)}{rows}</table>\n"


def _front_value(name: str, front: dict[str, Any], context: _Context) -> str:
    value = plain(front[name])
    if name == "id" and isinstance(value, str):
        return context.anchor(value, value)
    if name == "produced_by" and isinstance(value, dict):
        return _produced_by_html(value, context)
    if name == "supersedes":
        ref = supersedes_ref(front)
        if ref is not None:
            return f'<a href="{_escape(version_link(ref))}">{_escape(value)}</a>'
    if name == "links" and isinstance(value, list):
        return "<br>".join(_link_html(link, context) for link in value)
    return _value_html(value)


def _produced_by_html(produced_by: dict[str, Any], context: _Context) -> str:
    parts = []
    for key, value in produced_by.items():
        shown = _value_html(value)
        if key == "execution" and isinstance(value, str):
            shown = context.anchor(f"run:{value}", value)
        parts.append(f"{_escape(key)}: {shown}")
    return "; ".join(parts)


def _link_html(link: Any, context: _Context) -> str:
    if not isinstance(link, dict) or not isinstance(link.get("target"), str):
        return _value_html(link)
    return f"{_escape(link.get('type', ''))} {context.anchor(link['target'], link['target'])}"


# --- the whole artifact ----------------------------------------------------------------------


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.inline.ruler.before("link", "citation", _citation)
    md.add_render_rule("citation", _render_citation)
    md.add_render_rule("heading_open", _render_heading_open)
    md.add_render_rule("image", _render_image)
    md.add_render_rule("table_open", _render_table_open)
    md.add_render_rule("fence", _render_fence)
    return md


_MARKDOWN = _markdown()


def render_artifact(
    text: str,
    node_href: NodeHref = plain_node_href,
    dark: bool = False,
    registry: ItemTypeRegistry = DEFAULT_REGISTRY,
) -> str:
    """The HTML of an artifact's text: its front matter table, then its rendered body.

    Args:
        text: The artifact as stored: YAML front matter between ``---`` lines, then Markdown.
        node_href: The address of a link to a node, given its subject and key (see the module
            docstring); None leaves the name as plain text.
        dark: Colours for a dark window.
        registry: The item types shown as cards.
    """
    look = DARK if dark else LIGHT
    try:
        front, body, _body_line = split_artifact(text)
    except ArtifactFormatError as failure:
        return unreadable_html(text, failure, look)
    subject = front.get("subject")
    context = _Context(
        str(subject) if subject is not None else "", node_href, look, registry, AnchorSet()
    )
    table = _front_matter_table(front, context)
    return table + _MARKDOWN.render(body, {"context": context})


def unreadable_html(text: str, failure: ArtifactFormatError, look: Look) -> str:
    """A text whose front matter cannot be read: the reason, then the text as it is."""
    where = f" (line {failure.line})" if failure.line is not None else ""
    return (
        f'<p style="color: {look.warning}"><b>The front matter cannot be read{where}:</b> '
        f"{_escape(failure.message)}</p>\n" + code_block(text, "", look)
    )


def message_html(title: str, lines: Iterable[str], dark: bool = False) -> str:
    """A message in place of an artifact: a title in the warning colour, then its lines."""
    look = DARK if dark else LIGHT
    body = "".join(f"<p>{_escape(line)}</p>\n" for line in lines)
    return f'<h3 style="color: {look.warning}">{_escape(title)}</h3>\n{body}'
