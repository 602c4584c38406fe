"""The Agents panel: the agent library with search; a definition's versions, the difference
between any two, the built-in one a definition of yours shadows, and forking a built-in into
your own. It shows what it is given and asks by signal; a controller reads the store."""

from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.model.agent_library import DEFAULT, SYSTEM, AgentVersion, version_diff

ID_ROLE = Qt.ItemDataRole.UserRole
NO_DIFFERENCE = "The two versions are the same."


@dataclass(frozen=True)
class LibraryEntry:
    """One agent as the panel lists it: its current version, and the built-in one it hides."""

    current: AgentVersion
    shadowed: AgentVersion | None = None

    @property
    def whose(self) -> str:
        """ "built-in", "yours", or "yours, over the built-in" (which it shadows)."""
        if self.current.namespace == SYSTEM:
            return "built-in"
        return "yours, over the built-in" if self.shadowed is not None else "yours"


class AgentsPanel(QWidget):
    """Lists the library; shows one agent's versions and what changed between two."""

    agentChosen = Signal(str)  # an agent id: read its versions
    forkRequested = Signal(str)  # a built-in agent id: copy it into yours

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entries: dict[str, LibraryEntry] = {}
        self.versions: list[AgentVersion] = []
        self.search = QLineEdit(placeholderText="Search agents by id, name or description")
        self.search.setClearButtonEnabled(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Agent", "Version", "Whose"])
        self.tree.setRootIsDecorated(False)
        self.heading = QLabel("Choose an agent to see its versions")
        self.older, self.newer = QComboBox(), QComboBox()
        self.fork_button = QPushButton("Fork into mine")
        self.fork_button.setToolTip("Copy this built-in agent into your own, to edit it")
        self.original_button = QPushButton("Show the original")
        self.original_button.setToolTip("Compare yours with the built-in definition it hides")
        self.diff = QPlainTextEdit(readOnly=True)
        self.diff.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._name_for_screen_readers()
        self._lay_out()
        self._wire()
        self._show_chosen(None)

    # What it is given ----------------------------------------------------------------------

    def show_entries(self, entries: list[LibraryEntry]) -> None:
        """List the library, keeping the agent chosen if it is still there."""
        chosen = self.chosen_id()
        self.entries = {entry.current.agent_id: entry for entry in entries}
        self.tree.clear()
        for entry in entries:
            definition = entry.current.definition
            item = QTreeWidgetItem([definition.name, f"v{entry.current.version}", entry.whose])
            item.setData(0, ID_ROLE, entry.current.agent_id)
            item.setToolTip(0, f"{entry.current.agent_id}\n{definition.description}".strip())
            self.tree.addTopLevelItem(item)
        for column in (0, 1):
            self.tree.resizeColumnToContents(column)
        self._filter(self.search.text())
        if chosen is not None:
            self.choose(chosen)

    def show_versions(self, agent_id: str, versions: list[AgentVersion]) -> None:
        """An agent's versions, oldest first: the newest two are compared at once."""
        if agent_id != self.chosen_id():
            return
        self.versions = versions
        for box in (self.older, self.newer):
            box.blockSignals(True)
            box.clear()
            for version in versions:
                box.addItem(f"v{version.version} {version.namespace}")
                if version.created_at is not None:
                    when = f"saved {version.created_at:%Y-%m-%d %H:%M}"
                    box.setItemData(box.count() - 1, when, Qt.ItemDataRole.ToolTipRole)
            box.blockSignals(False)
        self.older.setCurrentIndex(max(len(versions) - 2, 0))
        self.newer.setCurrentIndex(len(versions) - 1)
        self._compare()

    def show_difference(self, lines: list[str]) -> None:
        """A unified difference, or a word that there is none."""
        self.diff.setPlainText("\n".join(lines) if lines else NO_DIFFERENCE)

    # Choosing ------------------------------------------------------------------------------

    def chosen_id(self) -> str | None:
        """The id of the agent chosen in the list."""
        item = self.tree.currentItem()
        return None if item is None else str(item.data(0, ID_ROLE))

    def choose(self, agent_id: str) -> None:
        """Choose an agent in the list (its versions are asked for)."""
        for item in self._items():
            if item.data(0, ID_ROLE) == agent_id:
                self.tree.setCurrentItem(item)
                return

    def _chosen(self) -> None:
        agent_id = self.chosen_id()
        self._show_chosen(agent_id)
        if agent_id is not None:
            self.agentChosen.emit(agent_id)

    def _show_chosen(self, agent_id: str | None) -> None:
        entry = self.entries.get(agent_id or "")
        self.fork_button.setEnabled(entry is not None and entry.current.namespace == SYSTEM)
        self.original_button.setVisible(entry is not None and entry.shadowed is not None)
        self.versions = []
        for box in (self.older, self.newer):
            box.clear()
        self.diff.clear()
        if entry is None:
            self.heading.setText("Choose an agent to see its versions")
            return
        where = "yours" if entry.current.namespace == DEFAULT else "built-in, read-only"
        self.heading.setText(f"{entry.current.agent_id} ({where})")

    def _compare(self) -> None:
        older, newer = self.older.currentIndex(), self.newer.currentIndex()
        if not self.versions or min(older, newer) < 0:
            return
        self.show_difference(version_diff(self.versions[older], self.versions[newer]))

    def _filter(self, text: str) -> None:
        words = text.lower().split()
        for item in self._items():
            entry = self.entries[str(item.data(0, ID_ROLE))]
            definition = entry.current.definition
            haystack = f"{definition.id} {definition.name} {definition.description}".lower()
            item.setHidden(not all(word in haystack for word in words))

    def _items(self) -> list[QTreeWidgetItem]:
        found = (self.tree.topLevelItem(row) for row in range(self.tree.topLevelItemCount()))
        return [item for item in found if item is not None]

    # Building ------------------------------------------------------------------------------

    def _name_for_screen_readers(self) -> None:
        for widget, name in (
            (self.search, "Search agents"),
            (self.tree, "Agents"),
            (self.older, "Older version"),
            (self.newer, "Newer version"),
            (self.diff, "What changed between the two versions"),
        ):
            widget.setAccessibleName(name)

    def _lay_out(self) -> None:
        compare = QHBoxLayout()
        compare.addWidget(self.older, 1)
        compare.addWidget(QLabel("→"))
        compare.addWidget(self.newer, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.fork_button)
        buttons.addWidget(self.original_button)
        buttons.addStretch(1)
        detail = QWidget()
        below = QVBoxLayout(detail)
        below.setContentsMargins(0, 0, 0, 0)
        below.addWidget(self.heading)
        below.addLayout(compare)
        below.addWidget(self.diff, 1)
        below.addLayout(buttons)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.tree)
        split.addWidget(detail)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(split, 1)

    def _wire(self) -> None:
        self.search.textChanged.connect(self._filter)
        self.tree.currentItemChanged.connect(lambda _now, _before: self._chosen())
        self.older.currentIndexChanged.connect(lambda _index: self._compare())
        self.newer.currentIndexChanged.connect(lambda _index: self._compare())
        self.fork_button.clicked.connect(self._fork)
        self.original_button.clicked.connect(self._original)

    def _fork(self) -> None:
        agent_id = self.chosen_id()
        if agent_id is not None:
            self.forkRequested.emit(agent_id)

    def _original(self) -> None:
        agent_id = self.chosen_id()
        entry = self.entries.get(agent_id or "")
        if entry is not None and entry.shadowed is not None:
            self.heading.setText(f"{entry.current.agent_id}: the built-in → yours")
            self.show_difference(version_diff(entry.shadowed, entry.current))
