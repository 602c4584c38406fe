"""Errors of the storage layer, phrased for the person who picked the database."""

from studio.model.errors import StudioError


class DatabaseError(StudioError):
    """The database cannot be opened or is not one Studio can use."""


class SchemaTooNewError(DatabaseError):
    """The database was written by a newer Studio."""


class StorageFaultError(DatabaseError):
    """The storage under the database failed: a full disk, a read-only file or file system,
    a damaged file, a lock held too long. Whatever was being written was not written."""

    def __init__(self, location: str, doing: str, reason: str) -> None:
        super().__init__(f"cannot {doing} the database {location}: {reason}")
        self.location, self.reason = location, reason


class DamagedDatabaseError(StorageFaultError):
    """The database file is malformed: SQLite or its quick check found damaged pages."""

    def __init__(self, location: str, doing: str, problem: str) -> None:
        reason = f"the file is damaged ({problem}); check it with `studio doctor --db {location}`"
        super().__init__(location, doing, reason)
        self.problem = problem


class DatabaseBusyError(StorageFaultError):
    """Another program held the database's write lock past the busy timeout; nothing is wrong
    with the file, and the same write may well succeed a moment later."""
