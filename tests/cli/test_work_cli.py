"""``studio work …`` on a SQLite file: enqueue and lint with Gate A, list, show, ack and
release with fencing tokens, people's kill / requeue / return, and the close-out sweep to a
file drop and to a real local webhook. Most run in process; a few as real subprocesses."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from studio.cli.work_handlers import time_left
from studio.fabric.queue import Scope, WorkQueue
from studio.model.work_items import Lease
from studio.workspace import Workspace
from tests.cli_runner import run_studio, studio, studio_json
from tests.fabric.items import BREAKS_AT_ENQUEUE, BRIEF, CAPABILITY, MANIFEST, item_text
from tests.fabric.webhook import Hook

FIXTURES = Path(__file__).resolve().parents[1] / "ui" / "work" / "fixtures"
CORPUS = Path(__file__).resolve().parents[1] / "knowledge" / "fixtures" / "checkout-redesign"


@pytest.fixture
def db(tmp_path: Path, studio_data_dir: Path) -> str:
    """A SQLite file with the test manifest published and the default items' brief written."""
    (studio_data_dir / BRIEF).write_text("# Brief\n\nGuests pay by card.\n", encoding="utf-8")
    path = str(tmp_path / "studio.db")
    with opened_queue(path) as queue:
        queue.publish_manifest(MANIFEST)
    return path


@contextmanager
def opened_queue(db: str) -> Iterator[WorkQueue]:
    """The work queue of a workspace over ``db``, closed on leaving."""
    workspace = Workspace(database=db)
    try:
        yield workspace.work_queue
    finally:
        workspace.close()


def item_file(tmp_path: Path, item_id: str = "order-one", **fields: Any) -> str:
    path = tmp_path / f"{item_id}.md"
    path.write_text(item_text(item_id, **fields), encoding="utf-8")
    return str(path)


def leased(db: str, item_id: str) -> int:
    """Lease the oldest item (it must be ``item_id``); its token."""
    with opened_queue(db) as queue:
        pulled = queue.pull("w1", Scope(CAPABILITY))
    assert pulled is not None and pulled.item.id == item_id
    return pulled.token


def enqueued(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, item_id: str) -> None:
    studio(capsys, "work", "enqueue", item_file(tmp_path, item_id), "--db", db)


def test_the_fixture_order_enqueues_once_the_corpus_and_manifest_are_there(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "studio.db")
    order = str(FIXTURES / "order-checkout-design.md")
    manifest = str(FIXTURES / "capability-design-studio.md")
    unresolved = run_studio("work", "lint", order, "--db", db)
    assert unresolved.returncode == 1
    assert f"{order}: rule 2: capability 'design-studio' has published no manifest" in (
        unresolved.stdout
    )
    assert f"{order}: rule 5: eager source reqs" in unresolved.stdout
    workspace = Workspace(database=db)
    workspace.knowledge.ingest(CORPUS)
    workspace.close()
    published = run_studio("capabilities", "publish", manifest, "--db", db)
    assert published.returncode == 0, published.stderr
    enqueued = run_studio("work", "enqueue", order, "--by", "tester", "--db", db, "--json")
    assert enqueued.returncode == 0, enqueued.stderr
    document = json.loads(enqueued.stdout)
    assert (document["passes"], document["stored"]) == (True, True)
    assert document["item"]["id"] == "order-checkout-design"
    listed = run_studio("work", "list", "--db", db)
    assert listed.stdout.splitlines()[1].split() == [
        "order-checkout-design",
        "queued",
        "design",
        "design-studio",
        "checkout-redesign",
        "-",
        "-",
    ]


@pytest.mark.parametrize("rule", sorted(BREAKS_AT_ENQUEUE))
def test_enqueue_lists_the_broken_rule_and_stores_nothing(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, rule: int
) -> None:
    path = tmp_path / "broken.md"
    path.write_text(item_text(**BREAKS_AT_ENQUEUE[rule]), encoding="utf-8")
    out, err = studio(capsys, "work", "enqueue", str(path), "--db", db, expect=1)
    assert out.splitlines() and all(
        line.startswith(f"{path}: rule {rule}: ") for line in out.splitlines()
    )
    assert err == f"{path}: refused by Gate A (1 rule(s) broken); nothing stored\n"
    assert studio_json(capsys, "work", "list", "--db", db) == []


def test_enqueue_json_gives_each_failure_with_its_rule(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    path = item_file(tmp_path, "Bad_Id", artifact="design-review")
    document = studio_json(capsys, "work", "enqueue", path, "--db", db, expect=1)
    assert (document["passes"], document["stored"]) == (False, False)
    assert [failure["rule"] for failure in document["failures"]] == [1, 2]
    assert "'design-review' is planned" in document["failures"][1]["message"]


def test_lint_passes_a_good_item_and_stores_nothing(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    path = item_file(tmp_path)
    out, _err = studio(capsys, "work", "lint", path, "--db", db)
    assert out == f"{path}: passes Gate A\n"
    assert studio_json(capsys, "work", "lint", path, "--db", db)["passes"] is True
    assert studio_json(capsys, "work", "list", "--db", db) == []


def test_a_file_that_cannot_be_read_or_is_no_work_item_exits_2(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    missing = str(tmp_path / "missing.md")
    _out, err = studio(capsys, "work", "enqueue", missing, "--db", db, expect=2)
    assert err == f"studio: {missing}: there is no such file\n"
    plain = tmp_path / "plain.md"
    plain.write_text("# Just a note\n", encoding="utf-8")
    _out, err = studio(capsys, "work", "lint", str(plain), "--db", db, expect=2)
    assert err == f"studio: {plain}: line 1: a work item must start with a '---' line\n"
    document = studio_json(capsys, "work", "enqueue", str(plain), "--db", db, expect=2)
    message = f"{plain}: line 1: a work item must start with a '---' line"
    assert document == {"file": str(plain), "error": message}


def test_list_shows_the_lease_holder_and_time_left_and_filters(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    enqueued(capsys, db, tmp_path, "order-one")
    enqueued(capsys, db, tmp_path, "order-two")
    leased(db, "order-one")
    out, _err = studio(capsys, "work", "list", "--db", db)
    header, first, second = out.splitlines()
    assert header.split("  ")[0] == "ID" and "LEASE HOLDER" in header and "TIME LEFT" in header
    assert first.split()[:6] == [
        "order-one",
        "leased",
        "design",
        CAPABILITY,
        "checkout-redesign",
        "w1",
    ]
    assert first.split()[6].endswith("s") and first.split()[6] != "expired"
    assert second.split()[1:2] == ["queued"] and second.split()[-2:] == ["-", "-"]
    only_queued = studio_json(capsys, "work", "list", "--status", "queued", "--db", db)
    assert [item["id"] for item in only_queued] == ["order-two"]
    other = studio_json(capsys, "work", "list", "--capability", "nobody", "--db", db)
    assert other == []
    [held] = studio_json(capsys, "work", "list", "--status", "leased", "--db", db)
    assert held["lease"]["worker"] == "w1" and 0 < held["time_left_s"] <= 30


def test_show_prints_the_document_and_an_unknown_id_exits_2(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    enqueued(capsys, db, tmp_path, "order-one")
    out, _err = studio(capsys, "work", "show", "order-one", "--db", db)
    with opened_queue(db) as queue:
        assert out == queue.text("order-one")
    assert "## Order" in out and "queued by " in out
    shown = studio_json(capsys, "work", "show", "order-one", "--db", db)
    assert (shown["document"], shown["signature"]) == (out, None)
    _out, err = studio(capsys, "work", "show", "order-nine", "--db", db, expect=2)
    assert "order-nine" in err


def test_ack_takes_only_the_current_token_and_a_port_exit(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    enqueued(capsys, db, tmp_path, "order-one")
    token = leased(db, "order-one")
    base = ("work", "ack", "order-one")
    _out, err = studio(capsys, *base, "advance", "--token", str(token + 1), "--db", db, expect=1)
    assert "stale" in err
    _out, err = studio(
        capsys, *base, "refire-to-author", "--token", str(token), "--db", db, expect=1
    )
    assert err == (
        "studio: order-one: 'refire-to-author' routes between stations inside a lease; "
        "it never reaches the queue\n"
    )
    done = studio_json(
        capsys, *base, "advance", "--token", str(token), "--reason", "landed", "--db", db
    )
    assert (done["status"], done["lease"]) == ("done", None)
    again = studio_json(capsys, *base, "advance", "--token", str(token), "--db", db, expect=1)
    assert again["id"] == "order-one" and "stale" in again["error"]


def test_release_puts_the_item_back_on_the_queue(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    enqueued(capsys, db, tmp_path, "order-one")
    token = leased(db, "order-one")
    out, _err = studio(
        capsys,
        "work",
        "release",
        "order-one",
        "--token",
        str(token),
        "--reason",
        "stopping",
        "--db",
        db,
    )
    assert out == "order-one: queued\n"
    shown, _err = studio(capsys, "work", "show", "order-one", "--db", db)
    assert "released: stopping" in shown


def test_peoples_actions_move_items_and_say_why(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    enqueued(capsys, db, tmp_path, "order-one")
    returned = studio_json(
        capsys,
        "work",
        "return",
        "order-one",
        "--reason",
        "brief unclear",
        "--by",
        "ana",
        "--db",
        db,
    )
    assert returned["status"] == "needs-context"
    requeued = studio_json(
        capsys, "work", "requeue", "order-one", "--reason", "brief fixed", "--db", db
    )
    assert requeued["status"] == "queued"
    out, _err = studio(
        capsys, "work", "kill", "order-one", "--reason", "not wanted", "--by", "ana", "--db", db
    )
    assert out.splitlines()[0] == "order-one: killed"
    _out, err = studio(
        capsys, "work", "kill", "order-one", "--reason", "twice", "--db", db, expect=1
    )
    assert err == "studio: order-one is killed: it cannot become killed\n"
    shown, _err = studio(capsys, "work", "show", "order-one", "--db", db)
    for said in (
        "returned to intake by ana: brief unclear",
        "brief fixed",
        "killed by ana: not wanted",
    ):
        assert said in shown


def closed_by_hand(db: str, item_id: str) -> None:
    """Pull and ack an enqueued item: done and filed, without a worker."""
    token = leased(db, item_id)
    with opened_queue(db) as queue:
        queue.ack(item_id, "advance", token, "landed")


def test_sweep_drops_closed_items_under_the_data_folder_and_signs_them_once(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, studio_data_dir: Path
) -> None:
    enqueued(capsys, db, tmp_path, "order-one")
    closed_by_hand(db, "order-one")
    swept = run_studio("work", "sweep", "--db", db)
    assert swept.returncode == 0, swept.stderr
    dropped = studio_data_dir / "deliveries" / "intake-desk" / "order-one.md"
    assert f"order-one → intake-desk: delivered by drop:{dropped}" in swept.stdout
    shown = studio_json(capsys, "work", "show", "order-one", "--db", db)
    assert dropped.read_text(encoding="utf-8") == shown["document"]
    assert shown["signature"]["channel"] == f"drop:{dropped}"
    again = run_studio("work", "sweep", "--db", db, "--json")
    assert (again.returncode, json.loads(again.stdout)) == (0, {"deliveries": []})


def test_sweep_to_a_failing_webhook_exits_1_and_a_later_sweep_delivers(
    capsys: pytest.CaptureFixture[str],
    db: str,
    tmp_path: Path,
    studio_data_dir: Path,
    hook: Hook,
) -> None:
    settings = f"fabric:\n  deliveries:\n    intake-desk: {{webhook: '{hook.url}'}}\n"
    (studio_data_dir / "settings.yaml").write_text(settings, encoding="utf-8")
    enqueued(capsys, db, tmp_path, "order-one")
    closed_by_hand(db, "order-one")
    hook.status = 500
    failed = run_studio("work", "sweep", "--db", db, "--json")
    assert failed.returncode == 1, failed.stderr
    [delivery] = json.loads(failed.stdout)["deliveries"]
    assert (delivery["delivered"], delivery["signed"]) == (False, False)
    assert "answered 500" in delivery["problem"]
    assert studio_json(capsys, "work", "show", "order-one", "--db", db)["signature"] is None

    hook.status = 200
    out, _err = studio(capsys, "work", "sweep", "--db", db)
    assert out.startswith(f"order-one → intake-desk: delivered by webhook:{hook.url}")
    assert (
        json.loads(hook.received[-1])["document"]
        == studio_json(capsys, "work", "show", "order-one", "--db", db)["document"]
    )
    _out, err = studio(capsys, "work", "sweep", "--db", db)
    assert (err, len(hook.received)) == ("nothing to deliver: every closed item is signed\n", 2)


def test_sweep_with_settings_that_name_no_channel_exits_2_and_says_where(
    capsys: pytest.CaptureFixture[str], db: str, studio_data_dir: Path
) -> None:
    settings = studio_data_dir / "settings.yaml"
    settings.write_text("fabric:\n  deliveries:\n    intake-desk: {mail: a@b}\n", encoding="utf-8")
    _out, err = studio(capsys, "work", "sweep", "--db", db, expect=2)
    assert err == (
        f"studio: {settings}: fabric.deliveries.intake-desk: 'mail' is not a channel "
        "(drop or webhook)\n"
    )


NOW = datetime(2026, 9, 12, 10, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(45, "45s"), (245, "4m05s"), (3720, "1h02m"), (0, "expired"), (-5, "expired")],
)
def test_time_left_reads_at_a_glance(seconds: int, shown: str) -> None:
    lease = Lease("w1", 1, NOW + timedelta(seconds=seconds))
    assert time_left(lease, NOW) == shown
    assert time_left(None, NOW) == "-"
