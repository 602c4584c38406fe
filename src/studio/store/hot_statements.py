"""Statements a hot path runs many times a second (a pull, an ack, an enqueue), run on the
driver connection under SQLAlchemy's transaction.

Each Core statement is compiled once per driver to its SQL text, its parameters' names and
their bind processors; its rows are decoded with its columns' result processors, so what
comes back is what SQLAlchemy would have returned, for a fraction of the cost: SQLAlchemy's
execute machinery costs about as much as SQLite's own work for a one-row update. On
PostgreSQL the cost that counts is the round trip: inside ``pipelined`` the statements sent
go to the server together, and their rows are read when asked for; a
``pipelined_transaction`` sends its BEGIN and COMMIT with them too. SQLite (``pysqlite``)
takes positional parameters, PostgreSQL (``psycopg``) named ones; any other driver runs the
statement through SQLAlchemy. A driver error is raised as SQLAlchemy would raise it (an
IntegrityError for a broken constraint), so callers catch the same errors whichever way a
statement ran.

A hot statement's IN lists must be constants written into its SQL (``literal_column``): an
expanding parameter cannot be compiled ahead.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy import Connection, Dialect, Insert, Select, Table, Update, bindparam, insert
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler

from studio.store.driver_statements import DriverStatement, constants_of, converters_of

HotSql = Select[Any] | Insert | Update
"""What a HotStatement runs."""

_DRIVERS = frozenset({"pysqlite", "psycopg"})
"""The drivers a hot statement runs on directly."""

_row_type: Callable[..., Any] = namedtuple
"""namedtuple, for row types whose column names are known only when a statement compiles."""


class HotStatement:
    """A Core statement run straight on the driver (see the module's docstring)."""

    def __init__(self, statement: HotSql) -> None:
        self.statement = statement
        self._compiled: dict[str, _Compiled] = {}

    def send(self, connection: Connection, values: Mapping[str, Any]) -> Sent:
        """Run the statement; inside ``pipelined`` on PostgreSQL it is only queued, and what
        it returns is read when asked for (sending several first saves round trips)."""
        compiled = self._for(connection)
        if compiled is None:
            result = connection.execute(self.statement, dict(values))
            rows = list(result) if result.returns_rows else []
            return Sent(None, rows, _as_it_is, _no_errors)
        with compiled.errors(connection):
            cursor = compiled.cursor(connection, values)
            if compiled.positional:  # SQLite: nothing to wait for, read it now
                return Sent(None, cursor.fetchall(), compiled.decode, _no_errors)
        return Sent(cursor, [], compiled.decode, partial(compiled.errors, connection))

    def rows(self, connection: Connection, values: Mapping[str, Any]) -> list[Any]:
        """Every row the statement returns, with the columns as attributes."""
        return self.send(connection, values).rows()

    def first(self, connection: Connection, values: Mapping[str, Any]) -> Any | None:
        """The first row, or None."""
        return self.send(connection, values).first()

    def scalar(self, connection: Connection, values: Mapping[str, Any]) -> Any:
        """The first column of the first row, or None."""
        return self.send(connection, values).scalar()

    def many(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run the statement once per set of values (an insert of several rows): on
        PostgreSQL in one round trip."""
        if not rows:
            return
        compiled = self._for(connection)
        if compiled is None:
            connection.execute(self.statement, [dict(row) for row in rows])
            return
        with compiled.errors(connection):
            compiled.run_many(connection, rows)

    def _for(self, connection: Connection) -> _Compiled | None:
        dialect = connection.dialect
        if dialect.driver not in _DRIVERS:
            return None
        compiled = self._compiled.get(dialect.driver)
        if compiled is None:
            compiled = self._compiled[dialect.driver] = _compile(self.statement, dialect)
        return compiled


class RowsInsert:
    """An insert of a few rows as one statement (one ``VALUES`` list, compiled once for each
    number of rows up to ``MOST_ROWS``), so on PostgreSQL the server runs one statement
    where ``HotStatement.many`` would run one per row. One row, or more than that, goes as
    ``many``."""

    MOST_ROWS = 8

    def __init__(self, table: Table, names: Sequence[str]) -> None:
        self._table, self._names = table, tuple(names)
        self._one = HotStatement(insert(table).values({name: bindparam(name) for name in names}))
        self._several: dict[int, HotStatement] = {}

    def send(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert the rows, in order (queued inside ``pipelined`` on PostgreSQL)."""
        if len(rows) < 2 or len(rows) > self.MOST_ROWS:
            self._one.many(connection, rows)
            return
        values = {
            f"{name}_{index}": row[name] for index, row in enumerate(rows) for name in self._names
        }
        self._for(len(rows)).send(connection, values)

    def _for(self, count: int) -> HotStatement:
        statement = self._several.get(count)
        if statement is None:
            columns = self._table.c
            listed: list[dict[str, Any]] = [  # typed: only the first row takes the columns'
                {
                    name: bindparam(f"{name}_{index}", type_=columns[name].type)
                    for name in self._names
                }
                for index in range(count)
            ]
            statement = self._several[count] = HotStatement(insert(self._table).values(listed))
        return statement


class Sent:
    """A statement sent: its rows, read when asked for."""

    def __init__(
        self,
        cursor: Any,
        rows: list[Any],
        decode: Callable[[Sequence[Any]], Any],
        errors: Callable[[], AbstractContextManager[None]],
    ) -> None:
        self._cursor, self._rows = cursor, rows
        self._decode, self._errors = decode, errors

    def rows(self) -> list[Any]:
        if self._cursor is not None:
            with self._errors():
                self._rows, self._cursor = self._cursor.fetchall(), None
        return [self._decode(row) for row in self._rows]

    def first(self) -> Any | None:
        found = self.rows()
        return found[0] if found else None

    def scalar(self) -> Any:
        row = self.first()
        return None if row is None else row[0]


@contextmanager
def pipelined(connection: Connection) -> Iterator[None]:
    """On PostgreSQL, the hot statements sent inside go to the server together, up to the
    first whose rows are read, and the rest when the block ends (where any of their errors
    is raised, as SQLAlchemy's). Statements run through SQLAlchemy inside must return no
    rows. Inside a pipelined block, another one is part of it. Elsewhere, nothing changes."""
    if connection.dialect.driver != "psycopg":
        yield
        return
    driver = _driver(connection)
    if driver.pgconn.pipeline_status:  # in a pipeline already: one sync at its end
        yield
        return
    driver_error = connection.dialect.loaded_dbapi.Error
    try:
        with driver.pipeline():
            yield
    except driver_error as failure:
        raise DBAPIError.instance("(pipelined)", None, failure, driver_error) from failure


@contextmanager
def pipelined_transaction(connection: Connection) -> Iterator[None]:
    """A transaction in one pipeline on PostgreSQL, for a connection in autocommit: BEGIN,
    the hot statements sent inside and COMMIT go to the server together, up to the first
    whose rows are read, so a transaction whose rows are all read after it costs one round
    trip (the driver's own BEGIN would cost one more). A failure inside rolls it back. What
    a statement sent last returns can be read after the block."""
    driver = _driver(connection)
    driver_error = connection.dialect.loaded_dbapi.Error
    try:
        try:
            with driver.pipeline():
                driver.execute("BEGIN")
                yield
                driver.execute("COMMIT")
        finally:
            if driver.pgconn.transaction_status in _OPEN:  # a failure inside: end it
                driver.execute("ROLLBACK")
    except driver_error as failure:
        raise DBAPIError.instance("(pipelined)", None, failure, driver_error) from failure


_OPEN = frozenset({2, 3})
"""libpq's transaction statuses inside a transaction, well or failed (INTRANS, INERROR of
``psycopg.pq.TransactionStatus``); a broken connection has neither, and is left to the pool."""


@contextmanager
def _no_errors() -> Iterator[None]:
    yield


def _as_it_is(row: Sequence[Any]) -> Any:
    return row


@dataclass(frozen=True)
class _Compiled:
    """A statement compiled for one driver: positional parameters (SQLite) or named ones."""

    statement: DriverStatement
    positional: bool
    decode: Callable[[Sequence[Any]], Any]

    @property
    def sql(self) -> str:
        return self.statement.sql

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        """The driver's parameters from named values, converted as SQLAlchemy would."""
        converted = self.statement.parameters(values)
        if self.positional:
            return converted
        return dict(zip(self.statement.names, converted, strict=True))

    def cursor(self, connection: Connection, values: Mapping[str, Any]) -> Any:
        return _driver(connection).execute(self.sql, self.parameters(values))

    def run_many(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        driver = _driver(connection)
        parameters = [self.parameters(row) for row in rows]
        if self.positional:
            driver.executemany(self.sql, parameters)
        else:  # in one round trip, or queued in the pipeline that is open
            driver.cursor().executemany(self.sql, parameters)

    @contextmanager
    def errors(self, connection: Connection) -> Iterator[None]:
        """Raise the driver's errors as SQLAlchemy's."""
        driver_error = connection.dialect.loaded_dbapi.Error
        try:
            yield
        except driver_error as failure:
            raise DBAPIError.instance(self.sql, None, failure, driver_error) from failure


def _driver(connection: Connection) -> Any:
    """The driver connection under a SQLAlchemy connection (in its transaction)."""
    return connection.connection.driver_connection


def _compile(statement: HotSql, dialect: Dialect) -> _Compiled:
    compiled = statement.compile(dialect=dialect)
    if not isinstance(compiled, SQLCompiler):
        raise TypeError(f"not a SQL statement: {statement}")
    sql = str(compiled)
    if "POSTCOMPILE" in sql:
        raise TypeError(f"a hot statement cannot have an expanding parameter: {sql}")
    positional = bool(compiled.positional)
    named = tuple(dict.fromkeys(compiled.bind_names.values()))  # as written in the SQL
    names = tuple(compiled.positiontup or ()) if positional else named
    converters = converters_of(compiled, names)
    driver_statement = DriverStatement(sql, names, converters, constants_of(compiled))
    return _Compiled(driver_statement, positional, _row_decoder(statement, dialect))


def _row_decoder(statement: HotSql, dialect: Dialect) -> Callable[[Sequence[Any]], Any]:
    """A driver row to a row with named columns, each value converted by its type's result
    processor."""
    columns = list(statement.exported_columns)
    names = [column_.key or f"column_{index}" for index, column_ in enumerate(columns)]
    make = _row_type("Row", names, rename=True)._make
    processors = [
        column_.type.dialect_impl(dialect).result_processor(dialect, None) for column_ in columns
    ]
    converting = [(index, convert) for index, convert in enumerate(processors) if convert]

    def decode(values: Sequence[Any]) -> Any:
        if not converting:
            return make(values)
        converted = list(values)
        for index, convert in converting:
            converted[index] = convert(converted[index])
        return make(converted)

    return decode
