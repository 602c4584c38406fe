"""Knowing when a SQLite file needs checking, and checking it with ``PRAGMA quick_check``.

While a process has the file open, a marker beside it (``studio.db-open-<tag>``) stays locked;
a clean close removes it and writes a seal (``studio.db-closed``: the file's size and
modification time). Opening checks the file only when it was not left by a clean close: a
marker nobody holds (its process died), a file that changed since its seal, or a seal that
records damage. A clean open costs a directory listing and a stat.
"""

import contextlib
import json
import os
import sqlite3
import uuid
from dataclasses import dataclass
from glob import escape
from pathlib import Path

from studio.store.storage_faults import SQLITE_CORRUPT, SQLITE_NOTADB

try:  # markers need advisory locks; without them only the seal tells
    import fcntl

    HAS_LOCKS = True
except ImportError:  # pragma: no cover - Windows
    HAS_LOCKS = False

SQLITE_HEADER = b"SQLite format 3\x00"
CHECK_TIMEOUT_SECONDS = 10.0
MAX_PROBLEMS = 100


@dataclass(frozen=True)
class FileStamp:
    """What a file looked like: its size and last modification."""

    size: int
    mtime_ns: int


@dataclass(frozen=True)
class IntegrityReport:
    """What ``PRAGMA quick_check`` said about a file."""

    file: Path
    problems: list[str]
    size: int
    objects: int

    @property
    def ok(self) -> bool:
        """Whether no problem was found."""
        return not self.problems

    def summary(self) -> str:
        """The first problem, and how many more there are."""
        more = len(self.problems) - 1
        return self.problems[0] + (f"; {more} more problem(s)" if more > 0 else "")


def file_stamp(file: Path) -> FileStamp | None:
    """The file's stamp, or None when it does not exist."""
    try:
        stat = file.stat()
    except OSError:
        return None
    return FileStamp(stat.st_size, stat.st_mtime_ns)


def quick_check(file: Path) -> IntegrityReport:
    """Check every page and index of the file on a connection of its own, so nothing a
    process has cached hides what is on disk. Raises sqlite3.Error when it cannot be read."""
    mode = "rw" if os.access(file, os.W_OK) else "ro"
    uri = f"{file.resolve().as_uri()}?mode={mode}"
    with contextlib.closing(
        sqlite3.connect(uri, uri=True, timeout=CHECK_TIMEOUT_SECONDS)
    ) as connection:
        try:
            rows = connection.execute(f"PRAGMA quick_check({MAX_PROBLEMS})").fetchall()
            objects = connection.execute(
                "SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'index')"
            ).fetchone()[0]
        except sqlite3.DatabaseError as damaged:
            if not _is_damage(damaged):
                raise
            rows, objects = [(str(damaged),)], 0
    problems = [line for (text,) in rows for line in str(text).splitlines()]
    problems = [line for line in problems if line not in ("ok", "*** in database main ***")]
    return IntegrityReport(file, problems, file.stat().st_size, objects)


def needs_check(file: Path, dead: list[Path]) -> bool:
    """Whether the file was not left by a clean close (see the module's docstring); ``dead``
    are its markers nobody holds any more. While another process has the file open, its own
    writes explain any change since the seal, and it seals the file when it closes."""
    stamp = file_stamp(file)
    if stamp is None or stamp.size == 0:
        return False
    if dead:
        return True
    seal = _read_seal(file)
    if seal.get("damaged") is not None:
        return True
    return _stamp_of(seal) != stamp and not _open_elsewhere(file)


def dead_markers(file: Path) -> list[Path]:
    """Markers left by processes that had the file open and died without closing it."""
    return [marker for marker in _markers(file) if _nobody_holds(marker)]


def _open_elsewhere(file: Path) -> bool:
    """Whether a live process has the file open (holds its marker)."""
    return any(not _nobody_holds(marker) for marker in _markers(file))


def _markers(file: Path) -> list[Path]:
    if not HAS_LOCKS:
        return []
    return list(file.parent.glob(f"{escape(file.name)}-open-*"))


def record_sound(file: Path, dead: list[Path]) -> None:
    """The file passed its check: seal it as it is and forget the dead markers."""
    _write_seal(file, _stamp_data(file_stamp(file)))
    for marker in dead:
        with contextlib.suppress(OSError):
            marker.unlink()


def record_damage(file: Path, problem: str) -> None:
    """The file is damaged: every later open checks it again, until a check passes. A file
    that is not a SQLite database at all is not Studio's to mark: it gets no seal."""
    if _has_sqlite_header(file):
        _write_seal(file, {"damaged": problem})


class FileSession:
    """This process's marker beside an open file, locked until the file is closed."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self._held: tuple[Path, int] | None = None
        """The marker and the descriptor that holds its lock, until ``close``."""
        if HAS_LOCKS:
            self._begin()

    def _begin(self) -> None:
        tag = uuid.uuid4().hex[:12]
        # Locked under a name no other process looks at, then renamed: a marker is never
        # seen unlocked while its process lives.
        opening = self.file.with_name(f"{self.file.name}-opening-{tag}")
        marker = self.file.with_name(f"{self.file.name}-open-{tag}")
        descriptor = os.open(opening, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.replace(opening, marker)
        except OSError:
            os.close(descriptor)
            with contextlib.suppress(OSError):
                opening.unlink()
            raise
        self._held = marker, descriptor

    def close(self) -> None:
        """A clean close: seal the file as it is now (unless it is known damaged), then
        remove the marker. Best effort: a full or read-only disk leaves them, and the next
        open checks the file."""
        with contextlib.suppress(OSError):
            if _read_seal(self.file).get("damaged") is None:
                _write_seal(self.file, _stamp_data(file_stamp(self.file)))
        if self._held is not None:
            marker, descriptor = self._held
            with contextlib.suppress(OSError):
                marker.unlink()
            os.close(descriptor)
            self._held = None


def _nobody_holds(marker: Path) -> bool:
    try:
        descriptor = os.open(marker, os.O_RDWR)
    except OSError:
        return False  # removed meanwhile: its process closed cleanly
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(descriptor)
    return True


def _has_sqlite_header(file: Path) -> bool:
    try:
        with file.open("rb") as stream:
            return stream.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def _is_damage(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    return code in (SQLITE_CORRUPT, SQLITE_NOTADB)


def _seal_path(file: Path) -> Path:
    return file.with_name(f"{file.name}-closed")


def _read_seal(file: Path) -> dict:
    try:
        data = json.loads(_seal_path(file).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_seal(file: Path, data: dict) -> None:
    seal = _seal_path(file)
    partial = seal.with_name(f"{seal.name}-{uuid.uuid4().hex[:8]}")
    try:
        partial.write_text(json.dumps(data), encoding="utf-8")
        os.replace(partial, seal)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink()


def _stamp_data(stamp: FileStamp | None) -> dict:
    return {} if stamp is None else {"size": stamp.size, "mtimeNs": stamp.mtime_ns}


def _stamp_of(seal: dict) -> FileStamp | None:
    size, mtime_ns = seal.get("size"), seal.get("mtimeNs")
    if not isinstance(size, int) or not isinstance(mtime_ns, int):
        return None
    return FileStamp(size, mtime_ns)
