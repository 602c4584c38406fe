"""The one pattern node ids, workflow ids and artifact ids follow.

Ids become parts of other names (``<node>#comp`` rows, ``<subject>/<kind>/<date>-<id>.md``
refs, command-line arguments, log fields), so they hold no separators, no line breaks, no
control characters and no ``#``, which keeps every such name unambiguous.
"""

import re
from collections.abc import Container
from typing import Annotated

from pydantic import AfterValidator, ValidationInfo
from pydantic_core import PydanticCustomError

MAX_ID_CHARS = 128
ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}"
"""A letter or digit, then letters, digits, '.', '_' or '-'; at most MAX_ID_CHARS in all."""
ID_RULE = (
    f"a letter or digit, then letters, digits, '.', '_' or '-', at most {MAX_ID_CHARS} "
    f"characters (pattern {ID_PATTERN})"
)
_ID = re.compile(ID_PATTERN)
_SHOWN_CHARS = 40
STORED = {"stored": True}
"""Validation context for definitions read back from the store: they were accepted before
this pattern existed, so they load as they are and validation reports their ids instead."""


def is_identifier(value: object) -> bool:
    """Whether ``value`` is a text that follows the id pattern."""
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def shown_id(value: str) -> str:
    """An id as a message shows it: quoted, control characters escaped, long ones cut."""
    text = repr(value[:_SHOWN_CHARS])
    return text + ("…" if len(value) > _SHOWN_CHARS else "")


def identifier_problem(value: str, what: str = "id") -> str | None:
    """Why ``value`` is not a valid id (``what`` names the field), or None when it is."""
    if is_identifier(value):
        return None
    return f"{shown_id(value)} is not a valid {what}: expected {ID_RULE}"


def free_id(wanted: str, taken: Container[str], limit: int | None = MAX_ID_CHARS) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``… whichever is not taken, cut short so that it
    keeps within ``limit`` characters (None: no limit)."""
    room = len(wanted) if limit is None else limit
    candidate, number = wanted[:room], 2
    while candidate in taken:
        suffix = f"-{number}"
        candidate, number = wanted[: max(room - len(suffix), 0)] + suffix, number + 1
    return candidate


def _checked_identifier(value: str, info: ValidationInfo) -> str:
    if not is_identifier(value) and not (info.context or {}).get("stored"):
        raise PydanticCustomError(
            "identifier",
            "{value} is not a valid id: expected {rule}",
            {"value": shown_id(value), "rule": ID_RULE},
        )
    return value


Identifier = Annotated[str, AfterValidator(_checked_identifier)]
"""A text field that must follow the id pattern."""
