"""Work queue throughput: enqueue → pull → ack ``advance`` with 1, 4 and 8 worker processes,
on a fresh SQLite file and on PostgreSQL, next to procrastinate (a PostgreSQL task queue) doing
no-op tasks on the same PostgreSQL server in the same run. Prints; asserts nothing.

Each row starts from an empty queue (a new SQLite file, or a new PostgreSQL database) and
times two phases, the same way for both queues:

- enqueue: this process puts N items on the queue one at a time, one transaction each
  (Studio: ``WorkQueue.enqueue`` of a rendered work item, Gate A included; procrastinate:
  ``defer_async`` of a no-op job). Writing the texts, creating the schema and publishing the
  capability manifest come before the clock starts.
- drain: W worker processes are started, open their connections and say they are ready
  (untimed); then all are told to go at once, and the clock runs until the last of them
  reports that a pull found nothing (Studio: ``pull``, then ``ack_and_pull(advance)`` in a
  loop, as ``studio worker`` acks and leases its next item in one transaction;
  procrastinate: its own worker, one job at a time, not waiting for new jobs, running an
  async task that does nothing). Closing connections and exiting are not timed. Studio's
  ack of ``advance`` closes the item ``done`` and files it to its subject in the knowledge
  store in the same transaction, as every terminal ack does; procrastinate's worker marks
  the job succeeded.

items/s is N / (enqueue seconds + drain seconds); the two phases' own rates are printed
beside it, and the CPU time the workers spent draining, added up, per item (on a machine
busy with other work it moves less than the rates; the PostgreSQL server's is not in it).
Every row checks that the workers' counts add up to N and that the store holds N finished
items; a row whose worker failed says so, with the last exception it raised. Beside the
SQLite rows, the floor: the same cycle with the sqlite3 module alone, in this process
(bench/queue_floor.py). The PostgreSQL server is the tests' throwaway one (fsync off, Unix
socket) on the same machine, so the workers and the server share its cores.

    .venv/bin/python bench/queue.py [--items 3000] [--workers 1,4,8] [--profile]

``--profile`` adds a cProfile of one Studio worker draining a SQLite queue: Studio's
functions by time per item with what they call, and every function by its own time per item.
"""

import sys

# This file shares its name with the standard library's ``queue`` module, and a script's own
# folder comes first on sys.path: put it last so ``import queue`` finds the library's.
sys.path.append(sys.path.pop(0))

import argparse
import pstats
import re
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psycopg
from sqlalchemy.engine import make_url

BENCH = Path(__file__).resolve().parent
sys.path.append(str(BENCH.parent))  # for tests.postgres.server

import queue_floor as floor  # noqa: E402
import queue_procrastinate as peer  # noqa: E402
import queue_studio as studio  # noqa: E402
from tests.postgres.server import running_server, server_binaries  # noqa: E402

RAISED = re.compile(r"[\w.]+(Error|Exception|Violation|Fault): ")
"""A traceback's last line: the exception's qualified name and its message."""
PROFILE_LINES = 30
SQLITE_TARGET = 1000.0
"""Items per second Studio should reach on SQLite with one worker."""


@dataclass(frozen=True)
class Drain:
    seconds: float
    reported: int
    """Items the workers say they finished, added up."""
    cpu_seconds: float
    """The CPU time the workers spent draining, added up."""
    failure: str | None = None
    """The last exception a failed worker wrote to stderr (None: every worker finished)."""


@dataclass(frozen=True)
class Row:
    queue: str
    backend: str
    workers: int
    items: int
    enqueue_s: float
    drain: Drain
    check: str

    @property
    def rate(self) -> float:
        return self.items / (self.enqueue_s + self.drain.seconds)


def run_workers(commands: list[list[str]], logs: Path) -> Drain:
    """Start one process per command, wait until each is ready, let all go at once; seconds
    until the last one reports done, and the items they report between them. Each worker's
    stderr goes to a file in ``logs``."""
    logs.mkdir(exist_ok=True)
    errors = [logs / f"worker-{n}.err" for n in range(len(commands))]
    workers = []
    for command, error in zip(commands, errors, strict=True):
        with error.open("w") as stderr:
            workers.append(
                subprocess.Popen(
                    command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True
                )
            )
    said: list[list[float] | None] = [None] * len(workers)
    began = time.perf_counter()
    try:
        if all(_said(worker, "ready") is not None for worker in workers):
            began = time.perf_counter()
            for worker in workers:
                assert worker.stdin is not None
                worker.stdin.write("go\n")
                worker.stdin.flush()
            said = [_said(worker, "done") for worker in workers]
        seconds = time.perf_counter() - began
    finally:
        for worker in workers:
            if worker.poll() is None and None in said:
                worker.kill()
            worker.wait(timeout=120)
    failed = [error for error, done in zip(errors, said, strict=True) if done is None]
    failure = (_last_line(failed[0]) or "a worker stopped without saying why") if failed else None
    reported = sum(int(done[0]) for done in said if done)
    return Drain(seconds, reported, sum(done[1] for done in said if done), failure)


def _said(worker: subprocess.Popen, word: str) -> list[float] | None:
    """Wait for the worker's next line: None unless it starts with ``word``, else the numbers
    after the word."""
    assert worker.stdout is not None
    line = worker.stdout.readline().split()
    if not line or line[0] != word:
        return None
    return [float(number) for number in line[1:]]


def _last_line(path: Path) -> str:
    """The last exception a worker's stderr names (``SomeError: why``), else its last line."""
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    raised = [line for line in lines if RAISED.match(line)]
    return (raised or lines or [""])[-1].strip()[:240]


def check(items: int, drain: Drain, finished: int) -> str:
    """``ok`` when the workers did every item once, as far as counts can tell."""
    if drain.failure is not None:
        return f"FAILED: {drain.failure}"
    if drain.reported == items == finished:
        return "ok"
    return f"workers {drain.reported}, finished {finished} of {items}"


def studio_row(scratch: Path, database: str, backend: str, items: int, workers: int) -> Row:
    """Enqueue and drain ``items`` on Studio's queue over ``database`` (empty)."""
    studio.prepare(scratch, database)
    enqueue_s = studio.enqueue_items(scratch, database, items)
    script = str(BENCH / "queue_studio.py")
    commands = [
        [sys.executable, "-P", script, str(scratch), database, f"worker-{n}"]
        for n in range(workers)
    ]
    drain = run_workers(commands, scratch / "logs")
    finished = studio.count_by_status(scratch, database).get("done", 0)
    return Row("studio", backend, workers, items, enqueue_s, drain, check(items, drain, finished))


def procrastinate_row(scratch: Path, database: str, items: int, workers: int) -> Row:
    """Defer and run ``items`` no-op jobs on procrastinate over ``database`` (empty)."""
    peer.install_schema(database)
    enqueue_s = peer.defer_jobs(database, items)
    script = str(BENCH / "queue_procrastinate.py")
    commands = [[sys.executable, "-P", script, database, f"worker-{n}"] for n in range(workers)]
    drain = run_workers(commands, scratch / "logs")
    finished = peer.count_finished(database).get("succeeded", 0)
    return Row(
        "procrastinate",
        "postgresql",
        workers,
        items,
        enqueue_s,
        drain,
        check(items, drain, finished),
    )


def floor_row(scratch: Path, items: int) -> Row:
    """The sqlite3-only floor: the same cycle in this process, nothing but the queue rows."""
    texts = [studio.item_text(index) for index in range(items)]
    enqueue_s, drain_s, cpu_s, acked = floor.floor_seconds(scratch / "floor.db", texts)
    drain = Drain(drain_s, acked, cpu_s)
    return Row("sqlite3 floor", "sqlite", 1, items, enqueue_s, drain, check(items, drain, acked))


def new_database(server_url: str, name: str) -> str:
    """Create an empty database on the server and return its SQLAlchemy URL."""
    with psycopg.connect(peer.conninfo(server_url), autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return make_url(server_url).set(database=name).render_as_string(hide_password=False)


def print_row(row: Row) -> None:
    print(
        f"{row.queue:<14} {row.backend:<11} {row.workers:>7} {row.items:>6} "
        f"{row.items / row.enqueue_s:>10.0f} {row.items / row.drain.seconds:>9.0f} "
        f"{row.rate:>9.0f} {row.drain.cpu_seconds / row.items * 1e6:>10.0f}  {row.check}",
        flush=True,
    )


def print_targets(rows: list[Row]) -> None:
    def rate(queue: str, backend: str, workers: int) -> float | None:
        found = [
            r.rate for r in rows if (r.queue, r.backend, r.workers) == (queue, backend, workers)
        ]
        return found[0] if found else None

    ours_pg, theirs_pg = rate("studio", "postgresql", 8), rate("procrastinate", "postgresql", 8)
    if ours_pg is not None and theirs_pg is not None:
        verdict = "met" if ours_pg >= theirs_pg else "NOT met"
        print(
            f"target: studio ≥ procrastinate on PostgreSQL, 8 workers: "
            f"{ours_pg:.0f} vs {theirs_pg:.0f} items/s ({ours_pg / theirs_pg:.2f}x) — {verdict}"
        )
    ours_sqlite, bare = rate("studio", "sqlite", 1), rate("sqlite3 floor", "sqlite", 1)
    if ours_sqlite is not None:
        verdict = "met" if ours_sqlite >= SQLITE_TARGET else "NOT met"
        beside = f", the floor does {bare:.0f}" if bare is not None else ""
        print(
            f"target: studio on SQLite, 1 worker ≥ {SQLITE_TARGET:.0f} items/s: "
            f"{ours_sqlite:.0f} items/s{beside} — {verdict}"
        )


def profile_one_worker(scratch: Path, items: int) -> None:
    """cProfile of one Studio worker draining a fresh SQLite queue of ``items``."""
    scratch = scratch / "profile"
    scratch.mkdir()
    database = str(scratch / "queue.db")
    studio.prepare(scratch, database)
    studio.enqueue_items(scratch, database, items)
    stats_file = scratch / "worker.prof"
    script = str(BENCH / "queue_studio.py")
    run_workers(
        [
            [
                sys.executable,
                "-P",
                script,
                str(scratch),
                database,
                "worker-0",
                "--profile",
                str(stats_file),
            ]
        ],
        scratch / "logs",
    )
    print_profile(pstats.Stats(str(stats_file)), items)


def print_profile(stats: pstats.Stats, items: int) -> None:
    """Studio's functions by time per item including what they call, then every function by
    its own time per item: where an item's time goes (cProfile slows everything down)."""
    profile = stats.get_stats_profile()
    print(
        f"\ncProfile of one Studio worker, SQLite, {items} items: "
        f"{profile.total_tt / items * 1e6:.0f} µs per item while profiled"
    )
    functions = list(profile.func_profiles.items())
    ours = [(name, f) for name, f in functions if "/studio/" in f.file_name]
    print("\nStudio's functions, time per item with what they call (calls per item):")
    for name, function in sorted(ours, key=lambda pair: -pair[1].cumtime)[:PROFILE_LINES]:
        _print_function(name, function, function.cumtime, items)
    print("\nevery function, own time per item (calls per item):")
    for name, function in sorted(functions, key=lambda pair: -pair[1].tottime)[:PROFILE_LINES]:
        _print_function(name, function, function.tottime, items)


def _print_function(
    name: str, function: pstats.FunctionProfile, seconds: float, items: int
) -> None:
    calls = int(function.ncalls.split("/")[0]) / items
    where = function.file_name.split("/site-packages/")[-1].split("/src/")[-1]
    place = f"{where}:{function.line_number} " if function.file_name != "~" else ""
    print(f"  {seconds / items * 1e6:7.0f} µs  {place}{name} ({calls:.1f})")


def postgresql_rows(
    server_url: str, scratch: Path, items: int, counts: list[int], on_row: Callable[[Row], None]
) -> list[Row]:
    """Studio's rows, then procrastinate's, each on a new database of the same server; each
    handed to ``on_row`` as soon as it is measured."""
    rows = []
    for workers in counts:
        folder = scratch / f"postgresql-{workers}"
        folder.mkdir()
        database = new_database(server_url, f"studio_{workers}")
        rows.append(studio_row(folder, database, "postgresql", items, workers))
        on_row(rows[-1])
    for workers in counts:
        folder = scratch / f"procrastinate-{workers}"
        folder.mkdir()
        database = new_database(server_url, f"procrastinate_{workers}")
        rows.append(procrastinate_row(folder, database, items, workers))
        on_row(rows[-1])
    return rows


def measure(
    items: int = 3000,
    worker_counts: tuple[int, ...] = (1, 4, 8),
    on_row: Callable[[Row], None] = lambda row: None,
) -> list[Row]:
    """Every row, each handed to ``on_row`` as soon as it is measured: Studio on SQLite, the
    sqlite3 floor, then Studio and procrastinate on PostgreSQL (when it is installed)."""
    binaries = server_binaries()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        for workers in worker_counts:
            folder = scratch / f"sqlite-{workers}"
            folder.mkdir()
            rows.append(studio_row(folder, str(folder / "queue.db"), "sqlite", items, workers))
            on_row(rows[-1])
        rows.append(floor_row(scratch, items))
        on_row(rows[-1])
        if binaries is not None:
            with running_server(binaries) as server_url:
                rows += postgresql_rows(server_url, scratch, items, list(worker_counts), on_row)
    return rows


def main(items: int, worker_counts: list[int], profile: bool) -> int:
    print(
        f"{items} items per row; workers are separate processes; 2 cores shared with the "
        f"PostgreSQL server"
    )
    print(
        f"{'queue':<14} {'backend':<11} {'workers':>7} {'items':>6} {'enqueue/s':>10} "
        f"{'drain/s':>9} {'items/s':>9} {'CPU µs/it':>10}  check"
    )
    rows = measure(items, tuple(worker_counts), print_row)
    if server_binaries() is None:
        print("PostgreSQL is not installed here: no PostgreSQL rows")
    print_targets(rows)
    if profile:
        with tempfile.TemporaryDirectory() as scratch_name:
            profile_one_worker(Path(scratch_name), items)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=3000, help="items per row (3000)")
    parser.add_argument("--workers", default="1,4,8", help="worker counts (1,4,8)")
    parser.add_argument("--profile", action="store_true", help="profile one SQLite worker")
    options = parser.parse_args()
    counts = [int(part) for part in options.workers.split(",")]
    sys.exit(main(options.items, counts, options.profile))
