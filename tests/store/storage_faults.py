"""Real storage faults for tests: a 600 KB tmpfs that fills up, a read-only file, a read-only
file system, and random bytes past a database file's header.

Each helper makes the real fault or skips the test saying why (not root, no tmpfs, no
``chattr``), never silently, and undoes what it did however the test ends."""

import asyncio
import contextlib
import errno
import os
import random
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.workspace import Workspace
from tests.cli_runner import REPO_ROOT

SMALL_DISK = "600k"
ECHO_DEMO = REPO_ROOT / "blueprints" / "echo-demo-workflow.yaml"
CORPUS = REPO_ROOT / "tests" / "knowledge" / "fixtures" / "checkout-redesign"
DAMAGE_OFFSET, DAMAGE_LENGTH = 40_000, 4096


def _need_root(what: str) -> None:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip(f"{what} needs root (mount); this test runs as an ordinary user")


def _run(*command: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=30)
    except FileNotFoundError as missing:
        return subprocess.CompletedProcess(command, 127, "", str(missing))


@contextlib.contextmanager
def small_disk(folder: Path, size: str = SMALL_DISK) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``folder``; unmounted afterwards."""
    _need_root(f"a {size} tmpfs")
    folder.mkdir(parents=True, exist_ok=True)
    mounted = _run("mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder))
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a {size} tmpfs here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        _unmount(folder)


def _unmount(folder: Path) -> None:
    if _run("umount", str(folder)).returncode != 0:
        _run("umount", "-l", str(folder))  # a process still holds a file: detach it


def remount_read_only(folder: Path) -> None:
    """Make the tmpfs at ``folder`` read-only (it is unmounted by ``small_disk``)."""
    remounted = _run("mount", "-o", "remount,ro", str(folder))
    if remounted.returncode != 0:
        pytest.skip(f"cannot remount {folder} read-only here: {remounted.stderr.strip()}")


def fill(folder: Path) -> Path:
    """Write a file until the disk is full; delete it to free the space."""
    filler = folder / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for chunk in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(descriptor, b"\0" * chunk)
    finally:
        os.close(descriptor)
    probe = folder / "probe"
    try:
        probe.write_bytes(b"x" * 4096)
    except OSError as full:
        assert full.errno == errno.ENOSPC
    else:
        raise AssertionError(f"{folder} is not full")
    finally:
        probe.unlink(missing_ok=True)
    return filler


@contextlib.contextmanager
def read_only_file(file: Path) -> Iterator[None]:
    """The file made read-only: immutable (``chattr +i``) for root, whom permissions do not
    stop, or without write permission for anyone else."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        made = _run("chattr", "+i", str(file))
        if made.returncode != 0:
            pytest.skip(f"cannot make {file} immutable here (chattr +i): {made.stderr.strip()}")
        try:
            yield
        finally:
            _run("chattr", "-i", str(file))
        return
    mode = file.stat().st_mode
    file.chmod(0o444)
    try:
        yield
    finally:
        file.chmod(mode)


def damage(file: Path, offset: int = DAMAGE_OFFSET, length: int = DAMAGE_LENGTH) -> None:
    """Random bytes over ``length`` bytes of the file from ``offset`` (past the header)."""
    assert file.stat().st_size > offset + length, "the file is too small to damage there"
    with open(file, "r+b") as handle:
        handle.seek(offset)
        handle.write(random.Random(offset).randbytes(length))


def page_offset_of(file: Path, table: str) -> int:
    """Where the root page of a table starts in the file, past the page's first bytes."""
    with contextlib.closing(sqlite3.connect(file)) as raw:
        page_size = raw.execute("PRAGMA page_size").fetchone()[0]
        (root,) = raw.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)
        ).fetchone()
    return (root - 1) * page_size + 16


def make_database_with_runs_and_knowledge(file: Path, data_dir: Path) -> list[str]:
    """A database with three runs of the echo demo and the checkout corpus landed (over
    40 KB), closed cleanly; returns the runs' execution ids."""
    workspace = Workspace(data_dir, database=str(file))
    try:
        workflow = workspace.import_and_publish(ECHO_DEMO)
        runner = workspace.runner()
        ids = [
            asyncio.run(runner.execute(workflow.id, {"message": f"run {n}"})).execution_id
            for n in range(3)
        ]
        workspace.knowledge.ingest(CORPUS)
    finally:
        workspace.close()
    assert file.stat().st_size > DAMAGE_OFFSET + DAMAGE_LENGTH
    return ids


def copied_into(file: Path, folder: Path) -> Path:
    """The file copied into ``folder`` (a small disk would not hold the log of making it)."""
    copy = folder / file.name
    shutil.copyfile(file, copy)
    return copy


def stored_counts(file: Path) -> dict[str, int]:
    """How many workflows, executions, events and artifact versions the file holds."""
    tables = ("workflows", "executions", "execution_events", "artifact_versions")
    with contextlib.closing(sqlite3.connect(file)) as raw:
        return {
            table: raw.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in tables
        }
