"""The only place that writes SQL: database setup, schema, migrations and repositories.

The knowledge store's repository and errors are imported from :mod:`studio.store.knowledge`,
not from here: a command that opens the database without touching knowledge (a run of a
workflow that lands no artifact) does not load them."""

from studio.store.agent_library import (
    AgentIntegrityError,
    AgentLibraryRepository,
    ImmutableVersionError,
)
from studio.store.apps import AppRepository
from studio.store.database import Database, open_database
from studio.store.errors import DatabaseError, SchemaTooNewError
from studio.store.executions import ExecutionRepository
from studio.store.workflows import WorkflowRepository

__all__ = [
    "AgentIntegrityError",
    "AgentLibraryRepository",
    "AppRepository",
    "Database",
    "DatabaseError",
    "ExecutionRepository",
    "ImmutableVersionError",
    "SchemaTooNewError",
    "WorkflowRepository",
    "open_database",
]
