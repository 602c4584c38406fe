"""The one YAML loader Studio reads files with: safe, strict about keys, and within limits.

It builds only plain values (never Python objects), refuses a mapping that gives a key twice
(a later value would silently win) and refuses a document that breaks the input limits
(too deep, too long a text, aliases that expand too far) before building anything from it.
Callers turn its errors, which carry the line, into their own.
"""

from typing import Any

import yaml

from studio.model.input_limits import yaml_limit_problem

# libyaml's parser when PyYAML was built with it: many times faster on large documents; the
# pure-Python class behaves the same.
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
        found = yaml_limit_problem(node, self.has_anchors)
        if found is not None:
            problem, where = found
            raise YamlLimitError(problem=problem, problem_mark=where.start_mark)
        return node

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


def load_yaml_text(text: str) -> Any:
    """One YAML document's values; raises ``yaml.YAMLError`` (a ``MarkedYAMLError`` with the
    line for every problem in the text)."""
    loader = SafeYamlLoader(text)
    loader.has_anchors = "&" in text
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()
