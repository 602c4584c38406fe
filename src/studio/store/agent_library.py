"""The agent library in the database: every save of a definition is a new immutable numbered
version (1, 2, 3…); a save equal to the latest version stores nothing. Large bodies (see
``studio.model.agent_library.BODY_THRESHOLD``) are stored once by SHA-256 and checked on read.
"""

from collections.abc import Iterable, Mapping, Sequence
from typing import NoReturn

from sqlalchemy import Connection, Row, and_, func, insert, select

from studio.model.agent_library import (
    DEFAULT,
    FOLDER,
    SYSTEM,
    AgentLibrary,
    AgentPin,
    AgentPins,
    AgentVersion,
    body_digest,
    definition_digest,
    joined_definition,
    split_bodies,
)
from studio.model.agents import AgentDefinition
from studio.model.errors import NotAllowedError, NotFoundError
from studio.store.agent_library_schema import agent_bodies, agent_versions
from studio.store.database import Database
from studio.store.errors import DatabaseError
from studio.store.schema import utc_now
from studio.store.turns import AGENT_LIBRARY, take_turn

AgentChoice = tuple[AgentDefinition, AgentPin | None]
"""A definition a run is about to use, with the library version it is (None: from a folder)."""


class AgentIntegrityError(DatabaseError):
    """A stored agent version whose body or definition no longer matches its SHA-256."""


class ImmutableVersionError(NotAllowedError):
    """An attempt to change a stored agent version; versions are never changed."""


class AgentLibraryRepository:
    """Reads and writes the agent library: SYSTEM (built-in), default (the user's) and
    folder (definitions from ``--agents`` folders that runs used)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    # Writing --------------------------------------------------------------------------------

    def save(self, definition: AgentDefinition, namespace: str = DEFAULT) -> AgentVersion:
        """Store a user definition as its next version; the latest version when unchanged.
        SYSTEM is read-only: fork a built-in definition to change it."""
        if namespace == SYSTEM:
            raise NotAllowedError(
                f"agent '{definition.id}' is a SYSTEM definition, which is read-only; "
                "fork it into default to change it"
            )
        with self.database.write() as connection:
            return save_version(connection, namespace, definition)

    def record_system(self, definitions: Iterable[AgentDefinition]) -> list[AgentVersion]:
        """Record the built-in definitions as SYSTEM versions; only changed ones are new."""
        wanted = list(definitions)
        known = self.library()
        changed = [
            definition
            for definition in wanted
            if not _same(known.latest(SYSTEM, definition.id), definition)
        ]
        if not changed:
            return []
        with self.database.write() as connection:
            return [save_version(connection, SYSTEM, definition) for definition in changed]

    def fork(self, agent_id: str) -> AgentVersion:
        """Copy the latest SYSTEM definition of ``agent_id`` into default as version 1."""
        with self.database.write() as connection:
            original = _latest(connection, SYSTEM, agent_id)
            if original is None:
                raise NotFoundError(f"Agent not found: no SYSTEM definition '{agent_id}'")
            if _latest(connection, DEFAULT, agent_id) is not None:
                raise NotAllowedError(f"agent '{agent_id}' is in default already")
            return save_version(connection, DEFAULT, original.definition)

    def amend(self, entry: AgentVersion, definition: AgentDefinition) -> NoReturn:
        """Refused: a stored version never changes; ``save`` makes the next one."""
        raise ImmutableVersionError(
            f"version {entry.version} of agent '{entry.agent_id}' ({entry.namespace}) is "
            "immutable; save the definition to make a new version"
        )

    # Reading --------------------------------------------------------------------------------

    def library(self) -> AgentLibrary:
        """The latest version of every definition, for shadowing and the catalog."""
        latest = (
            select(
                agent_versions.c.namespace,
                agent_versions.c.agent_id,
                func.max(agent_versions.c.version).label("version"),
            )
            .group_by(agent_versions.c.namespace, agent_versions.c.agent_id)
            .subquery()
        )
        query = select(agent_versions).join(
            latest,
            and_(
                agent_versions.c.namespace == latest.c.namespace,
                agent_versions.c.agent_id == latest.c.agent_id,
                agent_versions.c.version == latest.c.version,
            ),
        )
        with self.database.read() as connection:
            return AgentLibrary(_entries(connection, connection.execute(query).all()))

    def get(
        self, agent_id: str, version: int | None = None, namespace: str | None = None
    ) -> AgentVersion:
        """One version (the latest when ``version`` is None) of the current definition of
        ``agent_id``, or of the one in ``namespace``; NotFoundError when there is none."""
        namespace = namespace or self._current_namespace(agent_id)
        query = _versions_query(namespace, agent_id)
        if version is not None:
            query = query.where(agent_versions.c.version == version)
        with self.database.read() as connection:
            rows = connection.execute(query.limit(1)).all()
            if not rows:
                raise NotFoundError(_missing(agent_id, namespace, version))
            return _entries(connection, rows)[0]

    def versions(self, agent_id: str, namespace: str | None = None) -> list[AgentVersion]:
        """Every version of a definition, oldest first."""
        namespace = namespace or self._current_namespace(agent_id)
        query = (
            _versions_query(namespace, agent_id).order_by(None).order_by(agent_versions.c.version)
        )
        with self.database.read() as connection:
            return _entries(connection, connection.execute(query).all())

    def resolve(self, pins: Mapping[str, AgentPin]) -> dict[str, AgentDefinition]:
        """The exact definitions a run pinned, by agent id."""
        with self.database.read() as connection:
            return {agent_id: _pinned(connection, agent_id, pin) for agent_id, pin in pins.items()}

    def _current_namespace(self, agent_id: str) -> str:
        query = select(agent_versions.c.namespace).where(
            agent_versions.c.agent_id == agent_id, agent_versions.c.namespace != FOLDER
        )
        with self.database.read() as connection:
            namespaces = set(connection.execute(query.distinct()).scalars())
        if not namespaces:
            raise NotFoundError(f"Agent not found: '{agent_id}' is not in the library")
        return DEFAULT if DEFAULT in namespaces else SYSTEM


# Inside a write transaction ----------------------------------------------------------------


def pin_agents(connection: Connection, choices: Mapping[str, AgentChoice]) -> AgentPins:
    """Pin the definitions a run starts with: a library version is pinned as it is; a
    definition from a folder is recorded in the ``folder`` namespace first."""
    pins: AgentPins = {}
    for agent_id, (definition, pin) in sorted(choices.items()):
        pins[agent_id] = pin or save_version(connection, FOLDER, definition).pin
    return pins


def save_version(
    connection: Connection, namespace: str, definition: AgentDefinition
) -> AgentVersion:
    """Store ``definition`` as the next version in ``namespace`` unless it equals the latest,
    which is then returned; its bodies are stored once."""
    take_turn(connection, AGENT_LIBRARY)  # PostgreSQL: one numbering at a time
    latest = _latest(connection, namespace, definition.id)
    if _same(latest, definition):
        assert latest is not None
        return latest
    split = split_bodies(definition)
    for key, text in split.bodies.items():
        _store_body(connection, split.body_refs[key], text)
    version, now = (latest.version + 1 if latest else 1), utc_now()
    connection.execute(
        insert(agent_versions).values(
            namespace=namespace,
            agent_id=definition.id,
            version=version,
            definition=split.data,
            body_refs=split.body_refs,
            definition_sha256=definition_digest(definition),
            created_at=now,
        )
    )
    return AgentVersion(namespace, definition.id, version, definition, now)


def _store_body(connection: Connection, digest: str, text: str) -> None:
    stored = select(agent_bodies.c.sha256).where(agent_bodies.c.sha256 == digest)
    if connection.execute(stored).first() is None:
        size = len(text.encode("utf-8"))
        connection.execute(insert(agent_bodies).values(sha256=digest, body=text, size=size))


def _same(entry: AgentVersion | None, definition: AgentDefinition) -> bool:
    return entry is not None and definition_digest(entry.definition) == definition_digest(
        definition
    )


def _latest(connection: Connection, namespace: str, agent_id: str) -> AgentVersion | None:
    rows = connection.execute(_versions_query(namespace, agent_id).limit(1)).all()
    return _entries(connection, rows)[0] if rows else None


def _pinned(connection: Connection, agent_id: str, pin: AgentPin) -> AgentDefinition:
    query = _versions_query(pin.namespace, agent_id).where(agent_versions.c.version == pin.version)
    rows = connection.execute(query).all()
    if not rows:
        raise NotFoundError(_missing(agent_id, pin.namespace, pin.version))
    return _entries(connection, rows)[0].definition


def _versions_query(namespace: str, agent_id: str):
    """The versions of one definition, newest first."""
    return (
        select(agent_versions)
        .where(agent_versions.c.namespace == namespace, agent_versions.c.agent_id == agent_id)
        .order_by(agent_versions.c.version.desc())
    )


def _entries(connection: Connection, rows: Sequence[Row]) -> list[AgentVersion]:
    """Versions of their rows, each body and each whole definition checked on the way."""
    digests = {digest for row in rows for digest in row.body_refs.values()}
    query = select(agent_bodies).where(agent_bodies.c.sha256.in_(sorted(digests)))
    bodies = {body.sha256: body.body for body in connection.execute(query)} if digests else {}
    return [_entry(row, bodies) for row in rows]


def _entry(row: Row, bodies: Mapping[str, str]) -> AgentVersion:
    named = f"agent '{row.agent_id}' version {row.version} ({row.namespace})"
    texts: dict[str, str] = {}
    for key, digest in row.body_refs.items():
        text = bodies.get(digest)
        if text is None:
            raise AgentIntegrityError(f"{named}: the body {digest} of setting '{key}' is missing")
        if body_digest(text) != digest:
            raise AgentIntegrityError(
                f"{named}: the body {digest} of setting '{key}' does not match its SHA-256; "
                "it was changed outside Studio"
            )
        texts[key] = text
    definition = joined_definition(row.definition, texts)
    if definition_digest(definition) != row.definition_sha256:
        raise AgentIntegrityError(
            f"{named}: the stored definition does not match its SHA-256; "
            "it was changed outside Studio"
        )
    return AgentVersion(row.namespace, row.agent_id, row.version, definition, row.created_at)


def _missing(agent_id: str, namespace: str, version: int | None) -> str:
    if version is None:
        return f"Agent not found: '{agent_id}' has no version in {namespace}"
    return f"Agent not found: '{agent_id}' has no version {version} in {namespace}"
