"""The peer half of bench/queue.py: procrastinate doing no-op tasks on the same PostgreSQL
server. ``defer_jobs`` defers the jobs one at a time from the benchmark's process, and run as
a program this file is one worker process: it opens the app, says ``ready``, waits for ``go``
on stdin, runs procrastinate's own worker (one job at a time, not waiting for new jobs) until
the queue is empty, and says ``done COUNT CPU_SECONDS``.

    .venv/bin/python -P bench/queue_procrastinate.py DATABASE_URL WORKER_NAME

(``-P``: this folder must not come first on sys.path, where bench/queue.py would stand in for
the standard library's ``queue`` module.)
"""

import asyncio
import logging
import sys
import time

import procrastinate
from sqlalchemy.engine import make_url

QUEUE = "bench"
TASK = "noop"


def conninfo(database_url: str) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL (socket folder and port
    in the query, as the test server gives them)."""
    url = make_url(database_url)
    parts = {
        "host": url.query.get("host") or url.host,
        "port": url.query.get("port") or url.port,
        "user": url.username,
        "dbname": url.database,
    }
    return " ".join(f"{key}={value}" for key, value in parts.items() if value)


def make_app(database_url: str) -> tuple[procrastinate.App, list[int]]:
    """A procrastinate app on ``database_url`` with one async no-op task, and the list each
    run of the task appends its index to (what this process ran)."""
    ran: list[int] = []
    connector = procrastinate.PsycopgConnector(conninfo=conninfo(database_url))
    app = procrastinate.App(connector=connector)

    @app.task(name=TASK, queue=QUEUE)
    async def noop(index: int) -> None:
        ran.append(index)

    return app, ran


def install_schema(database_url: str) -> None:
    """procrastinate's tables, functions and triggers, on an empty database."""
    app, _ = make_app(database_url)

    async def apply() -> None:
        async with app.open_async():
            await app.schema_manager.apply_schema_async()

    asyncio.run(apply())


def defer_jobs(database_url: str, count: int) -> float:
    """Seconds to defer ``count`` no-op jobs one at a time, each in its own transaction."""
    app, _ = make_app(database_url)
    task = app.tasks[TASK]

    async def defer() -> float:
        async with app.open_async():
            began = time.perf_counter()
            for index in range(count):
                await task.defer_async(index=index)
            return time.perf_counter() - began

    return asyncio.run(defer())


def count_finished(database_url: str) -> dict[str, int]:
    """Jobs by status, as procrastinate's table holds them."""
    app, _ = make_app(database_url)

    async def count() -> dict[str, int]:
        async with app.open_async():
            rows = await app.connector.execute_query_all_async(
                "SELECT status::text AS status, count(*) AS n FROM procrastinate_jobs "
                "GROUP BY status"
            )
            return {row["status"]: row["n"] for row in rows}

    return asyncio.run(count())


async def work(database_url: str, name: str) -> None:
    """One worker process's life: open, report ready, wait for go, drain, report the count
    (before closing the connection pool, which is not part of the work)."""
    app, ran = make_app(database_url)
    async with app.open_async():
        print("ready", flush=True)
        sys.stdin.readline()
        began = time.process_time()
        await app.run_worker_async(
            queues=[QUEUE],
            name=name,
            concurrency=1,
            wait=False,
            listen_notify=False,
            install_signal_handlers=False,
        )
        print(f"done {len(ran)} {time.process_time() - began:.6f}", flush=True)


if __name__ == "__main__":
    # The app is made in this (main) module; its one task has a fixed name, so procrastinate's
    # warning about finding tasks by module name does not apply.
    logging.getLogger("procrastinate.blueprints").setLevel(logging.ERROR)
    asyncio.run(work(sys.argv[1], sys.argv[2]))
