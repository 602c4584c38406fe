"""A designer browses the blueprint catalog: opens it from the Workflow menu, narrows it by a
category tab and by words, and opens the Conditional Router read-only."""

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from studio.ui.catalog.catalog_browser import CatalogBrowser
from tests.ui.answers import answer


def open_browser(qtbot, window) -> CatalogBrowser:
    """Open the catalog as a person does, from the menu's action; once its cards show."""
    window.actions_by_name["browse_catalog"].trigger()
    browser = window.workflows.catalog.browser
    assert browser is not None
    qtbot.waitExposed(browser)
    qtbot.waitUntil(lambda: browser.cards.currentWidget() is browser.grid)
    return browser


def click_tab(qtbot, browser: CatalogBrowser, title: str) -> None:
    tabs = browser.categories
    tab = next(i for i in range(tabs.count()) if tabs.tabText(i) == title)
    qtbot.mouseClick(tabs, Qt.MouseButton.LeftButton, pos=tabs.tabRect(tab).center())


def shown_names(browser: CatalogBrowser) -> list[str]:
    return [browser.shown.index(row, 0).data() for row in range(browser.shown.rowCount())]


def test_the_action_is_in_the_workflow_menu_with_a_shortcut(window) -> None:
    action = window.actions_by_name["browse_catalog"]
    assert action.shortcut().toString() == "Ctrl+Shift+B"
    workflow_menu = window.menuBar().actions()[3].menu()
    assert action in workflow_menu.actions()


def test_filter_and_open_the_conditional_router(qtbot, window) -> None:
    browser = open_browser(qtbot, window)
    assert len(shown_names(browser)) == 5
    assert [browser.categories.tabText(i) for i in range(browser.categories.count())] == [
        "All", "data", "demo", "parallel", "pipeline", "routing"
    ]  # fmt: skip
    click_tab(qtbot, browser, "pipeline")
    assert shown_names(browser) == ["Sequential Agent Pipeline"]
    click_tab(qtbot, browser, "All")
    qtbot.keyClicks(browser.search, "classifier")
    assert shown_names(browser) == ["Conditional Router"]
    qtbot.keyClick(browser.search, Qt.Key.Key_Down)
    qtbot.keyClick(browser.grid, Qt.Key.Key_Return)
    assert browser.pages.currentWidget() is browser.viewer
    texts = browser.viewer.shown_texts()
    for words in ("Classify request", "placeholder-classifier", "placeholder-fulfiller",
                  "placeholder-responder", 'result.status = "approved"',
                  'result.status = "rejected"'):  # fmt: skip
        assert words in texts
    assert browser.viewer.use_button.isEnabled()  # Use in app: test_use_in_app.py


def test_double_click_opens_a_card_and_escape_goes_back(qtbot, window) -> None:
    browser = open_browser(qtbot, window)
    grid = browser.grid
    second = browser.shown.index(1, 0)
    centre = grid.visualRect(second).center()
    qtbot.mouseClick(grid.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    qtbot.mouseDClick(grid.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    assert browser.pages.currentWidget() is browser.viewer
    assert browser.viewer.workflow is not None
    assert browser.viewer.workflow.name == "Data Processing Pipeline"
    qtbot.keyClick(browser.viewer.use_button, Qt.Key.Key_Escape)
    assert browser.pages.currentWidget() is browser.catalog_page
    assert grid.currentIndex().data() == "Data Processing Pipeline"


def test_keys_move_from_search_to_cards_and_between_cards(qtbot, window) -> None:
    browser = open_browser(qtbot, window)
    browser.grid.setFocus()
    qtbot.keyClick(browser.grid, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is browser.search
    qtbot.keyClick(browser.search, Qt.Key.Key_Down)
    assert QApplication.focusWidget() is browser.grid
    assert browser.grid.currentIndex().data() == "Conditional Router"
    qtbot.keyClick(browser.grid, Qt.Key.Key_Right)
    assert browser.grid.currentIndex().data() == "Data Processing Pipeline"
    qtbot.keyClick(browser.grid, Qt.Key.Key_Enter)
    assert browser.viewer.workflow is not None
    assert browser.viewer.workflow.name == "Data Processing Pipeline"


def test_a_card_out_of_view_has_no_preview_until_it_is_scrolled_to(qtbot, seeds) -> None:
    browser = CatalogBrowser(lambda: seeds)
    qtbot.addWidget(browser)
    browser.resize(320, 330)  # one card in view
    browser.show()
    qtbot.waitExposed(browser)
    assert answer(qtbot, browser.reload()) == 5
    browser.grid.viewport().repaint()
    previews = browser.delegate.previews
    first, last = browser.blueprints.facts[0], browser.blueprints.facts[-1]
    assert previews.drawn(first.key) and not previews.drawn(last.key)
    assert len(previews) < 5
    browser.grid.scrollTo(browser.shown.index(4, 0))
    browser.grid.viewport().repaint()
    assert previews.drawn(last.key)
    drawn = len(previews)
    browser.grid.scrollTo(browser.shown.index(0, 0))
    browser.grid.viewport().repaint()
    assert len(previews) == drawn  # drawn once, then kept
    assert browser.grid.viewport().grab().toImage().pixelColor(QPoint(5, 5)).isValid()


def test_the_welcome_pages_blueprint_button_opens_the_catalog(qtbot, window) -> None:
    welcome = window.workflows.tabs.welcome
    assert "Ctrl+Shift+B" in welcome.buttons["blueprint"].toolTip()
    qtbot.mouseClick(welcome.buttons["blueprint"], Qt.MouseButton.LeftButton)
    browser = window.workflows.catalog.browser
    assert browser is not None and browser.isVisible()
    qtbot.waitUntil(lambda: browser.shown.rowCount() == 5)
