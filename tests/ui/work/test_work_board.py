"""The Work board as a person uses it: cards in their status columns, a card's detail read
in full and kept live, the workers' leases, and the actions that apply to the item chosen."""

from PySide6.QtCore import Qt

from studio.model.work_items import WORK_LOG
from studio.ui.work.item_actions import ReasonDialog
from tests.ui.modal import when_modal_opens
from tests.ui.work.queue_items import DESIGN
from tests.ui.work.work_window import WAIT_MS, click_card, column_of_card, open_work_window


def test_every_item_sits_in_its_status_column_the_closed_most_recent_first(qtbot, tmp_path) -> None:
    window, _queue, seeded = open_work_window(qtbot, tmp_path)
    mode = window.work
    for status in ("queued", "leased", "in-build", "needs-context", "escalated"):
        assert column_of_card(mode, seeded[status]) == status
    assert mode.board.column_ids("closed") == [seeded["killed"], seeded["done"]]
    assert mode.board.columns["queued"].heading.text() == "Queued · 2"
    leased = mode.board.card(seeded["leased"])
    assert leased is not None
    assert leased.lease.text().startswith("worker-3 · ")
    assert leased.ordered.text() == "design · design-studio"
    assert leased.subject.text() == "checkout-redesign"


def test_clicking_a_card_shows_its_sections_and_front_matter(qtbot, tmp_path) -> None:
    window, _queue, seeded = open_work_window(qtbot, tmp_path)
    mode = window.work
    assert mode.detail.currentWidget() is mode.detail.hint
    click_card(qtbot, mode, seeded["in-build"])
    detail = mode.detail
    assert detail.heading.text() == "Design the order summary panel."
    assert detail.status.text() == "In build"
    assert "Design the order summary panel." in detail.order.toPlainText()
    log = detail.log_lines()
    assert any("leased to worker-2" in line for line in log)
    assert log[-1].endswith("Gate B: Clear: the requirements cover it")
    assert "status: in-build" in detail.front.toPlainText()
    assert "worker: worker-2" in detail.front.toPlainText()
    assert detail.fields["Lease"].text().startswith("worker-2 · ")
    assert [detail.tabs.tabText(n) for n in range(5)] == [
        "Order",
        "Snapshot",
        f"{WORK_LOG} ({len(log)})",
        "Artifacts (0)",
        "Front matter",
    ]


def test_the_detail_shows_what_the_queue_adds_while_it_is_open(qtbot, tmp_path) -> None:
    window, queue, seeded = open_work_window(qtbot, tmp_path)
    mode = window.work
    click_card(qtbot, mode, seeded["queued"])
    queue.append(seeded["queued"], WORK_LOG, "intake checked the budget")
    qtbot.waitUntil(
        lambda: mode.detail.log_lines()[-1].endswith("intake checked the budget"),
        timeout=WAIT_MS,
    )


def test_a_card_moves_when_a_worker_pulls_its_item(qtbot, tmp_path) -> None:
    window, queue, seeded = open_work_window(qtbot, tmp_path)
    pulled = queue.pull("worker-9", DESIGN)
    assert pulled is not None and pulled.item.id == seeded["queued"]
    qtbot.waitUntil(lambda: column_of_card(window.work, seeded["queued"]) == "leased")
    qtbot.waitUntil(lambda: "worker-9" in window.work.leases.workers(), timeout=WAIT_MS)


def test_the_workers_dock_lists_who_holds_what_and_picks_the_item(qtbot, tmp_path) -> None:
    window, _queue, seeded = open_work_window(qtbot, tmp_path)
    mode = window.work
    assert mode.leases.workers() == ["worker-2", "worker-3"]
    top = mode.leases.tree.topLevelItem(1)
    assert top is not None and top.child(0) is not None
    row = top.child(0)
    assert row.text(0) == seeded["leased"]
    assert row.text(1) != ""
    tree = mode.leases.tree
    tree.scrollToItem(row)
    qtbot.mouseClick(
        tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(row).center()
    )
    qtbot.waitUntil(
        lambda: mode.detail.item is not None and mode.detail.item.id == seeded["leased"],
        timeout=WAIT_MS,
    )
    card = mode.board.card(seeded["leased"])
    assert card is not None and card.selected


def test_each_action_is_offered_only_where_it_applies(qtbot, tmp_path) -> None:
    window, _queue, seeded = open_work_window(qtbot, tmp_path)
    mode, actions = window.work, window.actions_by_name

    def offered() -> set[str]:
        names = ("work_release", "work_kill", "work_return")
        return {name for name in names if actions[name].isEnabled()}

    assert offered() == set()  # nothing selected
    expected = {
        "queued": {"work_kill", "work_return"},
        "leased": {"work_release", "work_kill", "work_return"},
        "needs-context": {"work_release", "work_kill"},
        "escalated": {"work_release", "work_kill", "work_return"},
        "done": set(),
    }
    for status, names in expected.items():
        click_card(qtbot, mode, seeded[status])
        assert offered() == names, status


def test_kill_asks_why_and_the_card_moves_to_closed_with_the_reason_logged(qtbot, tmp_path) -> None:
    window, _queue, seeded = open_work_window(qtbot, tmp_path)
    mode = window.work
    item_id = seeded["queued"]
    click_card(qtbot, mode, item_id)

    def give_reason(dialog: ReasonDialog) -> None:
        assert not dialog.ok.isEnabled()  # no reason, no kill
        qtbot.keyClicks(dialog.reason, "the receipt email is out of scope")
        assert dialog.ok.isEnabled()
        qtbot.mouseClick(dialog.ok, Qt.MouseButton.LeftButton)

    failures = when_modal_opens(ReasonDialog, give_reason)
    keys = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window, Qt.Key.Key_K, keys)  # Kill's shortcut
    assert failures == []
    qtbot.waitUntil(lambda: column_of_card(mode, item_id) == "closed", timeout=WAIT_MS)
    qtbot.waitUntil(
        lambda: any(
            "killed by" in line and "the receipt email is out of scope" in line
            for line in mode.detail.log_lines()
        ),
        timeout=WAIT_MS,
    )
    assert mode.board.column_ids("closed")[0] == item_id  # the most recent close first
    assert not window.actions_by_name["work_kill"].isEnabled()


def test_release_puts_a_leased_item_back_on_the_queue(qtbot, tmp_path) -> None:
    window, _queue, seeded = open_work_window(qtbot, tmp_path)
    mode = window.work
    item_id = seeded["leased"]
    click_card(qtbot, mode, item_id)

    def give_reason(dialog: ReasonDialog) -> None:
        qtbot.keyClicks(dialog.reason, "worker-3 is being drained")
        qtbot.keyClick(dialog.reason, Qt.Key.Key_Return)

    failures = when_modal_opens(ReasonDialog, give_reason)
    window.actions_by_name["work_release"].trigger()
    assert failures == []
    qtbot.waitUntil(lambda: column_of_card(mode, item_id) == "queued", timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "worker-3" not in mode.leases.workers(), timeout=WAIT_MS)


def test_cancelling_the_reason_changes_nothing(qtbot, tmp_path) -> None:
    window, queue, seeded = open_work_window(qtbot, tmp_path)
    mode = window.work
    click_card(qtbot, mode, seeded["escalated"])
    failures = when_modal_opens(ReasonDialog, lambda dialog: dialog.reject())
    window.actions_by_name["work_return"].trigger()
    assert failures == []
    assert queue.read(seeded["escalated"]).status == "escalated"
