"""How the condition editor reads and writes a comparison value as text.

Text that reads as JSON is taken as JSON (``3`` a number, ``true`` a bool, ``["a"]`` a list,
``"3"`` a string); any other text is taken as a plain string (``approved``). Text that starts
like JSON structure but is malformed is refused rather than silently kept as a string.
"""

import json
from typing import Any

_STRUCTURE_STARTS = ("[", "{", '"')
_ORDERED_OPERATORS = {"greaterThan", "lessThan"}


class ConditionValueError(ValueError):
    """The text cannot be used as the condition's value; the message says why."""


def parse_condition_value(text: str, operator: str) -> Any:
    """The value ``text`` stands for, checked against what ``operator`` can compare."""
    stripped = text.strip()
    if not stripped:
        raise ConditionValueError('Enter a value to compare with; write "" for empty text.')
    try:
        value = json.loads(stripped, parse_constant=_refuse_constant)
    except ValueError as failure:  # JSONDecodeError, or NaN/Infinity refused
        if stripped.startswith(_STRUCTURE_STARTS):
            raise ConditionValueError(_json_problem(failure)) from None
        value = stripped
    if operator in _ORDERED_OPERATORS and not _is_ordered(value):
        raise ConditionValueError(f"{operator} compares numbers or text, not {_kind(value)}.")
    return value


def condition_value_text(value: Any) -> str:
    """The text that ``parse_condition_value`` reads back as ``value``."""
    if isinstance(value, str) and _reads_as_plain_string(value):
        return value
    return json.dumps(value, ensure_ascii=False)


def _reads_as_plain_string(value: str) -> bool:
    if value != value.strip() or not value or value.startswith(_STRUCTURE_STARTS):
        return False
    try:
        json.loads(value, parse_constant=_refuse_constant)
    except ValueError:
        return True
    return False


def _json_problem(failure: ValueError) -> str:
    if isinstance(failure, json.JSONDecodeError):
        return f"Not valid JSON (column {failure.colno}): {failure.msg}."
    return f"Not valid JSON: {failure}."


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _is_ordered(value: Any) -> bool:
    return isinstance(value, int | float | str) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if value is None:
        return "null"
    return "a list" if isinstance(value, list) else "an object"
