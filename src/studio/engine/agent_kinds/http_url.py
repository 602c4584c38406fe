"""The URL of an http agent's request, built from its template so that substituted values
stay data.

The scheme, host and port must be written out in the template (a substitution there is an
InvalidAgent, by the same rule publishing applies). A value substituted into the path is
percent-encoded as part of one segment: ``/``, ``?``, ``#`` and ``%`` cannot end it, and a
segment a value makes ``.`` or ``..`` has its dots encoded, so it never means "this folder"
or "the parent". A value in the query is encoded as one query value (``&``, ``=`` and ``#``
included). The fragment is never sent, so it is not rendered. Written text is kept as written.
"""

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from studio.engine.agent_kinds.base import AgentCall
from studio.engine.agent_kinds.settings import invalid_agent, template_failure
from studio.engine.rules.templates import Piece, TemplateError, pieces, reference_text
from studio.model.agent_setting_rules import url_origin_is_literal

_DOT_SEGMENTS = frozenset({".", ".."})
_PATH, _QUERY, _FRAGMENT = "path", "query", "fragment"
_ENDS = {_PATH: "?#", _QUERY: "#"}
"""The written characters that end each part of the URL."""
_NEXT = {"?": _QUERY, "#": _FRAGMENT}


def request_url(call: AgentCall, template: Any) -> str:
    """The URL to request: the template's written origin, then its rendered path and query."""
    if not isinstance(template, str):
        raise invalid_agent(call, "url", f"must be a string, not {type(template).__name__}")
    if not url_origin_is_literal(template):
        raise invalid_agent(
            call,
            "url",
            "must write out its scheme, host and port in full (https://host:port/…); "
            "a ${…} substitution may stand only in the path or the query",
        )
    try:
        origin, rest = _split_origin(pieces(template))
        builder = _UrlBuilder(template, call.template_context())
        for piece in rest:
            builder.add(piece)
    except TemplateError as failure:
        raise template_failure(call, "url", failure) from None
    return origin + builder.path_and_query()


def _split_origin(parts: list[Piece]) -> tuple[str, list[Piece]]:
    """The written ``scheme://host:port`` and the pieces after it."""
    head = parts[0].text if parts and parts[0].reference is None else ""
    _scheme, separator, after = head.partition("://")
    if not separator:
        return "", parts
    cut = min((after.index(mark) for mark in "/?#" if mark in after), default=len(after))
    end = len(head) - len(after) + cut
    return head[:end], [Piece(head[end:]), *parts[1:]]


@dataclass
class _UrlBuilder:
    """Collects the path's segments and the query, encoding what substitutions bring."""

    template: str
    context: dict[str, Any]
    part: str = _PATH
    segments: list[str] = field(default_factory=lambda: [""])
    substituted: set[int] = field(default_factory=set)
    query: list[str] = field(default_factory=list)
    has_query: bool = False

    def add(self, piece: Piece) -> None:
        """Add written text as it is, or a reference's value encoded for where it stands."""
        if self.part == _FRAGMENT:
            return  # never sent, so never rendered
        if piece.reference is None:
            self._add_written(piece.text)
            return
        value = quote(reference_text(self.template, piece.reference, self.context), safe="")
        if self.part == _PATH:
            self.segments[-1] += value
            self.substituted.add(len(self.segments) - 1)
        else:
            self.query.append(value)

    def path_and_query(self) -> str:
        """The encoded path, then ``?`` and the query when the template has one."""
        segments = [
            segment.replace(".", "%2E")
            if index in self.substituted and segment in _DOT_SEGMENTS
            else segment
            for index, segment in enumerate(self.segments)
        ]
        path = "/".join(segments)
        return f"{path}?{''.join(self.query)}" if self.has_query else path

    def _add_written(self, text: str) -> None:
        while text and self.part != _FRAGMENT:
            ends = [text.index(mark) for mark in _ENDS[self.part] if mark in text]
            cut = min(ends, default=len(text))
            self._append(text[:cut])
            if cut < len(text):
                self.part = _NEXT[text[cut]]
                self.has_query |= text[cut] == "?"
            text = text[cut + 1 :]

    def _append(self, written: str) -> None:
        if self.part == _QUERY:
            self.query.append(written)
            return
        first, *more = written.split("/")
        self.segments[-1] += first
        self.segments.extend(more)
