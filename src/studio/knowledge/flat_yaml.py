"""A fast reading of the YAML most item blocks are written in: one ``key: value`` per line,
values plain words or flow lists of plain words.

PyYAML's loader builds every document in Python, which makes it the largest cost after the
Markdown parse when a folder lands. Text of this simple shape is read here instead, giving
exactly what PyYAML would give; anything else (quotes, comments, nesting, numbers, booleans,
dates, repeated keys…) returns None and goes to PyYAML, which also reports the problems."""

import re
from typing import Any

from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from studio.model.input_limits import MAX_STRING_CHARS

_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*): +(.+?) *")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_./-]*(?: [A-Za-z0-9_./-]+)*")
"""A plain scalar that starts with a letter and holds no YAML indicator characters."""
_LIST = re.compile(r"\[(.*)\]")
_RESOLVER = Resolver()
_STRING = "tag:yaml.org,2002:str"


def read_flat_mapping(text: str) -> dict[str, Any] | None:
    """The mapping ``text`` holds if it has the simple shape, else None."""
    if len(text) > MAX_STRING_CHARS:
        return None  # it may hold a text over the limit: the loader, which checks it, says so
    mapping: dict[str, Any] = {}
    for line in text.splitlines():
        found = _LINE.fullmatch(line)
        if found is None:
            return None
        key, value = found.groups()
        if key in mapping:
            return None  # PyYAML reports the repeated key with its line
        parsed = _value(value)
        if parsed is None:
            return None
        mapping[key] = parsed
    return mapping or None


def _value(text: str) -> str | list[str] | None:
    listed = _LIST.fullmatch(text)
    if listed is None:
        return text if _is_string(text) else None
    inside = listed.group(1).strip()
    if not inside:
        return []
    words = [word.strip() for word in inside.split(",")]
    return words if all(_is_string(word) for word in words) else None


def _is_string(word: str) -> bool:
    """Whether PyYAML would read the word as this very string."""
    if _WORD.fullmatch(word) is None:
        return False
    return _RESOLVER.resolve(ScalarNode, word, (True, False)) == _STRING
