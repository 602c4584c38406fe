"""Errors a person can act on, with the texts the workflow service is known by."""


class StudioError(Exception):
    """Base of errors that carry a message meant for the person using Studio."""


class NotFoundError(StudioError):
    """A record that does not exist, e.g. ``Workflow not found``."""


class ConflictError(StudioError):
    """A write based on a stale version (optimistic locking)."""


class NotAllowedError(StudioError):
    """An operation the record's state does not allow, e.g. deleting a published workflow."""


WORKFLOW_NOT_FOUND = "Workflow not found"
EXECUTION_NOT_FOUND = "Execution not found"
APP_NOT_FOUND = "App not found"
WORKFLOW_CONFLICT = "Conflict: workflow was modified concurrently. Please retry."
DELETE_PUBLISHED = "Cannot delete a published workflow. Unpublish it first."
ONLY_PUBLISHED_RUN = "Only published workflows can be executed"
BLUEPRINT_READ_ONLY = "Blueprints are read-only once published"


class AccessDeniedError(StudioError):
    """A record of another organisation than the one asking (``Access denied``)."""


ACCESS_DENIED = "Access denied"
APP_CONFLICT = "Conflict: app was modified concurrently. Please retry."
WORKFLOW_BOUND_ELSEWHERE = "Workflow is already bound to another app"
ONLY_PUBLISHED_IMPORT = "Only published blueprints can be imported"
APP_NAME_REQUIRED = "An app needs a name"
