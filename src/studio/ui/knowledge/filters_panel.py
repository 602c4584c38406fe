"""The Filters dock of the knowledge view: which layers are drawn, which subject, which artifact
kinds and item types, and a search whose results jump to their node."""

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

ALL_SUBJECTS = "All subjects"
SEARCH_DELAY_MS = 250
NODE_ROLE = Qt.ItemDataRole.UserRole


class CheckList(QListWidget):
    """Names with a check box each; all checked means no filter."""

    changed = Signal(object)  # frozenset of the checked names, or None when all are

    def __init__(self, name: str) -> None:
        super().__init__()
        self.setObjectName(name)
        self.setMaximumHeight(120)
        self.itemChanged.connect(lambda _item: self.changed.emit(self.checked()))

    def set_names(self, names: list[str], checked: frozenset[str] | None) -> None:
        """Show these names, checked as given (None: all)."""
        with QSignalBlocker(self):
            self.clear()
            for name in names:
                item = QListWidgetItem(name, self)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                on = checked is None or name in checked
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def checked(self) -> frozenset[str] | None:
        """The checked names, or None when every name is checked."""
        items = [self.item(row) for row in range(self.count())]
        on = frozenset(i.text() for i in items if i.checkState() == Qt.CheckState.Checked)
        return None if len(on) == len(items) else on


class SearchBox(QLineEdit):
    """The search field: Enter chooses the first result, Down moves into the results."""

    submitted = Signal()
    down = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.submitted.emit()
        elif event.key() == Qt.Key.Key_Down:
            self.down.emit()
        else:
            super().keyPressEvent(event)


class FiltersPanel(QWidget):
    """Layers, subject, kinds, item types and search; says what was chosen by signals."""

    layersChanged = Signal(bool, bool, bool)  # items, units, sections
    subjectChanged = Signal(object)  # str, or None for every subject
    kindsChanged = Signal(object)  # frozenset or None
    itemTypesChanged = Signal(object)  # frozenset or None
    searchAsked = Signal(str)  # the words, once typing pauses
    resultChosen = Signal(str)  # a node id

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("knowledgeFilters")
        self.items, self.units, self.sections = (
            QCheckBox("Typed items"),
            QCheckBox("Units"),
            QCheckBox("Sections"),
        )
        self.subject = QComboBox()
        self.subject.setObjectName("subjectFilter")
        self.kinds, self.item_types = CheckList("kindFilter"), CheckList("itemTypeFilter")
        self.kinds.setAccessibleName("Artifact kinds")
        self.item_types.setAccessibleName("Item types")
        self.search = SearchBox()
        self.search.setObjectName("knowledgeSearch")
        self.search.setPlaceholderText("Search artifacts and items…")
        self.search.setAccessibleName("Search artifacts and items")
        self.search.setClearButtonEnabled(True)
        self.results = QListWidget()
        self.results.setObjectName("searchResults")
        self.results.setAccessibleName("Search results")
        self.results.setWordWrap(True)
        self.results.hide()
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._choose_on_arrival = False
        self._lay_out()
        self._connect()

    def _lay_out(self) -> None:
        layers = QGroupBox("Show")
        column = QVBoxLayout(layers)
        for box in (self.items, self.units, self.sections):
            column.addWidget(box)
        form = QFormLayout()
        form.addRow("Subject", self.subject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.results, 1)
        layout.addWidget(layers)
        layout.addLayout(form)
        layout.addWidget(QLabel("Artifact kinds"))
        layout.addWidget(self.kinds)
        layout.addWidget(QLabel("Item types"))
        layout.addWidget(self.item_types)
        layout.addStretch(0)

    def _connect(self) -> None:
        for box in (self.items, self.units, self.sections):
            box.toggled.connect(lambda _on: self.layersChanged.emit(*self.layers()))
        self.subject.currentIndexChanged.connect(
            lambda _index: self.subjectChanged.emit(self.subject.currentData())
        )
        self.kinds.changed.connect(self.kindsChanged)
        self.item_types.changed.connect(self.itemTypesChanged)
        self.search.textChanged.connect(lambda _text: self._search_timer.start())
        self._search_timer.timeout.connect(lambda: self.searchAsked.emit(self.search.text()))
        self.search.submitted.connect(self._choose_first)
        self.search.down.connect(self._enter_results)
        self.results.itemActivated.connect(self._choose)
        self.results.itemClicked.connect(self._choose)

    def layers(self) -> tuple[bool, bool, bool]:
        """Whether typed items, units and sections are shown."""
        return self.items.isChecked(), self.units.isChecked(), self.sections.isChecked()

    def set_layers(self, items: bool, units: bool, sections: bool) -> None:
        """Show these layer choices without announcing them."""
        for box, on in ((self.items, items), (self.units, units), (self.sections, sections)):
            with QSignalBlocker(box):
                box.setChecked(on)

    def set_choices(
        self,
        subjects: list[str],
        subject: str | None,
        kinds: list[str],
        item_types: list[str],
    ) -> None:
        """The subjects, kinds and item types the store holds, with the current subject."""
        with QSignalBlocker(self.subject):
            self.subject.clear()
            self.subject.addItem(ALL_SUBJECTS, None)
            for name in subjects:
                self.subject.addItem(name, name)
            self.subject.setCurrentIndex(max(self.subject.findData(subject), 0))
        self.kinds.set_names(kinds, self.kinds.checked() if self.kinds.count() else None)
        previous = self.item_types.checked() if self.item_types.count() else None
        self.item_types.set_names(item_types, previous)

    def show_results(self, results: list[tuple[str, str, str]]) -> None:
        """Results as (node id, title, detail): shown in order, the first one current."""
        self.results.clear()
        for node, title, detail in results:
            item = QListWidgetItem(f"{title}\n{detail}" if detail else title, self.results)
            item.setData(NODE_ROLE, node)
            item.setToolTip(node)
        if not results and self.search.text().strip():
            self.results.addItem(QListWidgetItem("No matches"))
        self.results.setVisible(self.results.count() > 0)
        self.results.setCurrentRow(0)
        if self._choose_on_arrival and results:
            self._choose_on_arrival = False
            self.resultChosen.emit(results[0][0])

    def run_search_now(self) -> None:
        """Search for what is typed without waiting for the pause."""
        self._search_timer.stop()
        self.searchAsked.emit(self.search.text())

    def _choose_first(self) -> None:
        if self._search_timer.isActive():  # the results are on their way: choose on arrival
            self._choose_on_arrival = True
            self.run_search_now()
            return
        first = self.results.item(0)
        if first is not None:
            self._choose(first)

    def _enter_results(self) -> None:
        self.results.setFocus()
        self.results.setCurrentRow(0)

    def _choose(self, item: QListWidgetItem) -> None:
        node = item.data(NODE_ROLE)
        if node:
            self.resultChosen.emit(node)
