"""Knowledge artifacts: every landed version kept, each body stored once by SHA-256 and checked
on read, the graph rows derived from each version, and full-text search (SQLite FTS5).

A version is a head at a time T when it was created by T and no version created by T
supersedes it; without a time, the heads are the versions nothing supersedes.
"""

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from operator import itemgetter
from typing import Any

from sqlalchemy import (
    Column,
    ColumnElement,
    Connection,
    Row,
    Select,
    Table,
    and_,
    bindparam,
    column,
    delete,
    exists,
    func,
    insert,
    literal_column,
    select,
    table,
)
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.exc import OperationalError

from studio.model.errors import ConflictError, NotFoundError, StudioError
from studio.model.knowledge import (
    ArtifactVersion,
    Derivation,
    FrontMatter,
    GraphEdge,
    GraphNode,
    Link,
)
from studio.store.database import Database
from studio.store.driver_statements import DriverStatement, compile_for_driver
from studio.store.errors import DatabaseError
from studio.store.knowledge_schema import (
    SEARCH_TABLE,
    artifact_bodies,
    artifact_versions,
    kg_derivations,
    knowledge_metadata,
)

SNIPPET_START, SNIPPET_END, SNIPPET_ELLIPSIS = "«", "»", "…"
"""How a search snippet marks the matched words and the text left out around them."""
SNIPPET_TOKENS = 16
TITLE_WEIGHT = 2.0
"""bm25 weight of a title match against a body match (1.0)."""
_BATCH = 500  # refs per IN (...) list, well under SQLite's limit on bound parameters


@dataclass(frozen=True)
class EncodedDerivation:
    """A derivation already in its stored form (made where it was derived, e.g. in a worker
    process, so the process that writes only hands the text on)."""

    document: str


Landing = tuple[ArtifactVersion, str, Derivation | EncodedDerivation]
"""A version to store, the text it was landed with and the graph rows derived from it."""


class KnowledgeConflictError(ConflictError):
    """A version the stored ones refuse: its ref exists, or it would fork a supersedes chain."""


class ArtifactIntegrityError(DatabaseError):
    """A body whose text does not match the SHA-256 it was landed or stored under."""


class KnowledgeSearchError(StudioError):
    """A search the full-text index cannot run: a malformed query or no SQLite."""


class KnowledgeRepository:
    """Append-only artifact versions and bodies, their derived graph rows and their search."""

    def __init__(self, database: Database) -> None:
        self.database = database

    # --- landing -------------------------------------------------------------------------

    def add_version(self, version: ArtifactVersion, text: str, derivation: Derivation) -> None:
        """Store a version, its body (once per content), its graph rows and its search row.

        One write transaction: on any refusal nothing is stored.
        """
        self.add_versions([(version, text, derivation)])

    def add_versions(self, landings: Iterable[Landing]) -> None:
        """Store versions in the order given, in one write transaction: all of them or none.

        A version may supersede one given earlier in the same call. Per version this is much
        cheaper than add_version, so a bulk ingest hands over its artifacts in batches.
        """
        landings = list(landings)
        for version, text, derivation in landings:
            _check_landing(version, text, derivation)
        if not landings:
            return
        with self.database.write() as connection:
            _refuse_conflicts(connection, [version for version, _, _ in landings])
            last = connection.execute(select(func.max(artifact_versions.c.seq))).scalar() or 0
            rows = [_version_values(v, seq) for seq, (v, _, _) in enumerate(landings, last + 1)]
            _store_bodies(connection, {v.sha256: text for v, text, _ in landings})
            _insert_all(connection, artifact_versions, rows)
            _insert_derived(connection, [(v.ref, derivation) for v, _, derivation in landings])
            if self.database.is_sqlite:
                connection.exec_driver_sql(
                    f"INSERT INTO {SEARCH_TABLE} (rowid, ref, title, body) VALUES (?, ?, ?, ?)",
                    [
                        (row["seq"], row["ref"], row["title"], text)
                        for row, (_, text, _) in zip(rows, landings, strict=True)
                    ],
                )

    # --- reading versions ----------------------------------------------------------------

    def version(self, ref: str) -> ArtifactVersion | None:
        """The stored version with this ref, or None."""
        query = select(artifact_versions).where(artifact_versions.c.ref == ref)
        with self.database.read() as connection:
            row = connection.execute(query).first()
        return None if row is None else _version_from_row(row)

    def body(self, ref: str) -> str:
        """The text of a version, after checking it still has the SHA-256 it was stored under."""
        query = (
            select(artifact_bodies.c.sha256, artifact_bodies.c.body)
            .join(artifact_versions, artifact_versions.c.sha256 == artifact_bodies.c.sha256)
            .where(artifact_versions.c.ref == ref)
        )
        with self.database.read() as connection:
            row = connection.execute(query).first()
        if row is None:
            raise NotFoundError(f"no artifact version {ref} is stored")
        actual = body_digest(row.body)
        if actual != row.sha256:
            raise ArtifactIntegrityError(
                f"the stored body of {ref} is damaged: it was stored with SHA-256 {row.sha256} "
                f"but its text now hashes to {actual}"
            )
        return row.body

    def heads(
        self, as_of: datetime | None = None, subject: str | None = None, kind: str | None = None
    ) -> list[ArtifactVersion]:
        """The current version of every artifact (at ``as_of``), by subject and artifact id."""
        return self._select_versions(_heads_query(as_of, subject=subject, kind=kind))

    def head_of(
        self, subject: str, artifact_id: str, as_of: datetime | None = None
    ) -> ArtifactVersion | None:
        """The current version of one artifact (at ``as_of``; the newest if several), or None."""
        found = self._select_versions(_heads_query(as_of, subject=subject, artifact_id=artifact_id))
        return found[-1] if found else None

    def versions(
        self, subject: str | None = None, artifact_id: str | None = None
    ) -> list[ArtifactVersion]:
        """Every version, superseded ones too, oldest first: the history."""
        query = _filtered(select(artifact_versions), subject=subject, artifact_id=artifact_id)
        return self._select_versions(
            query.order_by(artifact_versions.c.created_at, artifact_versions.c.seq)
        )

    def all_versions_in_landing_order(self) -> list[ArtifactVersion]:
        """Every version in the order it was landed (what a rebuild replays)."""
        return self._select_versions(select(artifact_versions).order_by(artifact_versions.c.seq))

    def refs(self) -> set[str]:
        """The refs of every stored version."""
        with self.database.read() as connection:
            return set(connection.execute(select(artifact_versions.c.ref)).scalars())

    # --- derived graph rows --------------------------------------------------------------

    def graph_rows(self, version_refs: Iterable[str]) -> tuple[list[GraphNode], list[GraphEdge]]:
        """The graph rows derived from the given versions, by subject, then key or endpoints."""
        wanted = sorted(set(version_refs))
        with self.database.read() as connection:
            found = _rows_in(
                connection, select(kg_derivations), kg_derivations.c.version_ref, wanted
            )
        nodes, edges = _decoded(found)
        nodes.sort(key=lambda n: (n.subject, n.key, n.version_ref))
        edges.sort(key=lambda e: (e.subject, e.source, e.type, e.target, e.version_ref))
        return nodes, edges

    def rebuild_derived(self, derivations: Mapping[str, Derivation]) -> None:
        """Replace every derived row with fresh derivations by version ref, in one transaction."""
        for ref, derivation in derivations.items():
            _check_derivation(ref, derivation)
        with self.database.write() as connection:
            unknown = set(derivations) - _present(
                connection, artifact_versions.c.ref, sorted(derivations)
            )
            if unknown:
                raise NotFoundError(f"no artifact version {min(unknown)} is stored")
            connection.execute(delete(kg_derivations))
            _insert_derived(connection, list(derivations.items()))

    def derived_snapshot(self) -> list[tuple]:
        """Every derived row as a tuple, sorted: equal snapshots mean identical graph rows."""
        with self.database.read() as connection:
            nodes, edges = _decoded(connection.execute(select(kg_derivations)).all())
        rows = [("node", *_node_tuple(node)) for node in nodes]
        rows += [("edge", e.version_ref, e.source, e.type, e.target, e.subject) for e in edges]
        return sorted(rows)

    # --- search --------------------------------------------------------------------------

    def search(
        self,
        query: str,
        as_of: datetime | None = None,
        subject: str | None = None,
        kind: str | None = None,
        limit: int = 50,
    ) -> list[tuple[ArtifactVersion, str]]:
        """Head versions (at ``as_of``) whose title or body match a query, best first.

        A query written in FTS5 syntax (double quotes, AND/OR/NOT/NEAR, ``*``, ``:``, ``(``)
        is used as written; any other has each of its words quoted, so ``REQ-1``,
        ``checkout-redesign`` or ``plan.md`` find the texts that contain them. Each hit
        comes with a snippet of the best-matching column, matches between SNIPPET_START
        and SNIPPET_END.
        """
        if not self.database.is_sqlite:
            raise KnowledgeSearchError(
                f"cannot search for {query!r}: full-text search needs an SQLite database, "
                f"and {self.database.url} is {self.database.engine.dialect.name}"
            )
        if not query.strip():
            raise KnowledgeSearchError(f"cannot search for {query!r}: the query is empty")
        match = fts_query(query)
        statement = _search_query(match, as_of, subject, kind).limit(limit)
        try:
            with self.database.read() as connection:
                rows = connection.execute(statement).all()
        except OperationalError as failure:
            reason = getattr(failure, "orig", None) or failure
            hint = FTS_HINT if match == query else ""
            raise KnowledgeSearchError(f"cannot search for {query!r}: {reason}{hint}") from failure
        return [(_version_from_row(row), row.snippet) for row in rows]

    def _select_versions(self, query: Select) -> list[ArtifactVersion]:
        with self.database.read() as connection:
            return [_version_from_row(row) for row in connection.execute(query)]


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


def body_digest(text: str) -> str:
    """The SHA-256 (hex) a body is stored under: of its text encoded as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- queries -------------------------------------------------------------------------------


def _is_head(as_of: datetime | None) -> ColumnElement[bool]:
    later = artifact_versions.alias("later")
    superseding = select(later.c.ref).where(later.c.supersedes == artifact_versions.c.ref)
    if as_of is None:
        return ~exists(superseding)
    superseding = superseding.where(later.c.created_at <= as_of)
    return and_(artifact_versions.c.created_at <= as_of, ~exists(superseding))


def _filtered(query: Select, **equal: str | None) -> Select:
    for name, value in equal.items():
        if value is not None:
            query = query.where(artifact_versions.c[name] == value)
    return query


def _heads_query(as_of: datetime | None, **equal: str | None) -> Select:
    query = _filtered(select(artifact_versions).where(_is_head(as_of)), **equal)
    table_ = artifact_versions.c
    return query.order_by(table_.subject, table_.artifact_id, table_.created_at, table_.seq)


def _search_query(
    query: str, as_of: datetime | None, subject: str | None, kind: str | None
) -> Select:
    index = literal_column(SEARCH_TABLE)
    indexed = table(SEARCH_TABLE, column("rowid"))
    snippet = func.snippet(index, -1, SNIPPET_START, SNIPPET_END, SNIPPET_ELLIPSIS, SNIPPET_TOKENS)
    statement = (
        select(artifact_versions, snippet.label("snippet"))
        .select_from(indexed.join(artifact_versions, artifact_versions.c.seq == indexed.c.rowid))
        .where(index.op("MATCH")(query), _is_head(as_of))
        .order_by(func.bm25(index, 0.0, TITLE_WEIGHT, 1.0), artifact_versions.c.seq)
    )
    return _filtered(statement, subject=subject, kind=kind)


# --- landing rules -------------------------------------------------------------------------


def _check_landing(version: ArtifactVersion, text: str, derivation: Derivation) -> None:
    for name, moment in (
        ("created_at", version.front.created_at),
        ("landed_at", version.landed_at),
    ):
        if moment.tzinfo is None:
            raise ValueError(f"cannot land {version.ref}: its {name} has no time zone")
    digest = body_digest(text)
    if digest != version.sha256:
        raise ArtifactIntegrityError(
            f"cannot land {version.ref}: its text has SHA-256 {digest}, "
            f"not the {version.sha256} it was given"
        )
    if isinstance(derivation, Derivation):
        _check_derivation(version.ref, derivation)


def _refuse_conflicts(connection: Connection, versions: list[ArtifactVersion]) -> None:
    """Refuse a ref stored already and a supersedes that is unknown or would fork a chain."""
    table_ = artifact_versions.c
    targets = sorted({v.front.supersedes for v in versions} - {None})
    stored = _present(connection, table_.ref, [v.ref for v in versions] + targets)
    query = select(table_.supersedes, table_.ref)
    successors = dict(_rows_in(connection, query, table_.supersedes, targets))
    landed: set[str] = set()
    for version in versions:
        ref, replaced = version.ref, version.front.supersedes
        if ref in stored or ref in landed:
            raise KnowledgeConflictError(
                f"cannot land {ref}: a version with that ref is stored already "
                "(stored versions are never replaced)"
            )
        if replaced is not None and replaced not in stored and replaced not in landed:
            raise KnowledgeConflictError(
                f"cannot land {ref}: it supersedes {replaced}, which is not stored"
            )
        if replaced is not None and replaced in successors:
            successor = successors[replaced]
            raise KnowledgeConflictError(
                f"cannot land {ref}: it supersedes {replaced}, which {successor} already "
                "supersedes (that would fork the history); supersede the current head "
                f"{_chain_head(connection, successor, successors)} instead"
            )
        if replaced is not None:
            successors[replaced] = ref
        landed.add(ref)


def _chain_head(connection: Connection, ref: str, successors: dict[str, str]) -> str:
    """The last version of the chain through ``ref`` (``successors``: known links first)."""
    query = select(artifact_versions.c.ref).where(
        artifact_versions.c.supersedes == bindparam("ref")
    )
    while following := successors.get(ref) or connection.execute(query, {"ref": ref}).scalar():
        ref = following
    return ref


def _present(connection: Connection, key: Column, values: list[str]) -> set[str]:
    """Which of the values are stored in the key column."""
    return {row[0] for row in _rows_in(connection, select(key), key, values)}


def _rows_in(connection: Connection, query: Select, key: Column, values: list[str]) -> list[Row]:
    """The query's rows whose ``key`` is one of the values (asked in batches)."""
    found: list[Row] = []
    for start in range(0, len(values), _BATCH):
        found += connection.execute(query.where(key.in_(values[start : start + _BATCH]))).all()
    return found


def _store_bodies(connection: Connection, bodies: dict[str, str]) -> None:
    """Insert the bodies whose SHA-256 is not stored yet."""
    stored = _present(connection, artifact_bodies.c.sha256, sorted(bodies))
    new = [
        {"sha256": digest, "body": text, "size": len(text.encode("utf-8"))}
        for digest, text in bodies.items()
        if digest not in stored
    ]
    _insert_all(connection, artifact_bodies, new)


def _check_derivation(ref: str, derivation: Derivation) -> None:
    """Derived rows belong to the version they are stored with, once each (a caller's slip)."""
    keys = [(node.version_ref, node.key) for node in derivation.nodes]
    keys += [(e.version_ref, e.source, e.type, e.target) for e in derivation.edges]
    foreign = sorted({key[0] for key in keys} - {ref})
    if foreign:
        raise ValueError(f"the derivation of {ref} carries rows of other versions: {foreign}")
    if len(set(keys)) != len(keys):
        twice = next(key for key in keys if keys.count(key) > 1)
        raise ValueError(f"the derivation of {ref} has a row twice: {' '.join(twice[1:])}")


def _insert_derived(
    connection: Connection, derivations: list[tuple[str, Derivation | EncodedDerivation]]
) -> None:
    """Insert each version's derivation as one document filed under it."""
    rows = [{"version_ref": ref, "rows": _document(derivation)} for ref, derivation in derivations]
    _insert_all(connection, kg_derivations, rows)


def _document(derivation: Derivation | EncodedDerivation) -> str:
    if isinstance(derivation, EncodedDerivation):
        return derivation.document
    return encode_derivation(derivation)


def encode_derivation(derivation: Derivation) -> str:
    """A derivation as the document stored for its version (rows without their version)."""
    return json.dumps(
        {
            "nodes": [[n.key, n.type, n.label, n.subject, n.data] for n in derivation.nodes],
            "edges": [[e.source, e.type, e.target, e.subject] for e in derivation.edges],
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def _decoded(found: Iterable[Row]) -> tuple[list[GraphNode], list[GraphEdge]]:
    nodes: list[GraphNode] = []
    edges: list[GraphEdge] = []
    for row in found:
        document, ref = json.loads(row.rows), row.version_ref
        nodes += [
            GraphNode(k, t, label, s, ref, data) for k, t, label, s, data in document["nodes"]
        ]
        edges += [
            GraphEdge(source, t, target, s, ref) for source, t, target, s in document["edges"]
        ]
    return nodes, edges


def _insert_all(
    connection: Connection,
    into: Table,
    values: list[Any],
    fields: Callable[..., Callable[[Any], tuple]] = itemgetter,
) -> None:
    """Insert values as rows, their columns read with ``fields(*names)``.

    On SQLite straight through the driver: a bulk ingest spends most of its time here.
    """
    if not values:
        return
    if connection.dialect.name != "sqlite":
        names = [column_.name for column_ in into.columns]
        read = fields(*names)
        connection.execute(insert(into), [dict(zip(names, read(v), strict=True)) for v in values])
        return
    statement = _sqlite_insert(into.name)
    rows = list(map(fields(*statement.names), values))
    converting = [(i, convert) for i, convert in enumerate(statement.converters) if convert]
    if converting:
        rows = [_converted(row, converting) for row in rows]
    connection.connection.driver_connection.executemany(statement.sql, rows)


def _converted(row: tuple, converting: list[tuple[int, Callable[[Any], Any]]]) -> list:
    converted = list(row)
    for index, convert in converting:
        if converted[index] is not None:
            converted[index] = convert(converted[index])
    return converted


@lru_cache(maxsize=8)
def _sqlite_insert(name: str) -> DriverStatement:
    into = knowledge_metadata.tables[name]
    values = {column_.name: bindparam(column_.name) for column_ in into.columns}
    return compile_for_driver(insert(into).values(values), sqlite_dialect())


# --- rows and values -----------------------------------------------------------------------


def _version_values(version: ArtifactVersion, seq: int) -> dict[str, Any]:
    front = version.front
    return {
        "ref": version.ref,
        "subject": front.subject,
        "artifact_id": front.id,
        "kind": front.kind,
        "title": front.title,
        "created_at": front.created_at,
        "landed_at": version.landed_at,
        "sha256": version.sha256,
        "supersedes": front.supersedes,
        "produced_by": front.produced_by,
        "links": [{"type": link.type, "target": link.target} for link in front.links],
        "seq": seq,
    }


def _version_from_row(row: Row) -> ArtifactVersion:
    front = FrontMatter(
        id=row.artifact_id,
        kind=row.kind,
        subject=row.subject,
        title=row.title,
        produced_by=dict(row.produced_by),
        created_at=row.created_at,
        supersedes=row.supersedes,
        links=tuple(Link(type=link["type"], target=link["target"]) for link in row.links),
    )
    return ArtifactVersion(ref=row.ref, front=front, sha256=row.sha256, landed_at=row.landed_at)


def _node_tuple(node: GraphNode) -> tuple:
    return (node.version_ref, node.key, node.type, node.label, node.subject, _canonical(node.data))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
