"""Limits on data Studio reads from outside: files, ``--input`` and what agents return.

Anything deeper, longer or larger than these is refused with a message naming the place, so
that no later step (validation, redaction, storage, the canvas) recurses without end or
expands a few lines of YAML into gigabytes.
"""

import json
import math
from collections.abc import Iterator
from itertools import chain
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode

MAX_DEPTH = 200
"""Lists and mappings may nest this many levels deep, no deeper."""

MAX_STRING_CHARS = 1_000_000
"""The longest text (a string value or a key) accepted, in characters."""

MAX_ALIAS_VALUES = 1_000_000
"""How many values YAML aliases may repeat in one document, counted as if each were copied."""

MAX_ALIAS_CHARS = 10_000_000
"""How many characters of text YAML aliases may repeat in one document."""

_SHOWN_PATH_PARTS = 8
_SHOWN_KEY_CHARS = 40


class InputLimitError(ValueError):
    """Data that is nested too deep, holds too long a text or has a number JSON cannot carry."""


def too_deep(place: str = "") -> str:
    """The message for data nested deeper than MAX_DEPTH, at ``place`` when known."""
    return _at(place, f"nested deeper than {MAX_DEPTH} levels")


def too_long(length: int, place: str = "") -> str:
    """The message for a text of ``length`` characters over MAX_STRING_CHARS."""
    return _at(place, f"a text of {length:,} characters; at most {MAX_STRING_CHARS:,} are allowed")


def not_finite(place: str = "") -> str:
    """The message for an infinite or not-a-number value."""
    return _at(place, "numbers must be finite")


def parse_json_text(text: str, **options: Any) -> Any:
    """``json.loads`` that reports text nested too deep for the parser as an InputLimitError
    (the parser gives up near 1,000 levels, long before memory would); other errors are
    ``json.JSONDecodeError`` as usual. Check the result with ``limit_problem``."""
    try:
        return json.loads(text, **options)
    except RecursionError:
        raise InputLimitError(too_deep()) from None


def load_json_within_limits(text: str) -> Any:
    """JSON text as data held to the limits: raises InputLimitError saying what breaks one
    (or ``json.JSONDecodeError`` for text that is not JSON)."""
    data = parse_json_text(text)
    check_limits(data)
    return data


def limit_problem(data: Any, *, finite: bool = True) -> str | None:
    """What makes loaded data break a limit, with its place (``nodes[0].name``), or None.

    Checks nesting depth, text length (keys included) and, with ``finite``, infinite and
    not-a-number floats. The walk is a loop over levels, never a recursion."""
    if not _breaks_a_limit(data, finite):
        return None
    return _first_problem(data, finite)


def check_limits(data: Any, *, finite: bool = True) -> None:
    """Raise InputLimitError with the message of ``limit_problem``, if there is one."""
    problem = limit_problem(data, finite=finite)
    if problem is not None:
        raise InputLimitError(problem)


def _breaks_a_limit(data: Any, finite: bool) -> bool:
    """Whether anything in ``data`` breaks a limit; the fast pass, which knows no places."""
    level, depth = [data], 0
    while level:
        below: list[Any] = []
        for value in level:
            if isinstance(value, str):
                if len(value) > MAX_STRING_CHARS:
                    return True
            elif isinstance(value, float):
                if finite and not math.isfinite(value):
                    return True
            elif isinstance(value, dict):
                if depth == MAX_DEPTH:
                    return True
                below.extend(value)  # keys are texts too
                below.extend(value.values())
            elif isinstance(value, list | tuple):
                if depth == MAX_DEPTH:
                    return True
                below.extend(value)
        level, depth = below, depth + 1
    return False


def _first_problem(data: Any, finite: bool) -> str | None:
    """The first problem in document order, with its place; run only once one is known."""
    for path, value, depth in _walk(data):
        if isinstance(value, str) and len(value) > MAX_STRING_CHARS:
            return too_long(len(value), format_place(path))
        if isinstance(value, float) and finite and not math.isfinite(value):
            return not_finite(format_place(path))
        if isinstance(value, dict | list | tuple) and depth > MAX_DEPTH:
            return too_deep(format_place(path))
    return None


def _walk(data: Any) -> Iterator[tuple[tuple, Any, int]]:
    """Every value with its path and the number of lists and mappings it sits in, itself
    included; keys are visited as values of their own path. Stops going down past the limit."""
    stack: list[tuple[tuple, Any, int]] = [((), data, 0)]
    while stack:
        path, value, outer = stack.pop()
        depth = outer + 1 if isinstance(value, dict | list | tuple) else outer
        yield path, value, depth
        if depth > MAX_DEPTH:
            continue
        if isinstance(value, dict):
            for key, item in reversed(list(value.items())):
                stack.append(((*path, key), item, depth))
                stack.append(((*path, key), key, depth))
        elif isinstance(value, list | tuple):
            for index in range(len(value) - 1, -1, -1):
                stack.append(((*path, index), value[index], depth))


def yaml_limit_problem(root: Node | None, has_anchors: bool = True) -> tuple[str, Node] | None:
    """What makes a composed YAML document break a limit, and the node where, or None.

    Runs before the document is built into Python values: aliases are counted as if each
    were a copy (a "billion laughs" document is refused without being expanded) and an alias
    inside the value it names is refused, as nothing could walk such a value to its end.
    ``has_anchors`` False (the text has no ``&``, so no alias) skips looking for aliases."""
    if root is None:
        return None
    found, aliased = _written_node_problem(root, has_anchors)
    if found is None and aliased:
        found = _alias_problem(root)
    return found


def _written_node_problem(root: Node, has_anchors: bool) -> tuple[tuple[str, Node] | None, bool]:
    """Depth and text length over the nodes as written, each visited once; and whether any
    node is reached twice (through an alias), which needs the slower count."""
    seen: set[int] | None = set() if has_anchors else None
    aliased = False
    level, depth = [root], 0
    while level:
        below: list[Node] = []
        for node in level:
            if seen is not None:
                if id(node) in seen:
                    aliased = True
                    continue
                seen.add(id(node))
            value = node.value
            if isinstance(value, str):
                if len(value) > MAX_STRING_CHARS:
                    return (too_long(len(value)), node), aliased
            elif depth == MAX_DEPTH:
                return (too_deep(), node), aliased
            else:
                below.extend(chain.from_iterable(value) if isinstance(node, MappingNode) else value)
        level, depth = below, depth + 1
    return None, aliased


def _alias_problem(root: Node) -> tuple[str, Node] | None:
    """The size and depth of the document with every alias expanded, computed once per node."""
    sizes: dict[int, tuple[int, int, int]] = {}
    """id of a list or mapping node -> (values, characters, depth) of its expansion"""
    distinct: dict[int, int] = {}
    """id of every node -> its characters, for the size of the document as written"""
    open_nodes: set[int] = set()
    stack = [root]
    while stack:
        node = stack[-1]
        key = id(node)
        if key in sizes:
            stack.pop()
            continue
        children = _children(node)
        if key not in open_nodes:
            open_nodes.add(key)
            distinct[key] = 0
            for child in children:
                if isinstance(child, ScalarNode):
                    distinct[id(child)] = len(child.value)
                elif id(child) in open_nodes:
                    return "an alias is used inside the value it names", child
                elif id(child) not in sizes:
                    stack.append(child)
            continue
        sizes[key] = _expanded_size(children, sizes)
        open_nodes.discard(key)
        stack.pop()
        values, characters, depth = sizes[key]
        if depth > MAX_DEPTH:
            return too_deep(), node
    values, characters, _ = sizes[id(root)]
    repeated_values = values - len(distinct)
    repeated_chars = characters - sum(distinct.values())
    if repeated_values > MAX_ALIAS_VALUES or repeated_chars > MAX_ALIAS_CHARS:
        message = (
            f"aliases repeat {repeated_values:,} values and {repeated_chars:,} characters; at "
            f"most {MAX_ALIAS_VALUES:,} values and {MAX_ALIAS_CHARS:,} characters are allowed"
        )
        return message, _first_oversized(root, sizes)
    return None


def _children(node: Node) -> list[Node]:
    if isinstance(node, ScalarNode):
        return []
    return list(chain.from_iterable(node.value)) if isinstance(node, MappingNode) else node.value


def _expanded_size(
    children: list[Node], sizes: dict[int, tuple[int, int, int]]
) -> tuple[int, int, int]:
    values, characters, depth = 1, 0, 0
    for child in children:
        if isinstance(child, ScalarNode):
            values, characters = values + 1, characters + len(child.value)
        else:
            child_values, child_characters, child_depth = sizes[id(child)]
            values, characters = values + child_values, characters + child_characters
            depth = max(depth, child_depth)
    return values, characters, depth + 1


def _first_oversized(root: Node, sizes: dict[int, tuple[int, int, int]]) -> Node:
    """Where the expansion outgrows the limits: the smallest value that alone is too big."""
    node = root
    while True:
        bigger = [
            child
            for child in _children(node)
            if id(child) in sizes
            and (sizes[id(child)][0] > MAX_ALIAS_VALUES or sizes[id(child)][1] > MAX_ALIAS_CHARS)
        ]
        if not bigger:
            return node
        node = bigger[0]


def format_place(path: tuple) -> str:
    """A path like ('nodes', 0, 'name') as ``nodes[0].name``; very long ones are cut short."""
    text = ""
    for part in path[:_SHOWN_PATH_PARTS]:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            name = str(part)
            name = name if len(name) <= _SHOWN_KEY_CHARS else name[:_SHOWN_KEY_CHARS] + "…"
            text += f".{name}" if text else name
    return text + ("…" if len(path) > _SHOWN_PATH_PARTS else "")


def _at(place: str, message: str) -> str:
    return f"{place}: {message}" if place else message
