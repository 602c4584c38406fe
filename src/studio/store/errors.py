"""Errors of the storage layer, phrased for the person who picked the database."""

from studio.model.errors import StudioError


class DatabaseError(StudioError):
    """The database cannot be opened or is not one Studio can use."""


class SchemaTooNewError(DatabaseError):
    """The database was written by a newer Studio."""
