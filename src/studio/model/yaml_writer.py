"""Block YAML for front matter: mappings of text, whole numbers, booleans, nulls, lists and
mappings, written directly; anything else goes through PyYAML.

A work item's front matter is written at every state change of the item and again when it is
filed, and PyYAML's representer and resolver cost about a tenth of a millisecond for one.
This writer produces the same block layout PyYAML does (a list under a key starts at the key's
column, a mapping under a key two columns in) for the values an envelope holds. A text is left
plain only when it is plainly a text (a conservative character set, and YAML would not read it
as a number, a boolean, a null or a date); otherwise it is double-quoted, escaped the JSON
way, which YAML reads back the same. A value of any other type (a float, a date, a key that is
not text, a list in a list) or a character YAML cannot carry as written hands the whole mapping
to PyYAML, so what is written always reads back as the value given.
"""

import json
import re
from functools import lru_cache
from typing import Any

import yaml
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_STRING_TAG = "tag:yaml.org,2002:str"
_PLAIN = re.compile(r"[A-Za-z0-9_/(][A-Za-z0-9_ ./:@+(),'=~-]*")
"""A text YAML may read without quotes: no indicator first, no comment or flow characters."""
_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
"""Characters a double-quoted JSON string would carry raw and YAML would not read back."""


_LONGEST_KEY = 128
"""Longer keys go to PyYAML, which writes them as ``? key`` (past 128 characters, as here)."""


class _Unwritable(Exception):
    """A value this writer leaves to PyYAML."""


def dump_yaml(data: dict[str, Any]) -> str:
    """``data`` as block YAML, keys in the order given, ending with a newline."""
    lines: list[str] = []
    try:
        _mapping(data, "", lines)
    except _Unwritable:
        return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    return "".join(lines) if data else "{}\n"


def _mapping(data: dict[str, Any], indent: str, lines: list[str], first: str = "") -> None:
    """Lines of a block mapping at ``indent``; ``first`` replaces the first line's indent (a
    list item's ``- ``)."""
    lead = first or indent
    for key, value in data.items():
        written_key = _scalar(key) if isinstance(key, str) else ""
        if not written_key or len(written_key) > _LONGEST_KEY:
            raise _Unwritable  # YAML reads a key written as it is only up to 1,024 characters
        head = f"{lead}{written_key}:"
        lead = indent
        if isinstance(value, dict) and value:
            lines.append(f"{head}\n")
            _mapping(value, indent + "  ", lines)
        elif isinstance(value, list) and value:
            lines.append(f"{head}\n")
            _sequence(value, indent, lines)
        else:
            lines.append(f"{head} {_scalar(value)}\n")


def _sequence(items: list[Any], indent: str, lines: list[str]) -> None:
    for value in items:
        if isinstance(value, dict) and value:
            _mapping(value, indent + "  ", lines, first=f"{indent}- ")
        elif isinstance(value, list) and value:
            raise _Unwritable
        else:
            lines.append(f"{indent}- {_scalar(value)}\n")


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return str(value)
    if type(value) is str:
        return _text(value)
    if value == {}:
        return "{}"
    if value == []:
        return "[]"
    raise _Unwritable


@lru_cache(maxsize=4096)
def _text(value: str) -> str:
    if _PLAIN.fullmatch(value) and _reads_as_text(value) and _plain_shape(value):
        return value
    if _UNSAFE.search(value):
        raise _Unwritable
    return json.dumps(value, ensure_ascii=False)


def _plain_shape(value: str) -> bool:
    """No trailing space, no ``: `` (a key inside the value) and no ``:`` at the end."""
    return not value.endswith((" ", ":")) and ": " not in value


def _reads_as_text(value: str) -> bool:
    return Resolver().resolve(ScalarNode, value, (True, False)) == _STRING_TAG
