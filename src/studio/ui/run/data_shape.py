"""What shape a node's data has and how it reads as a table: records, their columns, the text
of a cell, and the whole table as CSV."""

import csv
import io
import json
from typing import Any

NOT_TABULAR = "Only a list of records (JSON objects) can be copied as CSV."
"""Why CSV is not offered for other data."""


def records_of(value: Any) -> list[dict[str, Any]] | None:
    """``value`` as a list of records when it is a non-empty list of JSON objects, else None."""
    if not isinstance(value, list) or not value:
        return None
    if not all(isinstance(item, dict) for item in value):
        return None
    return value


def columns_of(records: list[dict[str, Any]]) -> list[str]:
    """The union of the records' keys, in the order they are first seen."""
    seen: dict[str, None] = {}
    for record in records:
        for key in record:
            seen.setdefault(str(key), None)
    return list(seen)


def compact_json(value: Any) -> str:
    """``value`` as JSON on one line, as a nested value reads in a cell."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def cell_text(value: Any) -> str:
    """How one value reads in a cell: text as it is, null and booleans as in JSON, numbers as
    numbers, objects and arrays as compact JSON."""
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int | float):
        return str(value)
    return compact_json(value)


def csv_field(record: dict[str, Any], column: str) -> str:
    """A record's value in one column as CSV writes it: a missing key or null is empty."""
    value = record.get(column)
    return "" if value is None else cell_text(value)


def csv_text(records: list[dict[str, Any]], columns: list[str]) -> str:
    """The records as CSV: a header row of ``columns``, then one row per record."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for record in records:
        writer.writerow([csv_field(record, column) for column in columns])
    return out.getvalue()


MISSING_RANK = 4


def sort_key(value: Any, present: bool = True) -> tuple[int, Any]:
    """Orders the values of one column: numbers, then text (ignoring case), then booleans,
    then objects and arrays; null and missing values come last."""
    if not present or value is None:
        return (MISSING_RANK, 0)
    if isinstance(value, bool):
        return (2, value)
    if isinstance(value, int | float):
        return (0, value)
    if isinstance(value, str):
        return (1, value.casefold())
    return (3, compact_json(value))
