"""One value in one cell, typed as YAML: ``3`` is a number, ``true`` a bool, ``"3"`` a string,
``[a, b]`` and ``{x: 1}`` nested values in flow style; shown back the same way."""

import json
from typing import Any

import yaml

from studio.model.input_limits import limit_problem
from studio.ui.panels.text_area_field_editors import _JsonLikeLoader

_FLOW_OPENERS = ("[", "{")


def cell_text(value: Any) -> str:
    """How ``value`` is written in a cell, so that reading the text gives ``value`` back."""
    if isinstance(value, str):
        plain = value.strip() == value and "\n" not in value and value != ""
        return value if plain and read_cell(value) == (value, None) else _quoted(value)
    dumped = yaml.safe_dump(
        value, default_flow_style=True, allow_unicode=True, sort_keys=False, width=10**9
    )
    dumped = dumped.removesuffix("\n").removesuffix("\n...").rstrip("\n")
    if "\n" in dumped:  # a text with line breaks inside a list: JSON keeps it on one line
        return json.dumps(value, ensure_ascii=False)
    return dumped


def read_cell(text: str) -> tuple[Any, str | None]:
    """The value ``text`` stands for and None, or None and why it cannot be read."""
    text = text.strip()
    try:
        value = yaml.load(text, Loader=_JsonLikeLoader)
    except yaml.MarkedYAMLError as failure:
        return None, str(failure.problem or failure.context or "it is not valid YAML")
    except yaml.YAMLError as failure:
        return None, str(failure)
    if isinstance(value, dict | list) and not text.startswith(_FLOW_OPENERS):
        kind = "mapping" if isinstance(value, dict) else "list"
        example = "{key: value}" if kind == "mapping" else "[a, b]"
        return None, f"it reads as a {kind}: write it as {example}, or in quotes as text"
    beyond = limit_problem(value)
    if beyond is not None:
        return None, beyond
    return value, None


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted one
