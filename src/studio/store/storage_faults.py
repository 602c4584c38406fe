"""Telling a storage fault from any other database error, and saying what is wrong in words.

A full disk, a read-only file or file system, a damaged file and a lock held too long reach
Studio as driver errors with terse texts ("disk I/O error"); each becomes a StorageFaultError
that names the database and the cause, so every command and the app can report it in one line.
"""

import os
import shutil
import sqlite3
from pathlib import Path

from sqlalchemy.exc import DBAPIError, OperationalError

from studio.store.errors import DamagedDatabaseError, DatabaseBusyError, StorageFaultError

SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY, SQLITE_IOERR = 5, 6, 8, 10
SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOTADB = 11, 13, 14, 26
NEARLY_FULL_BYTES = 64 * 1024
"""Less free space than this, and an I/O error is the disk being full: SQLite needs 32 KiB
for its shared-memory file and whole pages for the write-ahead log."""


def storage_fault(
    failure: BaseException, location: str, file: Path | None, doing: str
) -> StorageFaultError | None:
    """The storage fault behind a driver error, or None for any other error (a constraint,
    a syntax error), which the caller re-raises unchanged."""
    driver = failure.orig if isinstance(failure, DBAPIError) else failure
    if isinstance(driver, sqlite3.Error):
        code = getattr(driver, "sqlite_errorcode", None)
        if code is None:
            return None
        return _sqlite_fault(code & 0xFF, str(driver), location, file, doing)
    if isinstance(failure, OperationalError):  # another server: unreachable, gone away
        return StorageFaultError(location, doing, _first_line(str(driver)))
    return None


def unwritable_reason(file: Path) -> str | None:
    """Why SQLite could not write the file (and its journal beside it), or None."""
    folder = file.parent
    if file.exists() and not os.access(file, os.W_OK):
        return _read_only_reason(file)
    if folder.is_dir() and not os.access(folder, os.W_OK):
        if _file_system_is_read_only(folder):
            return "the file system is read-only"
        return f"its folder {folder} is read-only"
    return None


def _sqlite_fault(
    code: int, text: str, location: str, file: Path | None, doing: str
) -> StorageFaultError | None:
    if code in (SQLITE_CORRUPT, SQLITE_NOTADB):
        return DamagedDatabaseError(location, doing, text)
    if code == SQLITE_FULL:
        return StorageFaultError(location, doing, "the disk is full")
    if code == SQLITE_READONLY:
        reason = (file and unwritable_reason(file)) or "the file is read-only"
        return StorageFaultError(location, doing, reason)
    if code in (SQLITE_IOERR, SQLITE_CANTOPEN):
        reason = (file and _environment_reason(file)) or f"{text} (the file or its disk failed)"
        return StorageFaultError(location, doing, reason)
    if code in (SQLITE_BUSY, SQLITE_LOCKED):
        reason = f"another program has held its lock for too long ({text})"
        return DatabaseBusyError(location, doing, reason)
    return None


def _environment_reason(file: Path) -> str | None:
    """What about the disk explains an I/O error: no space left, or nothing writable."""
    if file.parent.is_dir() and shutil.disk_usage(file.parent).free < NEARLY_FULL_BYTES:
        return "the disk is full"
    return unwritable_reason(file)


def _read_only_reason(file: Path) -> str:
    if _file_system_is_read_only(file):
        return "the file system is read-only"
    return "the file is read-only"


def _file_system_is_read_only(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows): say what is known
        return False


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else text
