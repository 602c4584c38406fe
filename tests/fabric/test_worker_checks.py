"""The exactly-once checks of the many-workers tests catch what they are there to catch: a
second build of an item (a second ledger version) and two leases held at once."""

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studio.cli.main import main
from studio.model.work_items import WorkItem
from studio.workspace import Workspace
from tests.fabric.workers.capabilities import LEDGER_ENTRY
from tests.fabric.workers.many import check_exactly_once, enqueue_ledger_items, one_lease_at_a_time

NOW = datetime(2026, 9, 12, tzinfo=UTC)


def logged(*lines: str) -> WorkItem:
    return WorkItem("item-1", "entry", "ledger", "ledger", "r", NOW, "o", work_log=lines)


def test_one_lease_after_another_passes_and_names_the_last_holder() -> None:
    item = logged(
        "t0 leased to w1 (token 1)",
        "t1 reclaimed: the lease of w1 had expired; leased to w2 (token 2)",
        "t2 ack advance by w2 → done",
    )
    assert one_lease_at_a_time(item) == ("w2", 2)


@pytest.mark.parametrize(
    "lines",
    [
        ("t0 leased to w1 (token 1)", "t1 leased to w2 (token 2)", "t2 ack advance by w2 → done"),
        (
            "t0 leased to w1 (token 2)",
            "t1 released",
            "t2 leased to w2 (token 2)",
            "t3 ack advance by w2 → done",
        ),
        ("t0 leased to w1 (token 1)", "t1 ack advance by w2 → done"),
        ("t0 leased to w1 (token 1)", "t1 ack advance by w1 → done", "t2 ack advance by w1 → done"),
    ],
    ids=["overlapping", "token-not-increasing", "acked-by-another", "acked-twice"],
)
def test_leases_that_overlap_or_acks_out_of_turn_are_caught(lines: tuple[str, ...]) -> None:
    with pytest.raises(AssertionError):
        one_lease_at_a_time(logged(*lines))


def test_a_second_ledger_version_of_an_item_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace = Workspace()
    folder = enqueue_ledger_items(workspace, tmp_path / "ledger", 2)
    argv = ["worker", "--capability", "ledger", "--definition", str(folder), "--once", "--json"]
    assert main([*argv, "--name", "w1"]) == 0
    assert json.loads(capsys.readouterr().out)["exits"] == {"advance": 2}
    check_exactly_once(workspace, 2)

    again = LEDGER_ENTRY.replace("${input.item.id}", "item-00001")
    workspace.knowledge.land(
        again.replace("${input.item.lease.worker}", "w1").replace("${input.item.lease.token}", "1")
    )

    with pytest.raises(AssertionError, match="item-00001"):
        check_exactly_once(workspace, 2)
    workspace.close()
