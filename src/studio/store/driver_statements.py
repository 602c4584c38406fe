"""Hot-path statements run straight on the SQLite driver.

SQLAlchemy's execute machinery costs about as much as SQLite's own work for a one-row
update. For the few statements the step runner issues per node transition, the Core
statement is compiled once to SQL text plus its parameter order and type converters, and
then run on the driver connection inside the same SQLAlchemy transaction.
"""

import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from sqlalchemy import Connection, Dialect
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler


@dataclass(frozen=True)
class DriverStatement:
    """A statement compiled for one dialect: SQL text, parameter names and converters."""

    sql: str
    names: tuple[str, ...]
    converters: tuple[Callable[[Any], Any] | None, ...]
    constants: Mapping[str, Any]
    """The values written into the statement (a LIMIT, a status); every other parameter
    must be given: one left out raises KeyError naming it, as SQLAlchemy would refuse it."""

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        """Positional driver parameters from named values, converted as SQLAlchemy would."""
        constants = self.constants
        converted = []
        for name, convert in self._plan:  # a plain loop: this runs for every hot statement
            value = values[name] if name in values else constants[name]
            converted.append(value if convert is None or value is None else convert(value))
        return tuple(converted)

    @cached_property
    def _plan(self) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
        return tuple(zip(self.names, self.converters, strict=True))

    def execute(self, connection: Connection, values: Mapping[str, Any]) -> Any:
        """Run on the connection's driver connection (in its current transaction)."""
        return sqlite_driver(connection).execute(self.sql, self.parameters(values))


def sqlite_driver(connection: Connection) -> sqlite3.Connection:
    """The SQLite driver connection under a SQLAlchemy connection (in its transaction)."""
    driver = connection.connection.driver_connection
    if not isinstance(driver, sqlite3.Connection):
        raise TypeError(f"not a SQLite driver connection: {driver!r}")
    return driver


def compile_for_driver(statement: ClauseElement, dialect: Dialect) -> DriverStatement:
    """Compile a Core statement with positional parameters into a DriverStatement."""
    compiled = statement.compile(dialect=dialect)
    if not isinstance(compiled, SQLCompiler):
        raise TypeError(f"not a SQL statement: {statement}")
    names = tuple(compiled.positiontup or ())
    converters = converters_of(compiled, names)
    return DriverStatement(str(compiled), names, converters, constants_of(compiled))


def converters_of(
    compiled: SQLCompiler, names: tuple[str, ...]
) -> tuple[Callable[[Any], Any] | None, ...]:
    """Each parameter's bind processor for the compiled dialect, as SQLAlchemy would apply it."""
    dialect = compiled.dialect
    return tuple(
        compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect) for name in names
    )


def constants_of(compiled: SQLCompiler) -> dict[str, Any]:
    """The parameters the statement carries values for itself."""
    return {name: value for name, value in compiled.params.items() if value is not None}
