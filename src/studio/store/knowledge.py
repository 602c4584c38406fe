"""Knowledge artifacts: every landed version kept, each body stored once by SHA-256, the graph
rows derived from each version, and full-text search (SQLite FTS5).

Every version read is checked against its version hash, and every text read against its
SHA-256 (``knowledge_integrity`` defines both). Reads that may meet a damaged version take
``damaged``: a list the damaged versions are added to and left out of the answer; without it,
meeting one raises ArtifactIntegrityError. The queries live in ``knowledge_queries``, the
landing rules and inserts in ``knowledge_writes``, the rows of versions and their checks in
``knowledge_versions``, the derived graph rows in ``knowledge_derived`` and search in
``knowledge_search``.
"""

from collections.abc import Iterable, Mapping
from datetime import datetime
from operator import itemgetter

from sqlalchemy import Connection, Row, Select, bindparam, delete, select
from sqlalchemy.exc import IntegrityError

from studio.model.errors import NotFoundError
from studio.model.knowledge import ArtifactVersion, Derivation, GraphEdge, GraphNode
from studio.store.database import Database
from studio.store.knowledge_derived import (
    EncodedDerivation,
    VersionRows,
    check_derivation,
    decoded,
    differing_refs,
    encode_derivation,
    graph_rows_of,
    row_tuples,
    rows_by_version,
)
from studio.store.knowledge_integrity import (
    ArtifactIntegrityError,
    DamagedVersion,
    body_digest,
    report,
    text_damage,
)
from studio.store.knowledge_queries import (
    filtered,
    fts_query,
    heads_query,
    present,
    rows_in,
    versions_query,
)
from studio.store.knowledge_schema import (
    artifact_bodies,
    artifact_versions,
    kg_derivations,
)
from studio.store.knowledge_search import KnowledgeSearchError, search_heads
from studio.store.knowledge_search_index import index_when_many_wait
from studio.store.knowledge_versions import Damaged, checked_versions, version_values
from studio.store.knowledge_writes import (
    KnowledgeConflictError,
    LandingFacts,
    check_landing,
    insert_all,
    insert_derived,
    insert_one_landing,
    landing_facts,
    refuse_conflicts,
    send_landing_facts,
    store_bodies,
)

__all__ = [
    "ArtifactIntegrityError",
    "Damaged",
    "DamagedVersion",
    "EncodedDerivation",
    "KnowledgeConflictError",
    "KnowledgeRepository",
    "KnowledgeSearchError",
    "Landing",
    "body_digest",
    "check_landing",
    "encode_derivation",
    "fts_query",
    "landing_clash",
    "landing_facts",
    "send_landing_facts",
    "store_landings",
    "write_landings",
]

Landing = tuple[ArtifactVersion, str, Derivation | EncodedDerivation]
"""A version to store, the text it was landed with and the graph rows derived from it."""


_REF_STORED = select(artifact_versions.c.ref).where(artifact_versions.c.ref == bindparam("ref"))


def write_landings(connection: Connection, landings: list[Landing]) -> None:
    """Store checked landings inside the caller's write transaction (see add_versions).

    Versions are numbered in landing order. SQLite's writers take turns, so the checks see
    every landing before this one. On PostgreSQL landings run side by side, each numbered
    by the sequence; two that store the same ref, or supersede the same version, at the same
    moment meet the tables' unique keys, and the later one is refused whole."""
    store_landings(connection, landings, landing_facts(connection, [v for v, _, _ in landings]))


def landing_clash(versions: list[ArtifactVersion]) -> KnowledgeConflictError:
    """The refusal of landings that met another landing's unique keys at the same moment
    (PostgreSQL, whose landings run side by side)."""
    return KnowledgeConflictError(
        f"cannot land {', '.join(v.ref for v in versions)}: another landing stored the "
        "same ref, or superseded the same version, at the same moment"
    )


def store_landings(connection: Connection, landings: list[Landing], facts: LandingFacts) -> None:
    """``write_landings`` once the facts are read (see ``landing_facts``)."""
    versions = [version for version, _, _ in landings]
    refuse_conflicts(connection, versions, facts)
    rows = [version_values(v, seq) for seq, v in zip(facts.numbers, versions, strict=True)]
    postgres = connection.dialect.name == "postgresql"
    try:  # bodies by SHA-256: landings sharing one wait for each other, never deadlock
        if postgres and len(landings) == 1:
            ((version, text, derivation),) = landings
            insert_one_landing(
                connection, rows[0], text, derivation, version.sha256 in facts.bodies
            )
            return
        store_bodies(connection, {v.sha256: text for v, text, _ in landings}, facts.bodies)
        insert_all(connection, artifact_versions, rows)  # in order: one may supersede another
    except IntegrityError as clash:
        if not postgres:
            raise
        raise landing_clash(versions) from clash
    derived = sorted(((v.ref, d) for v, _, d in landings), key=itemgetter(0))
    insert_derived(connection, derived)
    if connection.dialect.name == "sqlite" and rows:
        index_when_many_wait(connection, facts.numbers)


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
            check_landing(version, text, derivation)
        if not landings:
            return
        with self.database.write() as connection:
            write_landings(connection, landings)

    # --- reading versions ----------------------------------------------------------------

    def version(self, ref: str) -> ArtifactVersion | None:
        """The stored version with this ref, or None; raises ArtifactIntegrityError if damaged."""
        found = self._select_versions(versions_query().where(artifact_versions.c.ref == ref))
        return found[0] if found else None

    def body(self, ref: str) -> str:
        """The text of a version, after checking the version and that its text still has the
        SHA-256 it was stored under; raises ArtifactIntegrityError if either is damaged."""
        query = (
            versions_query()
            .add_columns(artifact_bodies.c.body.label("text"))
            .outerjoin(artifact_bodies, artifact_bodies.c.sha256 == artifact_versions.c.sha256)
            .where(artifact_versions.c.ref == ref)
        )
        with self.database.read() as connection:
            row = connection.execute(query).first()
        if row is None:
            raise NotFoundError(f"no artifact version {ref} is stored")
        (version,) = checked_versions([row], None)
        problem = text_damage(ref, version.sha256, row.text)
        if problem is not None:
            raise ArtifactIntegrityError.naming([problem])
        return row.text

    def texts(self, versions: Iterable[ArtifactVersion], damaged: Damaged = None) -> dict[str, str]:
        """The text of each version by ref, checked against its SHA-256 (a text that several
        versions share is read and hashed once)."""
        versions = list(versions)
        digests = sorted({version.sha256 for version in versions})
        query = select(artifact_bodies.c.sha256, artifact_bodies.c.body)
        with self.database.read() as connection:
            stored = dict(rows_in(connection, query, artifact_bodies.c.sha256, digests))
        intact = {digest: text for digest, text in stored.items() if body_digest(text) == digest}
        texts: dict[str, str] = {}
        found: list[DamagedVersion] = []
        for version in versions:
            if version.sha256 in intact:
                texts[version.ref] = intact[version.sha256]
            elif problem := text_damage(version.ref, version.sha256, stored.get(version.sha256)):
                found.append(problem)
        report(found, damaged)
        return texts

    def heads(
        self,
        as_of: datetime | None = None,
        subject: str | None = None,
        kind: str | None = None,
        damaged: Damaged = None,
    ) -> list[ArtifactVersion]:
        """The current version of every artifact (at ``as_of``), by subject and artifact id."""
        return self._select_versions(heads_query(as_of, subject=subject, kind=kind), damaged)

    def head_of(
        self, subject: str, artifact_id: str, as_of: datetime | None = None
    ) -> ArtifactVersion | None:
        """The current version of one artifact (at ``as_of``; the newest if several), or None."""
        found = self._select_versions(heads_query(as_of, subject=subject, artifact_id=artifact_id))
        return found[-1] if found else None

    def versions(
        self, subject: str | None = None, artifact_id: str | None = None, damaged: Damaged = None
    ) -> list[ArtifactVersion]:
        """Every version, superseded ones too, oldest first: the history."""
        query = filtered(versions_query(), subject=subject, artifact_id=artifact_id)
        table_ = artifact_versions.c
        return self._select_versions(query.order_by(table_.created_at, table_.seq), damaged)

    def all_versions_in_landing_order(self, damaged: Damaged = None) -> list[ArtifactVersion]:
        """Every version in the order it was landed (what a rebuild replays)."""
        query = versions_query().order_by(artifact_versions.c.seq)
        return self._select_versions(query, damaged)

    def version_exists(self, ref: str) -> bool:
        """Whether a version with this ref is stored (no integrity check)."""
        with self.database.read() as connection:
            return connection.execute(_REF_STORED, {"ref": ref}).first() is not None

    def refs(self) -> set[str]:
        """The refs of every stored version."""
        with self.database.read() as connection:
            return set(connection.execute(select(artifact_versions.c.ref)).scalars())

    def verify(self) -> tuple[int, list[DamagedVersion]]:
        """Check every stored version and its text: how many versions there are, and every
        damaged one."""
        damaged: list[DamagedVersion] = []
        intact = self.all_versions_in_landing_order(damaged)
        checked = len(intact) + len(damaged)
        self.texts(intact, damaged)
        return checked, damaged

    def _select_versions(self, query: Select, damaged: Damaged = None) -> list[ArtifactVersion]:
        with self.database.read() as connection:
            rows = connection.execute(query).all()
        return checked_versions(rows, damaged)

    # --- derived graph rows --------------------------------------------------------------

    def graph_rows(
        self, version_refs: Iterable[str], damaged: Damaged = None
    ) -> tuple[list[GraphNode], list[GraphEdge]]:
        """The graph rows derived from the given versions, by subject, then key or endpoints.

        They are read as stored (``verify`` compares them with what the text derives); a
        version whose rows cannot be read at all is damaged."""
        return graph_rows_of(self._stored_rows(version_refs), damaged)

    def graph_rows_by_version(
        self, version_refs: Iterable[str], damaged: Damaged = None
    ) -> dict[str, VersionRows]:
        """``graph_rows``, kept apart by version ref: cheaper for thousands of versions than
        ordering every row of them together. A version whose rows cannot be read is
        damaged and missing from the answer."""
        return rows_by_version(self._stored_rows(version_refs), damaged)

    def _stored_rows(self, version_refs: Iterable[str]) -> list[Row]:
        wanted = sorted(set(version_refs))
        with self.database.read() as connection:
            return rows_in(connection, select(kg_derivations), kg_derivations.c.version_ref, wanted)

    def rebuild_derived(self, derivations: Mapping[str, Derivation]) -> None:
        """Replace every derived row with fresh derivations by version ref, in one transaction."""
        for ref, derivation in derivations.items():
            check_derivation(ref, derivation)
        with self.database.write() as connection:
            unknown = set(derivations) - present(
                connection, artifact_versions.c.ref, sorted(derivations)
            )
            if unknown:
                raise NotFoundError(f"no artifact version {min(unknown)} is stored")
            connection.execute(delete(kg_derivations))
            insert_derived(connection, list(derivations.items()))

    def derived_snapshot(self) -> list[tuple]:
        """Every derived row as a tuple, sorted: equal snapshots mean identical graph rows."""
        with self.database.read() as connection:
            return row_tuples(*decoded(connection.execute(select(kg_derivations)).all()))

    def differing_derivations(self, derivations: Mapping[str, Derivation]) -> list[str]:
        """The refs, in the order given, whose stored graph rows are not the rows given for
        them: changed, missing or unreadable."""
        with self.database.read() as connection:
            found = rows_in(
                connection, select(kg_derivations), kg_derivations.c.version_ref, list(derivations)
            )
        return differing_refs(found, derivations)

    # --- search --------------------------------------------------------------------------

    def search(
        self,
        query: str,
        as_of: datetime | None = None,
        subject: str | None = None,
        kind: str | None = None,
        limit: int = 50,
        damaged: Damaged = None,
    ) -> list[tuple[ArtifactVersion, str]]:
        """Head versions (at ``as_of``) whose title or body match a query, best first.

        A query written in FTS5 syntax (double quotes, AND/OR/NOT/NEAR, ``*``, ``:``, ``(``)
        is used as written; any other has each of its words quoted, so ``REQ-1``,
        ``checkout-redesign`` or ``plan.md`` find the texts that contain them. Each hit
        comes with a snippet of the best-matching column, matches between SNIPPET_START
        and SNIPPET_END. A hit whose version or text fails its check is damaged: its snippet
        would show what nobody landed.
        """
        return search_heads(self.database, query, as_of, subject, kind, limit, damaged)
