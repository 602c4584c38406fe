"""8 worker processes share one SQLite queue: every item is done exactly once, and no item is
ever leased by two workers at once (see ``tests.fabric.workers.many``)."""

import json
from pathlib import Path

import pytest

from studio.cli.main import main
from studio.workspace import Workspace
from tests.fabric.workers.many import check_exactly_once, enqueue_ledger_items, work_and_check


def test_eight_workers_do_every_item_exactly_once_on_sqlite(
    studio_data_dir: Path, tmp_path: Path
) -> None:
    workspace = Workspace()
    work_and_check(workspace, studio_data_dir, tmp_path, "SQLite")
    workspace.close()


def test_one_worker_building_four_items_at_once_does_each_exactly_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace = Workspace()
    folder = enqueue_ledger_items(workspace, tmp_path / "ledger", 40)
    argv = ["worker", "--capability", "ledger", "--definition", str(folder), "--once", "--json"]

    assert main([*argv, "--concurrency", "4", "--name", "c4"]) == 0

    assert json.loads(capsys.readouterr().out)["exits"] == {"advance": 40}
    check_exactly_once(workspace, 40)
    workspace.close()
