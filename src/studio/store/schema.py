"""Studio's tables, described once with SQLAlchemy Core. The same schema runs on PostgreSQL."""

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata = MetaData(naming_convention=NAMING_CONVENTION)


class UtcTimestamp(TypeDecorator):
    """An aware UTC datetime stored as fixed-width ISO 8601 text, so text order is time order."""

    impl = String(32)
    cache_ok = True
    _last_written: tuple[datetime, str] | None = None
    """The last moment written, in any column, and its text: a write stamps its rows and
    events with one ``now``, so the same moment is written several times in a row."""

    def process_bind_param(self, value: datetime | None, dialect) -> str | None:
        if value is None:
            return None
        last = UtcTimestamp._last_written
        if last is not None and last[0] is value:
            return last[1]
        text = self._text_of(value)
        UtcTimestamp._last_written = (value, text)
        return text

    @staticmethod
    def _text_of(value: datetime) -> str:
        moment = value if value.tzinfo is UTC else value.astimezone(UTC)
        if moment.year < 1000:  # strftime writes such a year without its leading zeros
            return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        return moment.isoformat(timespec="microseconds")[:-6] + "Z"  # strftime's text, faster

    def process_result_value(self, value: str | None, dialect) -> datetime | None:
        if value is None:
            return None
        return datetime.fromisoformat(value)


def utc_now() -> datetime:
    """The current moment, timezone-aware in UTC."""
    return datetime.now(UTC)


schema_info = Table(
    "schema_info",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("version", Integer, nullable=False),
)

apps = Table(
    "apps",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", Text, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("org_id", String(64)),
    Column("status", String(16), nullable=False, default="ACTIVE", server_default="ACTIVE"),
    Column("version", Integer, nullable=False, default=1),
    Column("created_at", UtcTimestamp, nullable=False),
    Column("updated_at", UtcTimestamp, nullable=False),
)

workflows = Table(
    "workflows",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("is_blueprint", Boolean, nullable=False, default=False),
    Column("app_id", String(64), ForeignKey("apps.id", ondelete="SET NULL")),
    Column("org_id", String(64)),
    Column("blueprint_id", String(64)),
    Column("blueprint_version", Integer),
    Column("definition", JSON, nullable=False),
    Column("created_at", UtcTimestamp, nullable=False),
    Column("updated_at", UtcTimestamp, nullable=False),
)

workflow_versions = Table(
    "workflow_versions",
    metadata,
    Column(
        "workflow_id", String(64), ForeignKey("workflows.id", ondelete="CASCADE"), primary_key=True
    ),
    Column("version", Integer, primary_key=True),
    Column("name", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("definition", JSON, nullable=False),
    Column("created_at", UtcTimestamp, nullable=False),
)

executions = Table(
    "executions",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("workflow_id", String(64), nullable=False),
    Column("workflow_version", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("input", JSON),
    Column("output", JSON),
    Column("error", JSON),
    Column("owner", String(255)),
    Column("heartbeat_at", UtcTimestamp),
    Column("created_at", UtcTimestamp, nullable=False),
    Column("started_at", UtcTimestamp),
    Column("completed_at", UtcTimestamp),
    Column("compensation_status", String(16)),
    Column("compensation_summary", JSON),
    Column("agent_versions", JSON),  # {agent id: {namespace, version}} the run pinned
    ForeignKeyConstraint(
        ["workflow_id", "workflow_version"],
        ["workflow_versions.workflow_id", "workflow_versions.version"],
        ondelete="CASCADE",
    ),
    Index("ix_executions_workflow_created", "workflow_id", "created_at"),
    Index("ix_executions_status", "status"),
)

node_results = Table(
    "node_results",
    metadata,
    Column(
        "execution_id",
        String(64),
        ForeignKey("executions.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("node_id", String(255), primary_key=True),
    Column("position", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("input", JSON),
    Column("output", JSON),
    Column("error", JSON),
    Column("retry_count", Integer, nullable=False, default=0),
    Column("started_at", UtcTimestamp),
    Column("completed_at", UtcTimestamp),
    Column("next_retry_at", UtcTimestamp),
)

execution_events = Table(
    "execution_events",
    metadata,
    Column(
        "execution_id",
        String(64),
        ForeignKey("executions.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("seq", Integer, primary_key=True),
    Column("type", String(64), nullable=False),
    Column("node_id", String(255)),
    Column("payload", JSON, nullable=False),
    Column("created_at", UtcTimestamp, nullable=False),
)

human_tasks = Table(
    "human_tasks",
    metadata,
    Column(
        "execution_id",
        String(64),
        ForeignKey("executions.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("node_id", String(255), primary_key=True),
    Column("status", String(16), nullable=False),
    Column("title", Text, nullable=False, default=""),
    Column("input", JSON),
    Column("created_at", UtcTimestamp, nullable=False),
    Column("decided_at", UtcTimestamp),
    Column("decided_by", Text),
    Column("comment", Text),
    Index("ix_human_tasks_status", "status"),
)

governance_findings = Table(
    "governance_findings",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column(
        "execution_id", String(64), ForeignKey("executions.id", ondelete="CASCADE"), nullable=False
    ),
    Column("node_id", String(255)),
    Column("failure_class", String(32), nullable=False),
    Column("recommended_action", String(32), nullable=False),
    Column("message", Text, nullable=False),
    Column("created_at", UtcTimestamp, nullable=False),
)
