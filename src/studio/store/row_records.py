"""Records read from stored rows: each field of a dataclass from the column of its name.

One reader per record type, made once, says which fields are stored under another name;
every other field is the column of the same name, and a field with no column keeps its
default. So a column added to a table and to its record needs no copy line of its own.
"""

from collections.abc import Mapping
from dataclasses import MISSING, fields
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from sqlalchemy import Row

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Record = TypeVar("Record", bound="DataclassInstance")


class RecordReader(Generic[Record]):
    """Makes ``record_type`` records of rows; ``stored_as`` names a field's column where the
    two names differ."""

    def __init__(self, record_type: type[Record], **stored_as: str) -> None:
        names = {field.name for field in fields(record_type)}
        unknown = sorted(set(stored_as) - names)
        if unknown:
            raise TypeError(f"{record_type.__name__} has no field {', '.join(unknown)}")
        self.record_type = record_type
        self.columns = {
            field.name: stored_as.get(field.name, field.name)
            for field in fields(record_type)
            if field.init
        }
        self.required = frozenset(
            field.name
            for field in fields(record_type)
            if field.init and field.default is MISSING and field.default_factory is MISSING
        )

    def __call__(self, row: Row | Mapping[str, Any], **given: Any) -> Record:
        """The record of a row; ``given`` sets fields the row holds in another form."""
        stored = row._mapping if isinstance(row, Row) else row
        values = {
            name: stored[column]
            for name, column in self.columns.items()
            if name not in given and (column in stored or name in self.required)
        }
        return self.record_type(**values, **given)
