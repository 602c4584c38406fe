"""The blueprint catalog as a page of cards: category tabs and a search box above a grid of
blueprints, each card with a live preview of its graph; opening a card shows the blueprint
read-only, with "Use in app…".

The catalog is read on the store thread, never on the UI thread. The grid is a list view in
icon mode with a delegate: only the cards in view are painted, and each preview is drawn the
first time its card is. Keys: Ctrl+F goes to the search box, Down from there to the cards,
arrows move between cards, Enter opens one, Backspace or Escape goes back, Escape closes."""

import logging
from collections.abc import Callable
from concurrent.futures import Future

from PySide6.QtCore import QEvent, QModelIndex, QObject, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLineEdit,
    QListView,
    QPushButton,
    QStackedWidget,
    QTabBar,
    QVBoxLayout,
    QWidget,
)

from studio.model import Workflow
from studio.ui.catalog.blueprint_card import BlueprintCardDelegate
from studio.ui.catalog.blueprint_viewer import BlueprintViewer
from studio.ui.catalog.catalog_model import (
    ALL_CATEGORIES,
    WORKFLOW_ROLE,
    BlueprintFilter,
    BlueprintListModel,
    categories_of,
)
from studio.ui.catalog.catalog_notice import CatalogNotice
from studio.ui.store_calls import StoreCalls

log = logging.getLogger("studio.ui.catalog")
READING = "Reading the blueprint catalog…"
EMPTY = "The catalog is empty. Save a workflow to the catalog to see it here."
TO_CARDS = (Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter)
"""Keys that take the focus from the search box to the cards."""


class CatalogBrowser(QWidget):
    """Browse the blueprint catalog and open a blueprint; asks for "Use in app" by signal."""

    useInAppRequested = Signal(object)  # the blueprint's Workflow

    def __init__(
        self, read_catalog: Callable[[], list[Workflow]], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Blueprint Catalog")
        self.read_catalog = read_catalog
        self.store = StoreCalls(parent=self)
        self.blueprints = BlueprintListModel(self)
        self.shown = BlueprintFilter(self)
        self.shown.setSourceModel(self.blueprints)
        self.delegate = BlueprintCardDelegate(self)
        self._build_controls()
        self._lay_out()
        self._wire()

    def _build_controls(self) -> None:
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search names, descriptions, categories, agents (Ctrl+F)")
        self.search.setAccessibleName("Search blueprints")
        self.search.setClearButtonEnabled(True)
        self.open_button = QPushButton("Open")
        self.categories = QTabBar()
        self.categories.setAccessibleName("Categories")
        self.categories.setExpanding(False)
        self.grid = QListView()
        self.grid.setAccessibleName("Blueprints")
        self.grid.setViewMode(QListView.ViewMode.IconMode)
        self.grid.setResizeMode(QListView.ResizeMode.Adjust)
        self.grid.setMovement(QListView.Movement.Static)
        self.grid.setUniformItemSizes(True)
        self.grid.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        self.grid.setItemDelegate(self.delegate)
        self.grid.setModel(self.shown)
        self.notice = CatalogNotice()
        self.viewer = BlueprintViewer()

    def _lay_out(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.open_button)
        self.cards = QStackedWidget()
        self.cards.addWidget(self.grid)
        self.cards.addWidget(self.notice)
        self.catalog_page = QWidget()
        page = QVBoxLayout(self.catalog_page)
        page.addLayout(top)
        page.addWidget(self.categories)
        page.addWidget(self.cards, 1)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.catalog_page)
        self.pages.addWidget(self.viewer)
        QVBoxLayout(self).addWidget(self.pages)

    def _wire(self) -> None:
        self.search.textChanged.connect(self._text_changed)
        self.search.installEventFilter(self)
        self.categories.currentChanged.connect(self._category_chosen)
        self.grid.activated.connect(self.open_card)
        self.open_button.clicked.connect(lambda: self.open_card(self.grid.currentIndex()))
        self.notice.retryRequested.connect(self.reload)
        self.viewer.backRequested.connect(self.back_to_cards)
        self.viewer.useInAppRequested.connect(self.useInAppRequested)
        QShortcut(QKeySequence.StandardKey.Find, self, self.focus_search)

    def sizeHint(self) -> QSize:
        return QSize(1100, 760)

    # Reading the catalog ------------------------------------------------------------------

    def reload(self) -> "Future[int | None]":
        """Read the catalog again (on the store thread); the answer is how many blueprints
        it holds once they show, or None when reading failed (and the error shows). The
        cards read before stay in view meanwhile."""
        answer: Future[int | None] = Future()
        if not self.blueprints.rowCount():
            self.notice.say(READING)
            self.cards.setCurrentWidget(self.notice)

        def failed(failure: Exception) -> None:
            self.show_failure(failure)
            answer.set_result(None)

        self.store.call(
            self.read_catalog, lambda found: answer.set_result(self.show_catalog(found)), failed
        )
        return answer

    def show_catalog(self, workflows: list[Workflow]) -> int:
        """Show these blueprints as cards; how many there are."""
        self.delegate.previews.clear()
        self.blueprints.set_blueprints(workflows)
        self._set_categories(categories_of(self.blueprints.facts))
        self._show_cards_or_notice()
        return len(workflows)

    def show_failure(self, failure: Exception) -> None:
        """Say that the catalog could not be read, with a Retry button."""
        log.warning("the blueprint catalog could not be read: %s", failure)
        self.notice.say(f"The blueprint catalog could not be read: {failure}", retry=True)
        self.cards.setCurrentWidget(self.notice)
        self.open_button.setEnabled(False)

    def _set_categories(self, categories: list[str]) -> None:
        chosen = self.shown.category
        self.categories.blockSignals(True)
        while self.categories.count():
            self.categories.removeTab(0)
        for category in [ALL_CATEGORIES, *categories]:
            tab = self.categories.addTab(category or "All")
            self.categories.setTabData(tab, category)
        kept = categories.index(chosen) + 1 if chosen in categories else 0
        self.categories.setCurrentIndex(kept)
        self.categories.blockSignals(False)
        self.shown.set_category(self.categories.tabData(kept))

    # Filtering ----------------------------------------------------------------------------

    def choose_category(self, category: str) -> None:
        """Bring forward the tab of ``category`` ("" for All)."""
        for tab in range(self.categories.count()):
            if self.categories.tabData(tab) == category:
                self.categories.setCurrentIndex(tab)

    def _category_chosen(self, tab: int) -> None:
        self.shown.set_category(self.categories.tabData(tab) or ALL_CATEGORIES)
        self._show_cards_or_notice()

    def _text_changed(self, text: str) -> None:
        self.shown.set_text(text)
        self._show_cards_or_notice()

    def _show_cards_or_notice(self) -> None:
        count = self.shown.rowCount()
        self.open_button.setEnabled(count > 0)
        if count:
            self.cards.setCurrentWidget(self.grid)
            if not self.grid.currentIndex().isValid():
                self.grid.setCurrentIndex(self.shown.index(0, 0))
            return
        self.notice.say(EMPTY if not self.blueprints.rowCount() else self._no_match())
        self.cards.setCurrentWidget(self.notice)

    def _no_match(self) -> str:
        words = self.shown.text.strip()
        where = f" in {self.shown.category}" if self.shown.category else ""
        return f"No blueprints{where} match “{words}”." if words else f"No blueprints{where}."

    # Opening and moving around ----------------------------------------------------------

    def open_card(self, index: QModelIndex) -> None:
        """Show the blueprint of a card, read-only."""
        workflow = index.data(WORKFLOW_ROLE) if index.isValid() else None
        if isinstance(workflow, Workflow):
            self.viewer.show_blueprint(workflow)
            self.pages.setCurrentWidget(self.viewer)
            self.viewer.use_button.setFocus()

    def back_to_cards(self) -> None:
        """From a blueprint back to the cards, the one opened still chosen."""
        self.pages.setCurrentWidget(self.catalog_page)
        self.grid.setFocus()

    def focus_search(self) -> None:
        """Put the keyboard in the search box, its words chosen."""
        self.back_to_cards()
        self.search.setFocus()
        self.search.selectAll()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Down or Enter in the search box goes to the cards."""
        if (
            watched is self.search
            and isinstance(event, QKeyEvent)
            and event.type() == QEvent.Type.KeyPress
            and event.key() in TO_CARDS
            and self.shown.rowCount()
        ):
            self.grid.setFocus()
            return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Escape goes back from a blueprint to the cards, and from the cards closes."""
        if event.key() != Qt.Key.Key_Escape:
            super().keyPressEvent(event)
        elif self.pages.currentWidget() is self.viewer:
            self.back_to_cards()
        else:
            self.close()

    def changeEvent(self, event: QEvent) -> None:
        """A new theme: previews are drawn again in its colours."""
        if event.type() == QEvent.Type.PaletteChange:
            self.delegate.previews.clear()
        super().changeEvent(event)
