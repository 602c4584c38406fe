"""Where in a workflow file a problem is: the line of the key or list entry it is about.

A file's problems name a path (``nodes[1].retryPolicy.maxRetries``), a node or an edge; this
module finds the line that path, node or edge is written on, so a message can point a person
at it. JSON is read with the YAML composer too (JSON is YAML's flow style), tabs first made
spaces, which JSON allows only between tokens. A text the composer cannot follow gives no
lines; a problem is then shown without one.
"""

import re
from collections.abc import Callable, Mapping
from typing import Any

import yaml

from studio.model.problems import Problem
from studio.model.safe_yaml import SafeYamlLoader

Location = tuple[str | int, ...]
_PATH_PART = re.compile(r"\[(\d+)\]|\.?([^.\[\]]+)")


class SourceLines:
    """The line (counted from 1) each key and list entry of a YAML or JSON text starts on."""

    def __init__(self, lines: Mapping[Location, int]) -> None:
        self._lines = dict(lines)

    @classmethod
    def of_text(cls, text: str, fmt: str) -> "SourceLines":
        """The lines of ``text`` (format ``yaml`` or ``json``); none when it cannot be read."""
        loader = SafeYamlLoader(text.replace("\t", " ") if fmt == "json" else text)
        try:
            root = loader.get_single_node()
        except yaml.YAMLError:
            return cls({})
        finally:
            loader.dispose()
        lines: dict[Location, int] = {}
        if root is not None:
            _collect(root, (), lines, set())
        return cls(lines)

    def line_of(self, location: Location) -> int | None:
        """The line of ``location``, or of the nearest written place that holds it (the list
        entry a missing key belongs in); None when nothing of it is written."""
        for end in range(len(location), -1, -1):
            line = self._lines.get(location[:end])
            if line is not None:
                return line
        return None

    def line_of_problem(self, problem: Problem, data: Any) -> int | None:
        """The line a problem is about: its path, else its node's or its edge's entry."""
        location = problem_location(problem, data)
        return None if location is None else self.line_of(location)


def problem_location(problem: Problem, data: Any) -> Location | None:
    """Where in the loaded ``data`` a problem points: its path, or the entry of its node or
    edge (found by the id written there, or for an edge without one, by its ends)."""
    if problem.path and problem.path != "workflow":
        return parse_path(problem.path)
    if not isinstance(data, Mapping):
        return None
    if problem.node_id is not None:
        return _entry_of(data.get("nodes"), "nodes", lambda item: item.get("id") == problem.node_id)
    if problem.edge_id is not None:
        return _entry_of(data.get("edges"), "edges", lambda item: _edge_id(item) == problem.edge_id)
    return None


def parse_path(path: str) -> Location:
    """``nodes[2].retryPolicy`` as ``("nodes", 2, "retryPolicy")``."""
    return tuple(
        int(index) if index else key for index, key in _PATH_PART.findall(path) if index or key
    )


def _entry_of(
    items: Any, name: str, matches: Callable[[Mapping[str, Any]], bool]
) -> Location | None:
    if not isinstance(items, list):
        return None
    for index, item in enumerate(items):
        if isinstance(item, Mapping) and matches(item):
            return (name, index)
    return None


def _edge_id(item: Mapping[str, Any]) -> Any:
    if "id" in item:
        return item["id"]
    return f"{item.get('source')}->{item.get('target')}"


def _collect(node: yaml.Node, location: Location, lines: dict[Location, int], seen: set) -> None:
    """Record the line of every key and entry under ``node``; a node reached again through an
    alias is not walked twice."""
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                place = (*location, key.value)
                lines.setdefault(place, key.start_mark.line + 1)
                _collect(value, place, lines, seen)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            place = (*location, index)
            lines.setdefault(place, item.start_mark.line + 1)
            _collect(item, place, lines, seen)
