"""``${root.path}`` substitution in JSON templates, with a small hand-written grammar.

A string that is exactly one ``${...}`` becomes the referenced value with its JSON type kept;
a ``${...}`` inside a longer string is replaced by the value as text (strings as they are,
anything else as compact JSON). ``$${`` writes a literal ``${``. Paths use the grammar of
:mod:`studio.engine.rules.paths`; nothing is ever evaluated. A reference that leads nowhere raises
TemplateError: a missing value is never replaced by a made-up one.

Dictionary keys are not templates; only values are rendered.
"""

import copy
import json
from collections.abc import Mapping
from typing import Any, NamedTuple

from studio.engine.rules.paths import InvalidPath, PathNotFound, parse_path, resolve_path

_OPEN = "${"
_CLOSE = "}"
_SHOWN_TEMPLATE_CHARS = 200


class TemplateError(ValueError):
    """A template is malformed or refers to a value that is not in the context."""

    def __init__(self, template: str, reason: str, reference: str | None = None):
        shown = (
            template
            if len(template) <= _SHOWN_TEMPLATE_CHARS
            else template[:_SHOWN_TEMPLATE_CHARS] + "…"
        )
        super().__init__(f"template '{shown}': {reason}")
        self.template = template
        self.reference = reference
        self.reason = reason


def render(template: Any, context: Mapping[str, Any]) -> Any:
    """Substitute every ``${...}`` in the strings of a JSON template; see the module notes."""
    if isinstance(template, str):
        return _render_string(template, context)
    if isinstance(template, Mapping):
        return {key: render(value, context) for key, value in template.items()}
    if isinstance(template, list | tuple):
        return [render(item, context) for item in template]
    return template


def render_text(template: str, context: Mapping[str, Any]) -> str:
    """Render one string template and always return text, even for a whole-value reference."""
    return _substitute(template, context)


def as_text(value: Any) -> str:
    """How a value reads inside a longer string: strings as they are, the rest as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _render_string(template: str, context: Mapping[str, Any]) -> Any:
    reference = _whole_reference(template)
    if reference is not None:
        # A copy, so that changing an output never changes the input it came from.
        return copy.deepcopy(_lookup(template, reference, context))
    return _substitute(template, context)


def _whole_reference(template: str) -> str | None:
    """The path of a template that is exactly one ``${...}``, else None."""
    if not (template.startswith(_OPEN) and template.endswith(_CLOSE)):
        return None
    inner = template[len(_OPEN) : -len(_CLOSE)]
    return None if _CLOSE in inner else inner


class Piece(NamedTuple):
    """A run of literal text (``reference`` is None) or one ``${reference}``."""

    text: str
    reference: str | None = None


def pieces(template: str) -> list[Piece]:
    """A string template split into references and the literal text between them (``$${``
    already unescaped), for callers that treat substituted text differently from written text."""
    found: list[Piece] = []
    position = 0
    while (start := template.find(_OPEN, position)) >= 0:
        if start > position and template[start - 1] == "$":
            # ``$${`` is an escaped, literal ``${``.
            found += [Piece(template[position : start - 1]), Piece(_OPEN)]
            position = start + len(_OPEN)
            continue
        end = template.find(_CLOSE, start + len(_OPEN))
        if end < 0:
            raise TemplateError(template, f"'{_OPEN}' at position {start} is not closed")
        found += [Piece(template[position:start]), Piece("", template[start + len(_OPEN) : end])]
        position = end + len(_CLOSE)
    found.append(Piece(template[position:]))
    merged: list[Piece] = []
    for piece in found:
        if merged and piece.reference is None and merged[-1].reference is None:
            merged[-1] = Piece(merged[-1].text + piece.text)
        elif piece.text or piece.reference is not None:
            merged.append(piece)
    return merged


def reference_text(template: str, reference: str, context: Mapping[str, Any]) -> str:
    """The value of one reference of ``template``, as it reads inside a longer string."""
    return as_text(_lookup(template, reference, context))


def _substitute(template: str, context: Mapping[str, Any]) -> str:
    return "".join(_piece_text(template, piece, context) for piece in pieces(template))


def _piece_text(template: str, piece: Piece, context: Mapping[str, Any]) -> str:
    if piece.reference is None:
        return piece.text
    return reference_text(template, piece.reference, context)


def _lookup(template: str, reference: str, context: Mapping[str, Any]) -> Any:
    try:
        steps = parse_path(reference)
    except InvalidPath as invalid:
        raise TemplateError(template, str(invalid), reference) from None
    if steps[0] not in context:
        roots = ", ".join(sorted(context)) or "none"
        reason = f"'{reference}' starts with '{steps[0]}', which is not one of: {roots}"
        raise TemplateError(template, reason, reference)
    try:
        return resolve_path(dict(context), steps)
    except PathNotFound as missing:
        raise TemplateError(template, f"'{reference}' has no value: {missing}", reference) from None
