"""The knowledge store's read queries: heads at a moment and full-text search (SQLite FTS5).

A version is a head at a time T when it was created by T and no version created by T
supersedes it; without a time, the heads are the versions nothing supersedes. Every query
reads a version's columns as stored (VERSION_COLUMNS_AS_STORED), for the check to see them
before anything parses them.
"""

import re
from datetime import datetime

from sqlalchemy import (
    Column,
    ColumnClause,
    ColumnElement,
    Connection,
    Row,
    Select,
    and_,
    bindparam,
    column,
    exists,
    func,
    literal_column,
    select,
    table,
)

from studio.store.knowledge_schema import (
    SEARCH_TABLE,
    VERSION_COLUMNS_AS_STORED,
    artifact_bodies,
    artifact_versions,
)

SNIPPET_START, SNIPPET_END, SNIPPET_ELLIPSIS = "«", "»", "…"
"""How a search snippet marks the matched words and the text left out around them."""
SNIPPET_TOKENS = 16
TITLE_WEIGHT = 2.0
"""bm25 weight of a title match against a body match (1.0)."""
_BATCH = 500  # values per IN (...) list, well under SQLite's limit on bound parameters

FTS_OPERATORS = frozenset({"AND", "OR", "NOT", "NEAR"})
_FTS_SYNTAX = re.compile(r'["*:(]')
FTS_HINT = (
    " (a query with double quotes, AND, OR, NOT, NEAR, '*', ':' or '(' is read as FTS5 "
    "syntax: put words with punctuation in double quotes)"
)


def fts_query(query: str) -> str:
    """The FTS5 query for what a user typed: as written when it uses FTS5 syntax on purpose,
    otherwise each whitespace-separated word as an FTS5 string (all of them must match)."""
    words = query.split()
    if _FTS_SYNTAX.search(query) or FTS_OPERATORS.intersection(words):
        return query
    return " ".join(f'"{word}"' for word in words)


def versions_query() -> Select:
    """Every version row, its columns as stored."""
    return select(*VERSION_COLUMNS_AS_STORED)


def filtered(query: Select, **equal: str | None) -> Select:
    """The query restricted to versions whose named columns equal the values given."""
    for name, value in equal.items():
        if value is not None:
            query = query.where(artifact_versions.c[name] == value)
    return query


def heads_query(as_of: datetime | None, **equal: str | None) -> Select:
    """The heads (at ``as_of``) among the versions ``filtered`` keeps, in a fixed order."""
    query = filtered(versions_query().where(_is_head(as_of)), **equal)
    table_ = artifact_versions.c
    return query.order_by(table_.subject, table_.artifact_id, table_.created_at, table_.seq)


def search_query(
    query: str, as_of: datetime | None, subject: str | None, kind: str | None
) -> Select:
    """Heads whose title or body match an FTS5 query, best first, with a snippet and the
    stored text (to check before the snippet is shown)."""
    index: ColumnClause[str] = literal_column(SEARCH_TABLE)
    indexed = table(SEARCH_TABLE, column("rowid"))
    snippet = func.snippet(index, -1, SNIPPET_START, SNIPPET_END, SNIPPET_ELLIPSIS, SNIPPET_TOKENS)
    joined = indexed.join(artifact_versions, artifact_versions.c.seq == indexed.c.rowid).outerjoin(
        artifact_bodies, artifact_bodies.c.sha256 == artifact_versions.c.sha256
    )
    statement = (
        versions_query()
        .add_columns(snippet.label("snippet"), artifact_bodies.c.body.label("text"))
        .select_from(joined)
        .where(index.op("MATCH")(query), _is_head(as_of))
        .order_by(func.bm25(index, 0.0, TITLE_WEIGHT, 1.0), artifact_versions.c.seq)
    )
    return filtered(statement, subject=subject, kind=kind)


def present(connection: Connection, key: Column, values: list[str]) -> set[str]:
    """Which of the values are stored in the key column."""
    name = f"{key.table.name}.{key.name}"
    statement = _PRESENT.get(name)
    if statement is None:  # built once per column: a landing asks this for every version
        statement = _PRESENT[name] = select(key).where(key.in_(bindparam("keys", expanding=True)))
    found: set[str] = set()
    for start in range(0, len(values), _BATCH):
        batch = values[start : start + _BATCH]
        found.update(row[0] for row in connection.execute(statement, {"keys": batch}))
    return found


_PRESENT: dict[str, Select] = {}


def rows_in(connection: Connection, query: Select, key: Column, values: list[str]) -> list[Row]:
    """The query's rows whose ``key`` is one of the values (asked in batches)."""
    found: list[Row] = []
    for start in range(0, len(values), _BATCH):
        found += connection.execute(query.where(key.in_(values[start : start + _BATCH]))).all()
    return found


def _is_head(as_of: datetime | None) -> ColumnElement[bool]:
    later = artifact_versions.alias("later")
    superseding = select(later.c.ref).where(later.c.supersedes == artifact_versions.c.ref)
    if as_of is None:
        return ~exists(superseding)
    superseding = superseding.where(later.c.created_at <= as_of)
    return and_(artifact_versions.c.created_at <= as_of, ~exists(superseding))
