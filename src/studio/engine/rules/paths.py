"""Dotted and indexed paths into JSON data: ``result.items[0].name``.

One small hand-written grammar shared by edge conditions and ``${...}`` templates: names
separated by dots, each optionally followed by ``[n]`` indexes. Nothing is evaluated.
"""

import re
from typing import Any

_SEGMENT = re.compile(r"([^.\[\]]+)((?:\[\d{1,9}\])*)", re.ASCII)
_INDEX = re.compile(r"\[(\d{1,9})\]", re.ASCII)


class PathNotFound(LookupError):
    """The path does not lead to a value in the data."""


class InvalidPath(ValueError):
    """The path is not written in the path grammar."""


def parse_path(path: str) -> list[str | int]:
    """Split ``a.b[0][1].c`` into ``['a', 'b', 0, 1, 'c']``."""
    if not path:
        raise InvalidPath("a path must not be empty")
    steps: list[str | int] = []
    for segment in path.split("."):
        match = _SEGMENT.fullmatch(segment)
        if match is None:
            raise InvalidPath(f"'{path}' is not a valid path (at '{segment}')")
        steps.append(match.group(1))
        steps.extend(int(index) for index in _INDEX.findall(match.group(2)))
    return steps


def resolve_path(data: Any, path: str | list[str | int]) -> Any:
    """The value at ``path`` in ``data``; raises PathNotFound when any step is missing."""
    steps = parse_path(path) if isinstance(path, str) else path
    current = data
    for step in steps:
        if not _has_step(current, step):
            raise PathNotFound(f"no value at '{_render(steps)}' (stopped at '{step}')")
        current = current[step]
    return current


def _has_step(container: Any, step: str | int) -> bool:
    if isinstance(step, int):
        return isinstance(container, list) and step < len(container)
    return isinstance(container, dict) and step in container


def _render(steps: list[str | int]) -> str:
    text = ""
    for step in steps:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text
