"""Records read from rows by their fields' names: every field a column fills is filled."""

from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Table, select

from studio.model.execution import ExecutionEvent, ExecutionRecord, NodeResult
from studio.store import ExecutionRepository, open_database
from studio.store.execution_rows import execution_event, execution_record, node_result
from studio.store.human_tasks import HumanTask, HumanTaskRepository, human_task
from studio.store.row_records import RecordReader
from studio.store.schema import execution_events, executions, human_tasks, node_results
from tests.store.test_executions import publish


@dataclass
class Sample:
    key: str
    count: int = 0
    tags: list[str] = field(default_factory=list)


def test_each_field_comes_from_the_column_of_its_name_or_the_one_named() -> None:
    read = RecordReader(Sample, key="id")
    assert read({"id": "a", "count": 3, "key": "ignored", "extra": 1}) == Sample("a", 3)


def test_a_field_without_a_column_keeps_its_default_and_given_values_win() -> None:
    read = RecordReader(Sample)
    assert read({"key": "a"}) == Sample("a")
    assert read({"key": "a", "count": 1}, tags=["t"], count=2) == Sample("a", 2, ["t"])


def test_a_required_field_without_its_column_is_an_error() -> None:
    with pytest.raises(KeyError, match="key"):
        RecordReader(Sample)({"count": 1})


def test_a_column_named_for_a_field_the_record_lacks_is_refused_at_once() -> None:
    with pytest.raises(TypeError, match="Sample has no field identifier"):
        RecordReader(Sample, identifier="id")


@pytest.mark.parametrize(
    ("reader", "table", "record_type", "not_stored"),
    [
        (execution_record, executions, ExecutionRecord, {"node_results"}),
        (node_result, node_results, NodeResult, set()),
        (execution_event, execution_events, ExecutionEvent, set()),
        (human_task, human_tasks, HumanTask, set()),
    ],
)
def test_every_field_of_a_stored_record_has_its_column(
    reader: RecordReader, table: Table, record_type: type, not_stored: set[str]
) -> None:
    stored = {reader.columns[f.name] for f in fields(record_type) if f.name not in not_stored}
    assert stored <= set(table.c.keys())


def test_records_read_back_carry_every_stored_value(tmp_path: Path) -> None:
    database = open_database(tmp_path / "studio.db")
    try:
        executions_ = ExecutionRepository(database)
        record, _event = executions_.create(publish(database, "a"), {"x": 1})
        HumanTaskRepository(database).request(record.execution_id, "a", "check it", [1])
        with database.read() as connection:
            row = connection.execute(select(executions)).one()
            task_row = connection.execute(select(human_tasks)).one()
        assert executions_.get(record.execution_id) == execution_record(
            row, node_results={"a": NodeResult("a")}
        )
        assert execution_record(row).execution_id == row.id
        assert execution_record(row).input == {"x": 1}
        task = human_task(task_row)
        assert (task.title, task.input, task.status) == ("check it", [1], "pending")
        assert task.created_at <= datetime.now(UTC)
    finally:
        database.close()
