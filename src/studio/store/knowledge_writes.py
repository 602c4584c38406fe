"""How the knowledge store writes: the rules a landing must pass before anything is stored,
and the inserts themselves (on SQLite straight through the driver, the hot path of an ingest).
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any

from sqlalchemy import (
    BindParameter,
    Connection,
    Insert,
    Label,
    Select,
    Table,
    bindparam,
    func,
    insert,
    literal,
    literal_column,
    select,
)
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect

from studio.model.errors import ConflictError
from studio.model.knowledge import ArtifactVersion, Derivation
from studio.store.driver_statements import (
    DriverStatement,
    compile_for_driver,
    sqlite_driver,
)
from studio.store.hot_statements import HotStatement
from studio.store.knowledge_derived import EncodedDerivation, check_derivation, document
from studio.store.knowledge_integrity import ArtifactIntegrityError, body_digest
from studio.store.knowledge_queries import present, rows_in
from studio.store.knowledge_schema import (
    VERSION_NUMBERS,
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


@dataclass(frozen=True)
class LandingFacts:
    """What the stored versions say about a batch of landings, read before anything is
    written: which of their refs and supersedes targets are stored, who supersedes each
    target already and which bodies are stored; and the numbers the versions take, in
    landing order."""

    stored: set[str]
    successors: dict[str, str]
    bodies: set[str]
    numbers: list[int]


def landing_facts(connection: Connection, versions: list[ArtifactVersion]) -> LandingFacts:
    """The facts a landing is judged by; one statement for a single version (a work item
    filing as it closes), batched IN lists for many."""
    return send_landing_facts(connection, versions)()


def send_landing_facts(
    connection: Connection, versions: list[ArtifactVersion]
) -> Callable[[], LandingFacts]:
    """``landing_facts``, read by calling what is returned: for a single version its one
    statement is only sent until then (queued, inside ``pipelined`` on PostgreSQL)."""
    if len(versions) != 1:
        facts = _facts_of_many(connection, versions)
        return lambda: facts
    (version,) = versions
    values = {"ref": version.ref, "target": version.front.supersedes, "sha": version.sha256}
    sent = _ONE_LANDING[connection.dialect.name == "postgresql"].send(connection, values)
    return lambda: _facts_of_one(version, sent.first())


def _facts_of_many(connection: Connection, versions: list[ArtifactVersion]) -> LandingFacts:
    if not versions:
        return LandingFacts(set(), {}, set(), [])
    table_ = artifact_versions.c
    targets = sorted({v.front.supersedes for v in versions if v.front.supersedes is not None})
    stored = present(connection, table_.ref, [v.ref for v in versions] + targets)
    query = select(table_.supersedes, table_.ref)
    successors = {
        replaced: ref for replaced, ref in rows_in(connection, query, table_.supersedes, targets)
    }
    bodies = present(connection, artifact_bodies.c.sha256, sorted({v.sha256 for v in versions}))
    return LandingFacts(stored, successors, bodies, _numbers(connection, len(versions)))


def _numbers(connection: Connection, count: int) -> list[int]:
    """The next ``count`` version numbers: from the sequence on PostgreSQL; after the last
    one stored on SQLite, whose writers take turns."""
    if connection.dialect.name == "postgresql":
        numbers = connection.exec_driver_sql(
            f"SELECT nextval('{VERSION_NUMBERS}') FROM generate_series(1, {int(count)})"
        )
        return sorted(int(number) for (number,) in numbers)
    last = connection.execute(select(func.max(artifact_versions.c.seq))).scalar() or 0
    return list(range(last + 1, last + 1 + count))


def _facts_of_one(version: ArtifactVersion, row: Any) -> LandingFacts:
    """The facts of one landing from its statement's row (scalar subqueries: always one)."""
    stored = {version.ref} if row.ref_taken else set()
    if row.target_stored:
        stored.add(str(version.front.supersedes))
    successors = {} if row.successor is None else {str(version.front.supersedes): row.successor}
    bodies = {version.sha256} if row.body_stored else set()
    return LandingFacts(stored, successors, bodies, [row.number])


def _one_landing_statement(numbered: bool) -> Select:
    """The facts of one landing in one statement, with its number: the sequence's next
    (``numbered``: PostgreSQL) or the one after the last stored."""
    table_ = artifact_versions.c

    def found(query: Select, name: str) -> Label[Any]:
        return query.limit(1).scalar_subquery().label(name)

    after_last = func.coalesce(select(func.max(table_.seq)).scalar_subquery(), 0) + 1
    number = literal_column(f"nextval('{VERSION_NUMBERS}')") if numbered else after_last
    return select(
        found(select(literal(1)).where(table_.ref == bindparam("ref")), "ref_taken"),
        found(select(literal(1)).where(table_.ref == bindparam("target")), "target_stored"),
        found(select(table_.ref).where(table_.supersedes == bindparam("target")), "successor"),
        found(
            select(literal(1)).where(artifact_bodies.c.sha256 == bindparam("sha")), "body_stored"
        ),
        number.label("number"),
    )


_ONE_LANDING = (
    HotStatement(_one_landing_statement(numbered=False)),
    HotStatement(_one_landing_statement(numbered=True)),
)
"""The single-landing facts statement: [0] numbers after the last stored, [1] by sequence."""


def refuse_conflicts(
    connection: Connection, versions: list[ArtifactVersion], facts: LandingFacts
) -> None:
    """Refuse a ref stored already and a supersedes that is unknown or would fork a chain."""
    successors = dict(facts.successors)
    landed: set[str] = set()
    for version in versions:
        ref, replaced = version.ref, version.front.supersedes
        if ref in facts.stored or ref in landed:
            raise KnowledgeConflictError(
                f"cannot land {ref}: a version with that ref is stored already "
                "(stored versions are never replaced)"
            )
        if replaced is not None and replaced not in facts.stored and replaced not in landed:
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
    while following := successors.get(ref) or _SUCCESSOR.scalar(connection, {"ref": ref}):
        ref = following
    return ref


_SUCCESSOR = HotStatement(
    select(artifact_versions.c.ref).where(artifact_versions.c.supersedes == bindparam("ref"))
)


def store_bodies(connection: Connection, bodies: dict[str, str], stored: set[str]) -> None:
    """Insert the bodies whose SHA-256 is not among the ``stored`` ones, by SHA-256 (the
    order locks are taken in). On PostgreSQL a body another landing is storing at the same
    moment, not committed yet, is left to it; one committed meanwhile is refused by the
    table's trigger, which refuses the landing (see ``landing_clash``)."""
    new = [
        {"sha256": digest, "body": bodies[digest], "size": len(bodies[digest].encode("utf-8"))}
        for digest in sorted(bodies)
        if digest not in stored
    ]
    if new and connection.dialect.name == "postgresql":
        _new_bodies().many(connection, new)
        return
    insert_all(connection, artifact_bodies, new)


def insert_one_landing(
    connection: Connection,
    version_row: dict[str, Any],
    text: str,
    derivation: Derivation | EncodedDerivation,
    body_stored: bool,
) -> None:
    """PostgreSQL: one landing's body (unless it is stored), then its version row and
    derivation in one statement: a work item filing as it closes sends them with the rest
    of its ack."""
    if not body_stored:  # first, as every landing stores its bodies before its versions
        body = {"sha256": version_row["sha256"], "body": text, "size": len(text.encode("utf-8"))}
        _new_bodies().send(connection, body)
    _VERSION_AND_DERIVATION.send(connection, {**version_row, "rows": document(derivation)})


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

    On SQLite straight through the driver: a bulk ingest spends most of its time here. On
    PostgreSQL as a hot statement: inside ``pipelined`` (a work item filing as it closes)
    the rows go to the server with what the transaction sends next.
    """
    if not values:
        return
    if connection.dialect.name != "sqlite":
        names = [column_.name for column_ in into.columns]
        read = fields(*names)
        named = [dict(zip(names, read(v), strict=True)) for v in values]
        _hot_insert(into.name).many(connection, named)
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
    return compile_for_driver(insert(into).values(_every_column(into)), sqlite_dialect())


@lru_cache(maxsize=8)
def _hot_insert(name: str) -> HotStatement:
    into = knowledge_metadata.tables[name]
    return HotStatement(insert(into).values(_every_column(into)))


def _every_column(into: Table) -> dict[str, BindParameter[Any]]:
    """A parameter for each of the table's columns, named after it."""
    return {column_.name: bindparam(column_.name) for column_ in into.columns}


@lru_cache(maxsize=1)
def _new_bodies() -> HotStatement:
    """PostgreSQL: bodies not stored yet; one another landing is storing meanwhile is its.
    Made when first sent: the PostgreSQL dialect imports the modules of all its drivers,
    which a store on SQLite never needs."""
    from sqlalchemy.dialects.postgresql import insert as postgresql_insert

    return HotStatement(
        postgresql_insert(artifact_bodies)
        .values(_every_column(artifact_bodies))
        .on_conflict_do_nothing()
    )


def _version_and_derivation() -> Insert:
    """A version and its derivation as one statement: the derivation is inserted from what
    the version's insert returns, so it comes second, as in a landing of many (the order
    concurrent landings take their locks in)."""
    version = (
        insert(artifact_versions)
        .values(_every_column(artifact_versions))
        .returning(artifact_versions.c.ref)
        .cte("landed_version")
    )
    rows = bindparam("rows", type_=kg_derivations.c.rows.type)
    return insert(kg_derivations).from_select(["version_ref", "rows"], select(version.c.ref, rows))


_VERSION_AND_DERIVATION = HotStatement(_version_and_derivation())
"""PostgreSQL: one landing's version row and derivation, after its body."""
