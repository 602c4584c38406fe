"""The Enqueue dialog as a person uses it: Gate A answers as they type, the broken rules are
listed by number, Enqueue works only once none is broken, and the new item shows on the board."""

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from studio.ui.work.enqueue_dialog import EnqueueDialog
from tests.ui.modal import when_modal_opens
from tests.ui.work.queue_items import order_text
from tests.ui.work.work_window import WAIT_MS, column_of_card, open_work_window

NEW_ID = "design-checkout-copy"


def type_over(qtbot, dialog: EnqueueDialog, text: str) -> None:
    """Select everything in the editor and type ``text`` in its place."""
    dialog.editor.setFocus()
    dialog.editor.selectAll()
    qtbot.keyClick(dialog.editor, Qt.Key.Key_Delete)
    dialog.editor.insertPlainText(text)  # typed as a paste: a key per character is slow


def wait_checked(qtbot, dialog: EnqueueDialog) -> list[str]:
    qtbot.waitUntil(lambda: dialog.failures is not None, timeout=WAIT_MS)
    return dialog.failure_texts()


def test_gate_a_is_checked_as_you_type_and_the_item_lands_queued(qtbot, tmp_path) -> None:
    window, _queue, _seeded = open_work_window(qtbot, tmp_path)

    def write_and_enqueue(dialog: EnqueueDialog) -> None:
        assert wait_checked(qtbot, dialog) != []  # the template names no real source
        assert not dialog.enqueue_button.isEnabled()
        planned = order_text(NEW_ID).replace("artifact: design", "artifact: design-review")
        type_over(qtbot, dialog, planned)
        failures = wait_checked(qtbot, dialog)
        assert [text[:7] for text in failures] == ["Rule 2:"]
        assert "planned" in failures[0]
        assert not dialog.enqueue_button.isEnabled()
        cursor = dialog.editor.document().find("design-review")
        dialog.editor.setTextCursor(cursor)
        qtbot.keyClicks(dialog.editor, "design")  # typing over the selection
        assert not dialog.enqueue_button.isEnabled()  # not before Gate A has answered
        assert wait_checked(qtbot, dialog) == []
        assert dialog.enqueue_button.isEnabled()
        qtbot.mouseClick(dialog.enqueue_button, Qt.MouseButton.LeftButton)

    failures = when_modal_opens(EnqueueDialog, write_and_enqueue)
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert failures == []
    mode = window.work
    qtbot.waitUntil(lambda: column_of_card(mode, NEW_ID) == "queued", timeout=WAIT_MS)
    assert mode.board.selected == NEW_ID
    qtbot.waitUntil(
        lambda: mode.detail.item is not None and mode.detail.item.id == NEW_ID, timeout=WAIT_MS
    )


def test_an_id_on_the_queue_and_a_text_that_is_no_work_item_are_refused(qtbot, tmp_path) -> None:
    window, _queue, seeded = open_work_window(qtbot, tmp_path)
    seen: dict[str, list[str]] = {}

    def try_texts(dialog: EnqueueDialog) -> None:
        wait_checked(qtbot, dialog)
        type_over(qtbot, dialog, order_text(seeded["queued"]))
        seen["taken"] = wait_checked(qtbot, dialog)
        type_over(qtbot, dialog, "just a note")
        seen["no item"] = wait_checked(qtbot, dialog)
        assert not dialog.enqueue_button.isEnabled()
        dialog.reject()

    failures = when_modal_opens(EnqueueDialog, try_texts)
    window.actions_by_name["work_enqueue"].trigger()
    assert failures == []
    assert [text[:7] for text in seen["taken"]] == ["Rule 1:"]
    assert seen["no item"][0].startswith("Not a work item yet")


def test_a_work_item_file_is_opened_into_the_editor(qtbot, tmp_path) -> None:
    window, _queue, _seeded = open_work_window(qtbot, tmp_path)
    path = tmp_path / "order.md"
    path.write_text(order_text(NEW_ID), encoding="utf-8")
    shown: list[str] = []

    def pick_file(chooser: QFileDialog) -> None:
        chooser.selectFile(str(path))
        chooser.accept()

    def open_file(dialog: EnqueueDialog) -> None:
        inner = when_modal_opens(QFileDialog, pick_file)
        qtbot.mouseClick(dialog.open_button, Qt.MouseButton.LeftButton)
        assert inner == []
        shown.append(dialog.editor.toPlainText())
        assert wait_checked(qtbot, dialog) == []
        dialog.reject()

    failures = when_modal_opens(EnqueueDialog, open_file)
    window.actions_by_name["work_enqueue"].trigger()
    assert failures == []
    assert shown == [Path(path).read_text(encoding="utf-8")]
