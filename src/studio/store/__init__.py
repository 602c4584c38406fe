"""The only place that writes SQL: database setup, schema, migrations and repositories."""

from studio.store.agent_library import (
    AgentIntegrityError,
    AgentLibraryRepository,
    ImmutableVersionError,
)
from studio.store.apps import AppRepository
from studio.store.database import Database, open_database
from studio.store.errors import DatabaseError, SchemaTooNewError
from studio.store.executions import ExecutionRepository
from studio.store.knowledge import (
    ArtifactIntegrityError,
    KnowledgeConflictError,
    KnowledgeRepository,
    KnowledgeSearchError,
)
from studio.store.workflows import WorkflowRepository

__all__ = [
    "AgentIntegrityError",
    "AgentLibraryRepository",
    "AppRepository",
    "ArtifactIntegrityError",
    "Database",
    "DatabaseError",
    "ExecutionRepository",
    "ImmutableVersionError",
    "KnowledgeConflictError",
    "KnowledgeRepository",
    "KnowledgeSearchError",
    "SchemaTooNewError",
    "WorkflowRepository",
    "open_database",
]
