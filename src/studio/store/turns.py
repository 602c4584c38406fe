"""Writers that must take turns on PostgreSQL.

SQLite lets one writer in at a time, so a transaction that reads "the latest version" and
writes the next one sees no other writer between the two. PostgreSQL lets writers run side by
side; the ones that number versions take a transaction-scoped advisory lock first, one per
kind of numbering, and release it when they commit or roll back. (Knowledge landings need no
turn: a sequence numbers their versions, see ``knowledge_schema.VERSION_NUMBERS``.)
"""

from sqlalchemy import BigInteger, Connection, bindparam, func, select

from studio.store.hot_statements import HotStatement

AGENT_LIBRARY = 0x5354554441
"""Saves to the agent library, which number each agent's versions."""
CAPABILITY_MANIFESTS = 0x535455444D
"""Publications of capability manifests, which number each capability's versions."""


def take_turn(connection: Connection, turn: int) -> None:
    """Wait for this kind of write's turn, for the rest of the transaction (PostgreSQL only)."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({int(turn)})")


def share_turn(connection: Connection, turn: int) -> None:
    """Keep this kind of write from taking its turn until the transaction ends, alongside
    others that share it (PostgreSQL only): what the transaction reads of it stays the
    latest until its COMMIT. Sent with what follows, inside ``pipelined``."""
    if connection.dialect.name == "postgresql":
        _SHARED_TURN.send(connection, {"turn": turn})


_SHARED_TURN = HotStatement(
    select(func.pg_advisory_xact_lock_shared(bindparam("turn", type_=BigInteger)))
)
