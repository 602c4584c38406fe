"""Edge conditions: a total, deterministic test of a source node's output.

Every operator answers for any JSON output and value; nothing here raises. A field that is
missing, or a path that is not written in the path grammar, makes every operator false except
``notEquals`` (true) and ``exists`` (false, so "does not exist" is true).
"""

from collections.abc import Callable
from typing import Any

from studio.engine.rules.paths import PathNotFound, resolve_path
from studio.model.workflow import EdgeCondition

_MISSING = object()
"""Stands for a field the output does not have."""


def resolve_field_path(output: Any, field: str) -> Any:
    """The value at ``field`` (``result.items[1].name``) in a node's output.

    Raises:
        PathNotFound: the output has no value there.
        InvalidPath: the field is not written in the path grammar.
    """
    return resolve_path(output, field)


def evaluate_condition(condition: EdgeCondition | None, output: Any) -> bool:
    """Whether an edge with this condition carries on, given its source's output."""
    if condition is None:
        return True
    actual = _lookup(output, condition.field)
    if condition.operator == "exists":
        present = actual is not _MISSING and actual is not None
        return not present if condition.value is False else present
    if actual is _MISSING:
        return condition.operator == "notEquals"
    return _OPERATORS[condition.operator](actual, condition.value)


def json_equal(left: Any, right: Any) -> bool:
    """JSON equality: ``1 == 1.0`` but a bool never equals a number, at any depth."""
    pending = [(left, right)]
    while pending:  # a work list rather than recursion, so deep nesting cannot overflow
        a, b = pending.pop()
        if isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                return False
            pending.extend(zip(a, b, strict=True))
        elif isinstance(a, dict) and isinstance(b, dict):
            if a.keys() != b.keys():
                return False
            pending.extend((a[key], b[key]) for key in a)
        elif not _scalar_equal(a, b):
            return False
    return True


def _scalar_equal(a: Any, b: Any) -> bool:
    if isinstance(a, list | dict) or isinstance(b, list | dict):
        return False
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return a == b
    return type(a) is type(b) and a == b


def _lookup(output: Any, field: str) -> Any:
    try:
        return resolve_field_path(output, field)
    except (PathNotFound, ValueError):  # ValueError covers InvalidPath and absurd indexes
        return _MISSING


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _contains(actual: Any, value: Any) -> bool:
    if isinstance(actual, str):
        return isinstance(value, str) and value in actual
    if isinstance(actual, list):
        return any(json_equal(item, value) for item in actual)
    if isinstance(actual, dict):
        return isinstance(value, str) and value in actual
    return False


def _greater_than(actual: Any, value: Any) -> bool:
    if _is_number(actual) and _is_number(value):
        return actual > value
    if isinstance(actual, str) and isinstance(value, str):
        return actual > value
    return False


def _less_than(actual: Any, value: Any) -> bool:
    if _is_number(actual) and _is_number(value):
        return actual < value
    if isinstance(actual, str) and isinstance(value, str):
        return actual < value
    return False


_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "equals": json_equal,
    "notEquals": lambda actual, value: not json_equal(actual, value),
    "contains": _contains,
    "greaterThan": _greater_than,
    "lessThan": _less_than,
}
