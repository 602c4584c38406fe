"""Hot statements run on the driver and give what SQLAlchemy gives: the same rows, decoded the
same way, and the same errors, on SQLite and on PostgreSQL, pipelined or not."""

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import bindparam, insert, literal_column, select
from sqlalchemy.exc import IntegrityError

from studio.store import open_database
from studio.store.database import Database
from studio.store.hot_statements import HotStatement, RowsInsert, pipelined
from studio.store.work_queue_schema import work_item_entries, work_items
from tests.postgres.test_workers_on_postgres import fresh_database

WHEN = datetime(2026, 9, 12, 9, 30, 15, 250000, tzinfo=UTC)
ROW = {
    "id": "order-one",
    "artifact": "design",
    "capability": "design-studio",
    "subject": "checkout",
    "status": "queued",
    "requested_by": "intake-desk",
    "created_at": WHEN,
    "updated_at": WHEN,
    "order_text": "Design the payment step.",
    "context": [{"id": "brief", "type": "url", "ref": "https://example.com", "when": "eager"}],
    "approvals": [],
    "extra": {"priority": 2, "tags": ["q4", "ux"]},
    "context_bounces": 0,
    "build_rounds": 1,
}
ADD = HotStatement(insert(work_items).values({name: bindparam(name) for name in ROW}))
BY_ID = HotStatement(select(work_items).where(work_items.c.id == bindparam("item_id")))
ADD_ENTRY = HotStatement(
    insert(work_item_entries).values(
        {name: bindparam(name) for name in ("item_id", "section", "text")}
    )
)


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        opened = open_database(tmp_path / "studio.db")
    else:
        server = request.getfixturevalue("postgres_url")
        opened = open_database(fresh_database(server, "hot_statements"))
    try:
        yield opened
    finally:
        opened.close()


def test_a_row_reads_back_as_sqlalchemy_reads_it(database: Database) -> None:
    with database.write() as connection:
        ADD.many(connection, [ROW])
    with database.read() as connection:
        hot = BY_ID.first(connection, {"item_id": "order-one"})
        plain = connection.execute(BY_ID.statement, {"item_id": "order-one"}).one()
        missing = BY_ID.first(connection, {"item_id": "order-two"})

    assert hot is not None and missing is None
    assert hot._asdict() == plain._asdict()
    assert hot.created_at == WHEN and hot.extra == ROW["extra"] and hot.context == ROW["context"]


def test_a_broken_key_is_sqlalchemys_integrity_error_and_stores_nothing(
    database: Database,
) -> None:
    with database.write() as connection:
        ADD.many(connection, [ROW])

    with pytest.raises(IntegrityError), database.write() as connection, pipelined(connection):
        ADD_ENTRY.many(connection, [{"item_id": "order-one", "section": "log", "text": "a"}])
        ADD.many(connection, [ROW])

    with database.read() as connection:
        assert connection.execute(select(work_item_entries)).all() == []


def test_statements_sent_together_read_back_in_order(database: Database) -> None:
    count = HotStatement(
        select(literal_column("count(*)")).where(work_item_entries.c.item_id == "order-one")
    )
    with database.write() as connection, pipelined(connection):
        ADD.many(connection, [ROW])
        ADD_ENTRY.many(
            connection,
            [{"item_id": "order-one", "section": "log", "text": text} for text in "abc"],
        )
        counted = count.send(connection, {})
        found = BY_ID.send(connection, {"item_id": "order-one"})

        assert counted.scalar() == 3
        assert found.first().build_rounds == 1


def test_an_in_list_bound_per_call_is_refused_when_the_statement_compiles(
    database: Database,
) -> None:
    expanding = HotStatement(
        select(work_items).where(work_items.c.status.in_(bindparam("some", expanding=True)))
    )
    with database.read() as connection, pytest.raises(TypeError, match="expanding"):
        expanding.rows(connection, {"some": ["queued"]})


@pytest.mark.parametrize("count", [1, 2, 3, RowsInsert.MOST_ROWS, RowsInsert.MOST_ROWS + 1])
def test_rows_inserted_together_keep_their_order(database: Database, count: int) -> None:
    entries = RowsInsert(work_item_entries, ("item_id", "section", "text"))
    rows = [
        {"item_id": "order-one", "section": "Work log", "text": f"line {n}"} for n in range(count)
    ]
    with database.write() as connection:
        ADD.many(connection, [ROW])
    with database.write_pipelined() as connection:
        entries.send(connection, rows[:1])  # one on its own first, as an ack's come after others
        entries.send(connection, rows[1:])

    query = select(work_item_entries.c.text).order_by(work_item_entries.c.seq)
    with database.read() as connection:
        stored = list(connection.execute(query).scalars())
    assert stored == [row["text"] for row in rows]


def test_rows_inserted_together_are_each_converted_as_their_columns_say(
    database: Database,
) -> None:
    items = RowsInsert(work_items, tuple(ROW))
    rows = [ROW | {"id": f"order-{n}", "created_at": WHEN.replace(day=n)} for n in (1, 2, 3)]
    with database.write_pipelined() as connection:
        items.send(connection, rows)

    with database.read() as connection:
        for row in rows:
            stored = BY_ID.first(connection, {"item_id": row["id"]})
            assert stored is not None
            assert stored.created_at == row["created_at"]
            assert (stored.extra, stored.context) == (ROW["extra"], ROW["context"])
