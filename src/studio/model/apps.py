"""Apps: named groups of workflows inside an organisation, versioned for optimistic locking."""

from typing import Literal, get_args

from pydantic import Field

from studio.model.base import StudioModel
from studio.model.errors import APP_NAME_REQUIRED, NotAllowedError
from studio.model.workflow import Timestamp

AppStatus = Literal["ACTIVE", "ARCHIVED"]
APP_STATUSES: tuple[AppStatus, ...] = get_args(AppStatus)


class App(StudioModel):
    """An app as stored: its workflows are those bound to it, oldest first."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    description: str = ""
    org_id: str | None = None
    status: AppStatus = "ACTIVE"
    workflow_ids: list[str] = Field(default_factory=list)
    version: int = Field(default=1, ge=1)
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None

    @property
    def archived(self) -> bool:
        """Whether the app has been archived (it stays, out of the usual lists)."""
        return self.status == "ARCHIVED"


def app_name(text: str) -> str:
    """``text`` as an app's name, without surrounding space; a blank one is refused."""
    name = text.strip()
    if not name:
        raise NotAllowedError(APP_NAME_REQUIRED)
    return name
