"""What the catalog says when it has no cards to show: reading it failed (Retry reads it
again), it is empty, or nothing matches the words typed."""

from pathlib import Path

from PySide6.QtCore import Qt

from studio.ui.catalog.catalog_browser import CatalogBrowser
from studio.ui.window.stored_lists import StoredLists
from studio.ui.workflow_list import WorkflowListPanel
from studio.workspace import Workspace
from tests.ui.answers import answer


def test_a_catalog_that_cannot_be_read_says_so_and_retry_reads_it_again(
    qtbot, studio_data_dir: Path
) -> None:
    database = studio_data_dir / "broken.db"
    database.write_bytes(b"this is not a database, it is a note " * 200)
    workspace = Workspace(data_dir=studio_data_dir, database=str(database))
    lists = StoredLists(workspace, WorkflowListPanel())
    browser = CatalogBrowser(lists.catalog)
    qtbot.addWidget(browser)
    browser.show()
    assert answer(qtbot, browser.reload()) is None
    notice = browser.notice
    assert browser.cards.currentWidget() is notice
    assert notice.message.text().startswith("The blueprint catalog could not be read:")
    assert notice.retry_button.isVisible() and not browser.open_button.isEnabled()
    database.unlink()  # the fault is mended
    qtbot.mouseClick(notice.retry_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: browser.cards.currentWidget() is browser.grid)
    assert browser.shown.rowCount() == 5 and browser.open_button.isEnabled()
    workspace.close()


def test_an_empty_catalog_says_so_without_a_retry(qtbot) -> None:
    browser = CatalogBrowser(list)
    qtbot.addWidget(browser)
    browser.show()
    assert answer(qtbot, browser.reload()) == 0
    assert browser.cards.currentWidget() is browser.notice
    assert browser.notice.message.text().startswith("The catalog is empty")
    assert not browser.notice.retry_button.isVisible()
    assert [browser.categories.tabText(i) for i in range(browser.categories.count())] == ["All"]


def test_words_that_match_nothing_say_so_and_clearing_them_brings_the_cards_back(
    qtbot, seeds
) -> None:
    browser = CatalogBrowser(lambda: seeds)
    qtbot.addWidget(browser)
    browser.show()
    answer(qtbot, browser.reload())
    browser.choose_category("routing")
    qtbot.keyClicks(browser.search, "echo")
    assert browser.notice.message.text() == "No blueprints in routing match “echo”."
    browser.choose_category("")
    assert browser.shown.rowCount() == 1  # the Echo Demo Workflow, in All
    browser.search.clear()
    assert browser.cards.currentWidget() is browser.grid and browser.shown.rowCount() == 5
