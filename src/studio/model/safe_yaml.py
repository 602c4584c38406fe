"""The one YAML reader Studio reads files with: workflow files, front matter, item blocks.

It builds only plain values (never Python objects), refuses a mapping that gives a key twice
(a later value would silently win) and refuses a document that breaks the input limits
(too deep, too long a text, aliases that expand too far) before building anything from it;
``<<`` merge keys apply as YAML says. Callers turn its errors into their own with
``yaml_refusal``, which says what is wrong and on which line of the text.
"""

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from studio.model.input_limits import MAX_DEPTH, MAX_STRING_CHARS, yaml_limit_problem

if TYPE_CHECKING:
    # Checked against the pure-Python loader: libyaml's offers the same composer and
    # constructor methods, which are all this module uses.
    _BaseLoader = yaml.SafeLoader
else:
    # libyaml's parser when PyYAML was built with it: many times faster on large documents;
    # the pure-Python class behaves the same.
    _BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STRING_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_MERGE = object()
"""Stands for the ``<<`` key: given twice, it is a repeated key like any other."""


class YamlLimitError(yaml.MarkedYAMLError):
    """A document that breaks an input limit; ``problem`` says which, ``problem_mark`` where."""


class SafeYamlLoader(_BaseLoader):
    """A safe loader that refuses repeated keys and documents over the input limits."""

    has_anchors = True
    """False when the text holds no ``&``: then it has no anchors, so no aliases either."""

    def get_single_node(self) -> yaml.Node | None:
        """The composed document, checked against the limits before any value is built."""
        node = super().get_single_node()
        self.check_limits(node)
        return node

    def check_limits(self, node: yaml.Node | None) -> None:
        """Raise YamlLimitError if the composed document breaks an input limit."""
        found = yaml_limit_problem(node, self.has_anchors)
        if found is not None:
            problem, where = found
            raise YamlLimitError(problem=problem, problem_mark=where.start_mark)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        """A mapping whose keys, as written, are all different; ``<<`` merges still apply,
        and a key written beside a merge overrides the merged one, as YAML says."""
        keys = [
            key.value
            for key, _ in node.value
            if key.tag == _STRING_TAG and isinstance(key, yaml.ScalarNode)
        ]
        if len(keys) != len(node.value) or len(set(keys)) != len(keys):
            self._check_keys(node)
        return super().construct_mapping(node, deep=deep)

    def _check_keys(self, node: yaml.MappingNode) -> None:
        seen: set = set()
        for key_node, _ in node.value:
            key = _MERGE if key_node.tag == _MERGE_TAG else self._key_of(key_node)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    "while reading a mapping",
                    node.start_mark,
                    f"duplicate key '{key_node.value}'",
                    key_node.start_mark,
                )
            seen.add(key)

    def _key_of(self, key_node: yaml.Node) -> object:
        """A key as Python will see it (``yes`` and ``true`` are one key); only a plain value,
        which JSON can carry as a key too (not a list, a mapping or a date)."""
        if not isinstance(key_node, yaml.ScalarNode):
            raise _not_a_plain_key(key_node)
        if key_node.tag == _STRING_TAG:
            return key_node.value
        key = self.construct_object(key_node, deep=True)
        if not isinstance(key, str | int | float | bool | None):
            raise _not_a_plain_key(key_node)
        return key


def _not_a_plain_key(key_node: yaml.Node) -> yaml.constructor.ConstructorError:
    return yaml.constructor.ConstructorError(
        None,
        None,
        "a key must be a plain value (text, a number, true, false or null), not a list, "
        "a mapping or a date",
        key_node.start_mark,
    )


@dataclass(frozen=True)
class YamlRefusal:
    """Why a YAML text was refused, in the same words whatever the text is for."""

    reason: str
    """"duplicate_key", "limit" (too deep, too long a text, aliases that expand too far) or
    "yaml" (anything else: a syntax error, a key that is not a plain value…)."""
    problem: str
    line: int | None
    """1-based in the text read, when known."""
    column: int | None


def yaml_refusal(failure: yaml.YAMLError) -> YamlRefusal:
    """What a ``yaml.YAMLError`` raised by ``load_yaml_text`` says, and where."""
    if not isinstance(failure, yaml.MarkedYAMLError):
        return YamlRefusal("yaml", str(failure), None, None)
    mark = failure.problem_mark or failure.context_mark
    problem = failure.problem or failure.context or str(failure)
    if isinstance(failure, YamlLimitError):
        reason = "limit"
    elif problem.startswith("duplicate key"):
        reason = "duplicate_key"
    else:
        reason = "yaml"
    if mark is None:
        return YamlRefusal(reason, problem, None, None)
    return YamlRefusal(reason, problem, mark.line + 1, mark.column + 1)


def load_yaml_text(text: str) -> Any:
    """One YAML document's values; raises ``yaml.YAMLError`` (a ``MarkedYAMLError`` with the
    line for every problem in the text). Text of the simplest shape (``read_flat_mapping``)
    is read without building a document: the values are the same."""
    flat = read_flat_mapping(text)
    if flat is not None:
        return flat
    loader = SafeYamlLoader(text)
    loader.has_anchors = "&" in text
    try:
        if loader.has_anchors:
            return loader.get_single_data()
        node = _BaseLoader.get_single_node(loader)  # composed, not checked yet
        if node is None:
            return None
        try:
            return _plain_values(loader, node, 0)
        except _NotPlain:  # as get_single_data builds it
            loader.check_limits(node)
            return loader.construct_document(node)
    finally:
        loader.dispose()


# --- plain documents ---------------------------------------------------------------------
# PyYAML's constructor builds each value through a generic dispatch that costs more than
# composing the document in libyaml. A document without anchors whose mappings have text
# keys, each written once, and whose values are texts, numbers, booleans, nulls, dates and
# lists and mappings of those, is built here directly: the values are the ones the
# constructor would build. Anything else (a merge key, a repeated key, another tag, a limit
# broken) goes to the constructor, which also reports the problems.

_MAPPING_TAG = "tag:yaml.org,2002:map"
_SEQUENCE_TAG = "tag:yaml.org,2002:seq"
_SCALAR_BUILDERS = {
    "tag:yaml.org,2002:null": yaml.SafeLoader.construct_yaml_null,
    "tag:yaml.org,2002:bool": yaml.SafeLoader.construct_yaml_bool,
    "tag:yaml.org,2002:int": yaml.SafeLoader.construct_yaml_int,
    "tag:yaml.org,2002:float": yaml.SafeLoader.construct_yaml_float,
    "tag:yaml.org,2002:timestamp": yaml.SafeLoader.construct_yaml_timestamp,
}
"""The constructor's own methods for the plain scalars other than text."""


class _NotPlain(Exception):
    """A node the direct build leaves to the constructor."""


def _plain_values(loader: SafeYamlLoader, node: yaml.Node, depth: int) -> Any:
    tag = node.tag
    if type(node) is yaml.ScalarNode:
        if len(node.value) > MAX_STRING_CHARS:
            raise _NotPlain
        if tag == _STRING_TAG:
            return node.value
        build = _SCALAR_BUILDERS.get(tag)
        if build is None:
            raise _NotPlain
        try:
            return build(loader, node)
        except Exception as failure:  # the constructor raises it, after its checks
            raise _NotPlain from failure
    if depth == MAX_DEPTH:
        raise _NotPlain
    if tag == _SEQUENCE_TAG and type(node) is yaml.SequenceNode:
        return [_plain_values(loader, child, depth + 1) for child in node.value]
    if tag == _MAPPING_TAG and type(node) is yaml.MappingNode:
        mapping: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag != _STRING_TAG or type(key_node) is not yaml.ScalarNode:
                raise _NotPlain
            key = key_node.value
            if key in mapping or len(key) > MAX_STRING_CHARS:
                raise _NotPlain
            mapping[key] = _plain_values(loader, value_node, depth + 1)
        return mapping
    raise _NotPlain


# --- the flat shape ----------------------------------------------------------------------
# Building every document in Python is the largest cost after the Markdown parse when a
# folder of artifacts lands, and most item blocks are one ``key: value`` per line.

_FLAT_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*): +(.+?) *")
_FLAT_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_./-]*(?: [A-Za-z0-9_./-]+)*")
"""A plain scalar that starts with a letter and holds no YAML indicator characters."""
_FLAT_LIST = re.compile(r"\[(.*)\]")
_RESOLVER = Resolver()


def read_flat_mapping(text: str) -> dict[str, Any] | None:
    """The mapping ``text`` holds if it is one ``key: value`` per line, values plain words
    or flow lists of plain words: exactly what the loader would give. Anything else
    (quotes, comments, nesting, numbers, booleans, dates, repeated keys, anchors…) gives
    None, for the loader, which also reports the problems."""
    if len(text) > MAX_STRING_CHARS:
        return None  # it may hold a text over the limit: the loader, which checks it, says so
    if text.startswith((" ", "\t")) or "\n " in text or "\n\t" in text:
        return None  # an indented line: nesting, which no flat line is
    mapping: dict[str, Any] = {}
    for line in text.splitlines():
        found = _FLAT_LINE.fullmatch(line)
        if found is None:
            return None
        key, value = found.groups()
        if key in mapping:
            return None  # the loader reports the repeated key with its line
        if not _is_plain_string(key):
            return None  # ``yes``, ``null``… are keys of other types
        parsed = _flat_value(value)
        if parsed is None:
            return None
        mapping[key] = parsed
    return mapping or None


def _flat_value(text: str) -> str | list[str] | None:
    listed = _FLAT_LIST.fullmatch(text)
    if listed is None:
        return text if _is_plain_string(text) else None
    inside = listed.group(1).strip()
    if not inside:
        return []
    words = [word.strip() for word in inside.split(",")]
    return words if all(_is_plain_string(word) for word in words) else None


def _is_plain_string(word: str) -> bool:
    """Whether the loader would read the word as this very string."""
    if _FLAT_WORD.fullmatch(word) is None:
        return False
    return _RESOLVER.resolve(ScalarNode, word, (True, False)) == _STRING_TAG
