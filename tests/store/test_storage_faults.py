"""Storage faults at the store's boundary, on real faults: a full 600 KB tmpfs, a read-only
file, a read-only file system and a file damaged past its header. Each becomes one error that
names the database and the cause, and nothing half-written stays behind."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from studio.model import Workflow
from studio.store import WorkflowRepository, file_health, open_database
from studio.store.errors import DamagedDatabaseError, StorageFaultError
from tests.store.storage_faults import (
    damage,
    fill,
    make_database_with_runs_and_knowledge,
    page_offset_of,
    read_only_file,
    remount_read_only,
    small_disk,
)


def a_workflow(name: str) -> Workflow:
    return Workflow.model_validate({"name": name, "nodes": [{"id": "a", "agentId": "echo"}]})


def test_a_full_disk_fails_the_write_in_words_and_stores_none_of_it(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        file = disk / "studio.db"
        database = open_database(file)
        workflows = WorkflowRepository(database)
        workflows.create(a_workflow("before"))
        filler = fill(disk)
        big = a_workflow("x" * 200_000)  # more than the few pages the log may still hold
        with pytest.raises(StorageFaultError) as refused:
            workflows.create(big)
        assert str(refused.value) == (f"cannot write to the database {file}: the disk is full")
        filler.unlink()
        assert [w.name for w in workflows.find()] == ["before"]
        workflows.create(a_workflow("after"))  # space again: writing works again
        assert sorted(w.name for w in workflows.find()) == ["after", "before"]
        database.close()


def test_opening_on_a_full_disk_says_the_disk_is_full(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        file = disk / "studio.db"
        open_database(file).close()
        fill(disk)
        with pytest.raises(StorageFaultError, match=f"the database {file}: the disk is full$"):
            open_database(file)


def test_a_read_only_file_is_refused_at_open_and_left_as_it_was(
    tmp_path: Path, studio_data_dir: Path
) -> None:
    file = tmp_path / "studio.db"
    make_database_with_runs_and_knowledge(file, studio_data_dir)
    before = file.read_bytes()
    with read_only_file(file), pytest.raises(StorageFaultError) as refused:
        open_database(file)
    assert str(refused.value) == f"cannot open the database {file}: the file is read-only"
    assert file.read_bytes() == before


def test_a_read_only_file_system_is_refused_at_open(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", size="4m") as disk:
        file = disk / "studio.db"
        open_database(file).close()
        remount_read_only(disk)
        with pytest.raises(StorageFaultError) as refused:
            open_database(file)
    assert str(refused.value) == (f"cannot open the database {file}: the file system is read-only")


def test_a_file_damaged_while_studio_was_closed_is_found_at_the_next_open(
    tmp_path: Path, studio_data_dir: Path
) -> None:
    file = tmp_path / "studio.db"
    make_database_with_runs_and_knowledge(file, studio_data_dir)
    damage(file)
    damaged = file.read_bytes()
    for _attempt in range(2):  # and stays refused: nothing marks it sound again
        with pytest.raises(DamagedDatabaseError) as refused:
            open_database(file)
        message = str(refused.value)
        assert message.startswith(f"cannot open the database {file}: the file is damaged (")
        assert message.endswith(f"check it with `studio doctor --db {file}`")
    assert file.read_bytes() == damaged  # nothing was written into it


def test_a_database_whose_process_died_is_checked_when_next_opened(
    tmp_path: Path, studio_data_dir: Path
) -> None:
    file = tmp_path / "studio.db"
    make_database_with_runs_and_knowledge(file, studio_data_dir)
    # Damage that keeps the file's size and time, as if it happened under a running
    # Studio: a clean close vouches for the file, so opening does not look.
    stat = file.stat()
    damage(file)
    os.utime(file, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    open_database(file).close()

    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from studio.store import open_database; "
            "database = open_database(sys.argv[1]); print('open', flush=True); time.sleep(60)",
            str(file),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "open\n"
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    os.utime(file, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.raises(DamagedDatabaseError, match="the file is damaged"):
        open_database(file)


def test_a_file_another_live_process_changed_is_not_checked_again(
    tmp_path: Path, studio_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app has the file open and writes to it; a command opening it meanwhile trusts it."""
    file = tmp_path / "studio.db"
    make_database_with_runs_and_knowledge(file, studio_data_dir)
    sealed = file.stat()
    checks: list[Path] = []
    real_check = file_health.quick_check
    monkeypatch.setattr(file_health, "quick_check", lambda f: checks.append(f) or real_check(f))
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from studio.model import Workflow; "
            "from studio.store import WorkflowRepository, open_database; "
            "database = open_database(sys.argv[1]); "
            "WorkflowRepository(database).create(Workflow(name='meanwhile')); "
            "database.engine.dispose(); "  # the last connection to close checkpoints the file
            "print('changed', flush=True); time.sleep(60)",
            str(file),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "changed\n"
        assert file_health.needs_check(file, []) is False  # changed, but by a live process
        assert file.stat().st_mtime_ns != sealed.st_mtime_ns
        open_database(file).close()
        assert checks == []
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    open_database(file).close()  # its process died: now the file is checked
    assert checks == [file]


def test_a_file_that_is_not_a_database_is_refused_and_nothing_is_written_beside_it(
    tmp_path: Path,
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\n" * 2000, encoding="utf-8")
    with pytest.raises(StorageFaultError, match=r"notes\.txt"):
        open_database(notes)
    assert [path.name for path in tmp_path.iterdir()] == ["notes.txt"]
    assert notes.read_text(encoding="utf-8") == "shopping list\n" * 2000


def test_closing_cleanly_leaves_only_the_file_and_its_seal(
    tmp_path: Path, studio_data_dir: Path
) -> None:
    file = tmp_path / "studio.db"
    make_database_with_runs_and_knowledge(file, studio_data_dir)
    first, second = open_database(file), open_database(file)  # two at once, both live
    second.close()
    first.close()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["studio.db", "studio.db-closed"]


def test_landing_knowledge_on_a_full_disk_fails_in_words_and_lands_nothing(
    tmp_path: Path,
) -> None:
    from studio.knowledge.knowledge_base import KnowledgeBase
    from studio.store.knowledge import KnowledgeRepository
    from tests.store.storage_faults import CORPUS

    with small_disk(tmp_path / "disk") as disk:
        file = disk / "studio.db"
        database = open_database(file)
        knowledge = KnowledgeBase(KnowledgeRepository(database))
        filler = fill(disk)
        with pytest.raises(StorageFaultError) as refused:
            knowledge.ingest(CORPUS)
        assert str(refused.value) == f"cannot write to the database {file}: the disk is full"
        filler.unlink()
        assert knowledge.heads() == []
        database.close()


def test_damage_met_through_the_driver_connection_itself_is_reported_as_damage(
    tmp_path: Path, studio_data_dir: Path
) -> None:
    """The knowledge store bulk-inserts through the raw driver connection, whose errors are
    sqlite3's own, not SQLAlchemy's: they are storage faults all the same."""
    file = tmp_path / "studio.db"
    make_database_with_runs_and_knowledge(file, studio_data_dir)
    database = open_database(file)
    damage(file, page_offset_of(file, "artifact_versions") - 16, 64)
    with pytest.raises(DamagedDatabaseError) as refused, database.write() as connection:
        raw = connection.connection.driver_connection
        raw.execute("SELECT * FROM artifact_versions").fetchall()
    assert str(refused.value).startswith(f"cannot write to the database {file}: the file is")
    database.close()
