"""Pydantic validation errors in words a person can act on."""

from collections.abc import Iterable

from pydantic import ValidationError
from pydantic_core import ErrorDetails


def describe_errors(errors: Iterable[ErrorDetails]) -> str:
    """One line per model rule broken: where (a dotted path), then what."""
    return "\n".join(
        f"{'.'.join(str(part) for part in error['loc']) or 'value'}: {error['msg']}"
        for error in errors
    )


def describe_validation_error(invalid: ValidationError) -> str:
    """Every rule a validation error reports as broken, one per line."""
    return describe_errors(invalid.errors())
