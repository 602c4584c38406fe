"""The work queue's tables (schema version 7): items, their append-only entries, published
capability manifests and close-out signatures.

An item row holds the envelope's fields; ``status``, the lease and the loop counters are the
only fields that ever change. The snapshot, work log and artifacts sections are rows of
``work_item_entries``, which are never updated or deleted (triggers on SQLite and PostgreSQL
refuse it), like manifests and signatures.
"""

from sqlalchemy import (
    JSON,
    Column,
    Connection,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
)

from studio.store.knowledge_schema import refuse_changes
from studio.store.schema import NAMING_CONVENTION, UtcTimestamp

queue_metadata = MetaData(naming_convention=NAMING_CONVENTION)

work_items = Table(
    "work_items",
    queue_metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("id", String(255), nullable=False, unique=True),
    Column("artifact", String(128), nullable=False),
    Column("capability", String(128), nullable=False),
    Column("subject", String(255), nullable=False),
    Column("status", String(32), nullable=False),
    Column("lease_worker", String(255)),
    Column("lease_token", Integer, nullable=False, server_default="0"),
    Column("lease_expires_at", UtcTimestamp),
    Column("reclaimed_from", String(255)),
    Column("requested_by", String(255), nullable=False),
    Column("created_at", UtcTimestamp, nullable=False),
    Column("updated_at", UtcTimestamp, nullable=False),
    Column("order_text", Text, nullable=False),
    Column("context", JSON, nullable=False),
    Column("approvals", JSON, nullable=False),
    Column("extra", JSON, nullable=False),
    Column("context_bounces", Integer, nullable=False, server_default="0"),
    Column("build_rounds", Integer, nullable=False, server_default="0"),
    Column("filed_ref", String(512)),
    Index("ix_work_items_pull", "capability", "status", "seq"),
)

work_item_entries = Table(
    "work_item_entries",
    queue_metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("item_id", String(255), nullable=False),
    Column("section", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Index("ix_work_item_entries_item", "item_id", "seq"),
)

capability_manifests = Table(
    "capability_manifests",
    queue_metadata,
    Column("capability", String(128), nullable=False),
    Column("version", Integer, nullable=False),
    Column("source_hash", String(64)),
    Column("published_at", UtcTimestamp, nullable=False),
    Column("text", Text, nullable=False),
    PrimaryKeyConstraint("capability", "version"),
)

closeout_signatures = Table(
    "closeout_signatures",
    queue_metadata,
    Column("item_id", String(255), primary_key=True),
    Column("signed_at", UtcTimestamp, nullable=False),
    Column("channel", Text, nullable=False),
    Column("digest", String(64), nullable=False),
)

APPEND_ONLY = {
    "work_item_entries": "work item entries",
    "capability_manifests": "published capability manifests",
    "closeout_signatures": "close-out signatures",
}
"""Tables whose rows are never updated or deleted, with how the refusal names them."""


def create_work_queue(connection: Connection) -> None:
    """Version 7: the queue's tables and the triggers that keep its records append-only."""
    queue_metadata.create_all(connection, checkfirst=True)
    refuse_changes(connection, APPEND_ONLY)
