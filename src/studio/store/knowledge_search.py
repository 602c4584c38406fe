"""Full-text search of the knowledge store (SQLite FTS5), its hits checked before they are
shown: a snippet of a damaged text would show what nobody landed."""

from datetime import datetime

from sqlalchemy.exc import OperationalError

from studio.model.errors import StudioError
from studio.model.knowledge import ArtifactVersion
from studio.store.database import Database
from studio.store.knowledge_queries import FTS_HINT, fts_query, search_query
from studio.store.knowledge_search_index import index_waiting_versions
from studio.store.knowledge_versions import Damaged, checked_hits


class KnowledgeSearchError(StudioError):
    """A search the full-text index cannot run: a malformed query or no SQLite."""


def search_heads(
    database: Database,
    query: str,
    as_of: datetime | None,
    subject: str | None,
    kind: str | None,
    limit: int,
    damaged: Damaged,
) -> list[tuple[ArtifactVersion, str]]:
    """Head versions (at ``as_of``) whose title or body match a query, best first, each with
    a snippet; ``KnowledgeRepository.search`` says how a query is read."""
    if not database.is_sqlite:
        raise KnowledgeSearchError(
            f"cannot search for {query!r}: full-text search needs an SQLite database, "
            f"and {database.url} is {database.engine.dialect.name}"
        )
    if not query.strip():
        raise KnowledgeSearchError(f"cannot search for {query!r}: the query is empty")
    match = fts_query(query)
    statement = search_query(match, as_of, subject, kind).limit(limit)
    index_waiting_versions(database)
    try:
        with database.read() as connection:
            rows = connection.execute(statement).all()
    except OperationalError as failure:
        reason = getattr(failure, "orig", None) or failure
        hint = FTS_HINT if match == query else ""
        raise KnowledgeSearchError(f"cannot search for {query!r}: {reason}{hint}") from failure
    return checked_hits(rows, damaged)
