"""SIGKILL `studio run` and `studio resume` at random moments until a set number of kills.

A round is one execution of the random DAG: `studio run` starts it, and `studio resume`
continues it after every kill, until the execution is finished or the kills are all spent. A
kill fails the side-effecting calls it cut short and what depends on them, so one execution
absorbs a few kills; the next round runs the DAG again with its own ledger. After the last
kill, an execution left unfinished gets one resume that is left alone.

A moment is either a time after the process starts (anywhere from importing Studio to its
first writes) or a number of events the database must gain first, plus a few milliseconds,
so kills land between, before and during the engine's writes and the nodes' calls.
"""

import contextlib
import random
import signal
import sqlite3
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.cli_runner import REPO_ROOT
from tests.engine.process_kills import studio
from tests.reliability.random_dag import RandomDag, write_agent, write_workflow

STARTUP_SHARE = 0.2
"""The share of kills timed from the process start rather than by events written."""
STARTUP_WINDOW = (0.3, 1.2)
"""Seconds after the start: Studio imports, opens the database, claims, then writes."""
AFTER_EVENT_JITTER = (0.0, 0.012)
FINISHED = ("completed", "failed")
"""What a run of this DAG ends as: it has no approvals to wait for and nobody cancels it."""
POLL_SECONDS = 0.002
PROCESS_TIMEOUT = 60.0
UNFINISHED_NODES = """
    SELECT count(*) FROM node_results WHERE execution_id = ?
    AND status NOT IN ('completed', 'failed', 'skipped', 'cancelled')
"""


class CampaignError(Exception):
    """A process did something other than finish or be killed (it could not start)."""


@dataclass(frozen=True)
class Moment:
    """When to kill a process: ``delay`` seconds after it starts (``after_events`` 0), or
    ``delay`` seconds after the database gained ``after_events`` events."""

    after_events: int
    delay: float

    def describe(self) -> str:
        """The moment in words, for a failure report."""
        if self.after_events == 0:
            return f"{self.delay * 1000:.0f} ms after start"
        return f"{self.delay * 1000:.1f} ms after {self.after_events} more events"


@dataclass
class Round:
    """One execution of the DAG, with the ledger its nodes append to."""

    number: int
    workflow: Path
    ledger: Path
    execution_id: str | None = None


@dataclass
class Attempt:
    """One `studio` process of the campaign and how it ended."""

    round: int
    command: str
    moment: Moment | None
    events_before: int
    events_after: int = 0
    returncode: int | None = None
    seconds: float = 0.0
    stderr_tail: str = ""
    crashed: bool = False

    @property
    def killed(self) -> bool:
        """Whether the process died of the campaign's SIGKILL."""
        return self.returncode == -signal.SIGKILL

    def describe(self) -> str:
        """One line: what ran, when it was meant to die and what happened."""
        when = self.moment.describe() if self.moment else "left to finish"
        outcome = "killed" if self.killed else f"exit {self.returncode}"
        return (
            f"round {self.round} {self.command:<6} {when:<32} {outcome:<7} "
            f"events {self.events_before}->{self.events_after} in {self.seconds:.2f} s"
        )


@dataclass
class Campaign:
    """A seeded DAG, run and resumed under SIGKILL until ``kills`` kills have landed."""

    folder: Path
    seed: int
    kills: int
    size: int
    rng: random.Random = field(init=False)
    dag: RandomDag = field(init=False)
    rounds: list[Round] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.dag = RandomDag.generate(self.rng, self.size)
        self.agents = write_agent(self.folder / "agents")
        self.database = self.folder / "studio.db"

    @property
    def kills_made(self) -> int:
        """How many processes the campaign has killed so far."""
        return sum(attempt.killed for attempt in self.attempts)

    def play(self) -> None:
        """Run rounds until every kill has landed, then finish the last round's execution."""
        started = time.monotonic()
        try:
            while self.kills_made < self.kills:
                self._play_round(self._new_round())
            last = self.rounds[-1]
            if self._execution_status(last) not in FINISHED:
                self._attempt(last, None)
        finally:
            self.seconds = time.monotonic() - started

    def describe(self) -> str:
        """The seed, how to replay it, the DAG and every process, for a failure report."""
        lines = [
            f"seed {self.seed} (replay the same DAG and schedule: STUDIO_KILL_SEED={self.seed})",
            f"DAG: {self.size} nodes, {len(self.dag.edges)} edges; {len(self.rounds)} rounds, "
            f"{self.kills_made} kills, {len(self.attempts)} processes in {self.seconds:.0f} s",
        ]
        lines.extend(attempt.describe() for attempt in self.attempts)
        return "\n".join(lines)

    def _new_round(self) -> Round:
        number = len(self.rounds) + 1
        ledger = self.folder / f"ledger-{number}.txt"
        workflow = write_workflow(self.dag, self.folder / f"dag-{number}.json", ledger, self.rng)
        self.rounds.append(Round(number, workflow, ledger))
        return self.rounds[-1]

    def _play_round(self, current: Round) -> None:
        while self.kills_made < self.kills:
            self._attempt(current, self._choose_moment(current))
            if self._execution_status(current) in FINISHED:
                return  # (a kill may land after the last write) the next round starts anew

    def _choose_moment(self, current: Round) -> Moment:
        if self.rng.random() < STARTUP_SHARE:
            return Moment(0, self.rng.uniform(*STARTUP_WINDOW))
        # About two events per node: a kill lands within the first half of what is left.
        remaining = self._unfinished_nodes(current)
        return Moment(self.rng.randint(1, max(1, remaining)), self.rng.uniform(*AFTER_EVENT_JITTER))

    def _attempt(self, current: Round, moment: Moment | None) -> Attempt:
        if current.execution_id is None:
            command, target = "run", str(current.workflow)
        else:
            command, target = "resume", current.execution_id
        known = set(self._execution_ids())
        attempt = Attempt(current.number, command, moment, self._event_count())
        self.attempts.append(attempt)
        stderr_path = self.folder / f"attempt-{len(self.attempts)}.stderr"
        arguments = [command, target, "--quiet", "--db", str(self.database)]
        started = time.monotonic()
        with stderr_path.open("wb") as stderr:
            process = subprocess.Popen(
                studio(*arguments, "--agents", str(self.agents)),
                cwd=REPO_ROOT,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
            try:
                attempt.returncode = self._kill_at(process, moment, attempt.events_before)
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
        attempt.seconds = time.monotonic() - started
        attempt.events_after = self._event_count()
        stderr_text = stderr_path.read_text(errors="replace")
        attempt.crashed = "Traceback (most recent call last)" in stderr_text
        attempt.stderr_tail = stderr_text[-2000:]
        if current.execution_id is None:
            created = [found for found in self._execution_ids() if found not in known]
            current.execution_id = created[0] if created else None
        if not attempt.killed:
            self._check_finished(current, attempt)
        return attempt

    def _check_finished(self, current: Round, attempt: Attempt) -> None:
        """A process that was not killed must have finished its execution, and said so."""
        status = self._execution_status(current)
        if attempt.returncode not in (0, 1) or attempt.crashed or status not in FINISHED:
            raise CampaignError(
                f"a studio process ended by itself but left execution {current.execution_id} "
                f"{status}:\n{attempt.describe()}\n{attempt.stderr_tail}"
            )

    def _kill_at(self, process: subprocess.Popen, moment: Moment | None, events: int) -> int:
        """Wait for the moment, SIGKILL the process if it is still alive; its return code."""
        deadline = time.monotonic() + PROCESS_TIMEOUT
        if moment is not None and moment.after_events == 0:
            _wait_until(process, lambda: False, time.monotonic() + moment.delay)
        elif moment is not None:
            target = events + moment.after_events
            if _wait_until(process, lambda: self._event_count() >= target, deadline):
                time.sleep(moment.delay)
        if moment is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
        try:
            return process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            raise CampaignError(f"a studio process ran for over {PROCESS_TIMEOUT:.0f} s") from None

    def _event_count(self) -> int:
        return self._query("SELECT count(*) FROM execution_events")[0][0] if self._ready() else 0

    def _execution_ids(self) -> list[str]:
        return [row[0] for row in self._query("SELECT id FROM executions")] if self._ready() else []

    def _execution_status(self, current: Round) -> str | None:
        if current.execution_id is None:
            return None
        rows = self._query("SELECT status FROM executions WHERE id = ?", (current.execution_id,))
        return rows[0][0] if rows else None

    def _unfinished_nodes(self, current: Round) -> int:
        if current.execution_id is None:
            return self.size
        return self._query(UNFINISHED_NODES, (current.execution_id,))[0][0]

    def _ready(self) -> bool:
        """Whether the database exists and has its tables (a killed first run may leave
        neither)."""
        if not self.database.exists():
            return False
        rows = self._query("SELECT 1 FROM sqlite_master WHERE name = 'execution_events'")
        return bool(rows)

    def _query(self, sql: str, parameters: tuple = ()) -> list[tuple]:
        # Read-only and short-lived: closing it never checkpoints the WAL, so the next process
        # finds the database as the killed one left it and recovers it itself.
        uri = f"file:{self.database}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=10)) as connection:
            return connection.execute(sql, parameters).fetchall()


def _wait_until(process: subprocess.Popen, condition, deadline: float) -> bool:
    """Poll until ``condition()`` holds (True), the process exits or the deadline passes."""
    while time.monotonic() < deadline and process.poll() is None:
        if condition():
            return True
        time.sleep(POLL_SECONDS)
    return False
