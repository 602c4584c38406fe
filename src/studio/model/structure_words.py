"""What is wrong with one value of a workflow file, in Studio's words rather than the
validation library's: "expected a whole number, not the text 'many'", "unknown key",
"the key 'target' is missing", "must be greater than 0"."""

from collections.abc import Mapping
from typing import Any

_EXPECTED = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "string_type": "a text",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "datetime_type": "a date and time",
    "datetime_parsing": "a date and time",
}
_BOUNDS = {
    "greater_than": ("gt", "greater than"),
    "greater_than_equal": ("ge", "at least"),
    "less_than": ("lt", "less than"),
    "less_than_equal": ("le", "at most"),
}
_LONGEST_SHOWN = 40
"""A text given where something else was expected is quoted up to this many characters."""


def describe_invalid(item: Mapping[str, Any]) -> str:
    """One pydantic error (an item of ``ValidationError.errors()``) as a short sentence."""
    kind, context = item["type"], item.get("ctx") or {}
    location = tuple(item.get("loc") or ())
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, not {given(item.get('input'))}"
    if kind == "missing":
        return f"the key '{location[-1]}' is missing" if location else "a key is missing"
    if kind == "extra_forbidden":
        return "unknown key"
    if kind in _BOUNDS:
        name, words = _BOUNDS[kind]
        return f"must be {words} {_number_text(context.get(name))}"
    if kind == "finite_number":
        return "must be a finite number"
    if kind == "string_too_short" and context.get("min_length") == 1:
        return "must not be empty"
    if kind == "value_error":
        return str(item["msg"]).removeprefix("Value error, ")
    return _plain(str(item["msg"]))


def given(value: Any) -> str:
    """What a file gave, in a person's words: the text 'many', a number, a list, nothing."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        shown = value if len(value) <= _LONGEST_SHOWN else value[:_LONGEST_SHOWN] + "…"
        return f"the text {shown!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return type(value).__name__


def _number_text(value: Any) -> str:
    """A bound as a person writes it: 0 rather than 0.0."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _plain(message: str) -> str:
    """The library's own sentence, worded as the others: "must be …" rather than "Input
    should be …"."""
    if message.startswith("Input should be "):
        return "must be " + message.removeprefix("Input should be ")
    if message.startswith("String should "):
        return "the text should " + message.removeprefix("String should ")
    return message[:1].lower() + message[1:]
