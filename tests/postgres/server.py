"""A throwaway PostgreSQL server for tests: initdb into a temporary folder, a Unix socket only.
With no TCP listener the port only names the socket file in that folder, so servers of
parallel test processes can share it.

The server binaries come from the system (Debian's postgresql package; .ci/run installs it).
As root, the server runs as the ``postgres`` user, since PostgreSQL refuses to run as root.
"""

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def server_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl, if PostgreSQL is installed."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    if candidates:
        return Path(candidates[0]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).resolve().parent if on_path else None


@contextmanager
def running_server(binaries: Path, port: int = 54329) -> Iterator[str]:
    """Start a fresh server and yield a SQLAlchemy URL of an empty database on it."""
    folder = Path(tempfile.mkdtemp(prefix="studio-pg-"))
    data, sockets = folder / "data", folder / "sockets"
    sockets.mkdir()
    as_user = _run_as_postgres_prefix(folder)
    _run([*as_user, str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"])
    options = f"-k {sockets} -p {port} -c listen_addresses='' -c fsync=off"
    _run(
        [
            *as_user,
            str(binaries / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            options,
            "-w",
            "start",
            "-l",
            str(folder / "server.log"),
        ]
    )
    try:
        _run(
            [
                *as_user,
                str(binaries / "createdb"),
                "-h",
                str(sockets),
                "-p",
                str(port),
                "-U",
                "postgres",
                "studio",
            ]
        )
        yield f"postgresql+psycopg://postgres@/studio?host={sockets}&port={port}"
    finally:
        _run([*as_user, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"])
        shutil.rmtree(folder, ignore_errors=True)


def _run_as_postgres_prefix(folder: Path) -> list[str]:
    if os.geteuid() != 0:
        return []
    shutil.chown(folder, "postgres", "postgres")
    for child in folder.iterdir():
        shutil.chown(child, "postgres", "postgres")
    return ["runuser", "-u", "postgres", "--"]


def _run(command: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {result.stdout}{result.stderr}")
