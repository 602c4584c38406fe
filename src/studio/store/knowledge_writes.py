"""How the knowledge store writes: the rules a landing must pass before anything is stored,
and the inserts themselves (on SQLite straight through the driver, the hot path of an ingest).
"""

from collections.abc import Callable
from functools import lru_cache
from operator import itemgetter
from typing import Any

from sqlalchemy import BindParameter, Connection, Table, bindparam, insert, select
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect

from studio.model.errors import ConflictError
from studio.model.knowledge import ArtifactVersion, Derivation
from studio.store.driver_statements import DriverStatement, compile_for_driver, sqlite_driver
from studio.store.knowledge_derived import EncodedDerivation, check_derivation, document
from studio.store.knowledge_integrity import ArtifactIntegrityError, body_digest
from studio.store.knowledge_queries import present, rows_in
from studio.store.knowledge_schema import (
    artifact_bodies,
    artifact_versions,
    kg_derivations,
    knowledge_metadata,
)


class KnowledgeConflictError(ConflictError):
    """A version the stored ones refuse: its ref exists, or it would fork a supersedes chain."""


def check_landing(
    version: ArtifactVersion, text: str, derivation: Derivation | EncodedDerivation
) -> None:
    """Refuse a version whose times have no zone, whose text is not the one its SHA-256
    names, or whose derivation carries rows of another version or a row twice."""
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
        check_derivation(version.ref, derivation)


def refuse_conflicts(connection: Connection, versions: list[ArtifactVersion]) -> None:
    """Refuse a ref stored already and a supersedes that is unknown or would fork a chain."""
    table_ = artifact_versions.c
    targets = sorted({v.front.supersedes for v in versions if v.front.supersedes is not None})
    stored = present(connection, table_.ref, [v.ref for v in versions] + targets)
    query = select(table_.supersedes, table_.ref)
    successors: dict[str, str] = {
        replaced: ref for replaced, ref in rows_in(connection, query, table_.supersedes, targets)
    }
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


def store_bodies(connection: Connection, bodies: dict[str, str]) -> None:
    """Insert the bodies whose SHA-256 is not stored yet."""
    stored = present(connection, artifact_bodies.c.sha256, sorted(bodies))
    new = [
        {"sha256": digest, "body": text, "size": len(text.encode("utf-8"))}
        for digest, text in bodies.items()
        if digest not in stored
    ]
    insert_all(connection, artifact_bodies, new)


def insert_derived(
    connection: Connection, derivations: list[tuple[str, Derivation | EncodedDerivation]]
) -> None:
    """Insert each version's derivation as one document filed under it."""
    rows = [{"version_ref": ref, "rows": document(derivation)} for ref, derivation in derivations]
    insert_all(connection, kg_derivations, rows)


def insert_all(
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
    sqlite_driver(connection).executemany(statement.sql, rows)


def _converted(row: tuple, converting: list[tuple[int, Callable[[Any], Any]]]) -> tuple:
    converted = list(row)
    for index, convert in converting:
        if converted[index] is not None:
            converted[index] = convert(converted[index])
    return tuple(converted)


@lru_cache(maxsize=8)
def _sqlite_insert(name: str) -> DriverStatement:
    into = knowledge_metadata.tables[name]
    values: dict[str, BindParameter[Any]] = {
        column_.name: bindparam(column_.name) for column_ in into.columns
    }
    return compile_for_driver(insert(into).values(values), sqlite_dialect())
