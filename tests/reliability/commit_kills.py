"""Killing a step runner in-process at a transaction boundary, and a side-effecting agent
kind that keeps a ledger of its calls.

A ``CommitKiller`` watches one Database's write transactions. At the chosen boundary it
raises ``Killed`` (a BaseException, so no ``except Exception`` of Studio's stops it): either
as the Nth commit is about to happen (it never does) or right after the Nth commit returns,
before the code that committed goes on. From then on the runner counts as dead:
every transaction it begins and every call its agents would make raises ``Killed`` too, so
neither the store nor the outside world sees anything a SIGKILLed process would not have
done. The runner's Database is then left as a dead process leaves its file (``die``): no
clean close, its marker in place but no longer locked, so the next open sees a dead session.

``LedgerKind`` is the outside world: each call appends a line to a ledger file, after
checking, on a connection of its own, that the node's reservation (its ``running`` row and a
``node.started`` event) is already committed. A call made without it is written down in
``Outside.unreserved``. A node given ``failures: k`` fails its first k attempts (each
leaves ``<node>!<attempt>`` in the ledger); a call that succeeds leaves ``<node>`` and is
written down in ``Outside.returns`` with the number of commits its runner had made then.
"""

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from sqlalchemy import Connection, event

from studio.engine.agent_kinds.base import AgentCall, AgentError, AgentKind
from studio.store import Database

BEFORE_COMMIT = "before"
AFTER_COMMIT = "after"


class Killed(BaseException):
    """The runner's process is gone."""


@dataclass
class CommitKiller:
    """Kills the runner on a Database at its write transaction ``at`` (counted from 1 after
    ``arm``): ``before`` its commit, or right ``after`` it."""

    at: int
    when: str
    commits: int = 0
    armed: bool = False
    dead: bool = False

    def watch(self, database: Database) -> None:
        """Follow the database's transactions (its ``write`` is wrapped on the instance)."""
        event.listen(database.engine, "begin", self._on_begin)
        event.listen(database.engine, "commit", self._on_commit)
        write = database.write

        @contextlib.contextmanager
        def write_then_maybe_die() -> Iterator[Connection]:
            with write() as connection:
                yield connection
            if self.armed and self.when == AFTER_COMMIT and self.commits == self.at:
                self._die()

        database.write = write_then_maybe_die

    def arm(self) -> None:
        """Start counting commits."""
        self.armed = True

    def check_alive(self) -> None:
        """Raise Killed once the runner is dead."""
        if self.dead:
            raise Killed()

    def _on_begin(self, _connection: Connection) -> None:
        self.check_alive()

    def _on_commit(self, connection: Connection) -> None:
        self.check_alive()
        writing = connection.get_execution_options().get("studio_begin") == "IMMEDIATE"
        if not (self.armed and writing):
            return
        if self.when == BEFORE_COMMIT and self.commits + 1 == self.at:
            self._die()
        self.commits += 1

    def _die(self) -> None:
        self.dead = True
        raise Killed()


def die(database: Database) -> None:
    """Leave the database as a killed process does: its connections closed by the system,
    no clean-close seal written, and its marker left beside the file, no longer locked."""
    ending = database._session_end.detach()  # the finalizer would seal the file as closed
    database.engine.dispose()
    session = None if ending is None else ending[2][1]
    held = None if session is None else session._held
    if held is not None:
        os.close(held[1])  # the system drops the lock with the process; the marker stays
        session._held = None


@dataclass(frozen=True)
class Returned:
    """A call that returned its output, and how many commits its runner had made then."""

    node_id: str
    killer: "CommitKiller | None"
    commits: int

    def committed_after(self) -> bool:
        """Whether its runner made a commit after the call returned (the last runner, never
        killed, made every commit of the run)."""
        return self.killer is None or self.killer.commits > self.commits


@dataclass
class Outside:
    """The world the ledger kind acts on: the SQLite file, the ledger and who is alive."""

    database_file: Path
    ledger: Path
    killer: CommitKiller | None = None
    unreserved: list[str] = field(default_factory=list)
    returns: list[Returned] = field(default_factory=list)


class LedgerKind(AgentKind):
    """Appends to the ledger, once its reservation is seen committed: the node id, or, for
    an attempt that fails on purpose, the node id and the attempt."""

    name: ClassVar[str] = "ledger"
    outside: ClassVar[Outside | None] = None

    async def run(self, call: AgentCall) -> Any:
        """Yield once (as a real call would), then act on the outside world."""
        await asyncio.sleep(0)
        outside = LedgerKind.outside
        assert outside is not None, "set LedgerKind.outside first"
        if outside.killer is not None:
            outside.killer.check_alive()
        if not reservation_committed(outside.database_file, call.execution_id, call.node_id):
            outside.unreserved.append(call.node_id)
        failing = call.attempt < int(call.parameters.get("failures", 0))
        line = f"{call.node_id}!{call.attempt}" if failing else call.node_id
        with outside.ledger.open("a", encoding="utf-8") as ledger:
            ledger.write(line + "\n")
        if failing:
            raise AgentError("Boom", f"attempt {call.attempt} fails on purpose")
        commits = 0 if outside.killer is None else outside.killer.commits
        outside.returns.append(Returned(call.node_id, outside.killer, commits))
        return {"node": call.node_id}


def reservation_committed(database: Path, execution_id: str, node_id: str) -> bool:
    """Whether another connection sees the node running, with its ``node.started`` event."""
    with contextlib.closing(sqlite3.connect(database)) as connection:
        status = connection.execute(
            "SELECT status FROM node_results WHERE execution_id = ? AND node_id = ?",
            (execution_id, node_id),
        ).fetchone()
        starts = connection.execute(
            "SELECT count(*) FROM execution_events WHERE execution_id = ? AND node_id = ?"
            " AND type = 'node.started'",
            (execution_id, node_id),
        ).fetchone()[0]
    return status is not None and status[0] == "running" and starts > 0
