"""The node palette: type to find an agent, Enter to add it to the canvas; or choose a kind
("HTTP request", "Transform"…) to make a new agent of that kind."""

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.model import AgentDefinition
from studio.ui.agent_editor.kind_forms import KIND_FORMS, KindForm
from studio.ui.icons import icon, kind_icon_name

KIND_ROLE = Qt.ItemDataRole.UserRole + 1
"""Where a "new agent" entry keeps the kind it makes."""


def matches(agent: AgentDefinition, query: str) -> bool:
    """Whether every word typed appears in the agent's name, id, kind or description."""
    haystack = f"{agent.name} {agent.id} {agent.kind} {agent.description}".lower()
    return all(word in haystack for word in query.lower().split())


def kind_matches(form: KindForm, query: str) -> bool:
    """Whether every word typed appears in the kind's title, name or summary."""
    haystack = f"new agent {form.title} {form.kind} {form.summary}".lower()
    return all(word in haystack for word in query.lower().split())


class NodePalette(QDialog):
    """A small searchable list of the registry's agents, then the kinds a new agent can be."""

    agentChosen = Signal(str)
    kindChosen = Signal(str)

    def __init__(self, agents: list[AgentDefinition], parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("nodePalette")
        self.agents = sorted(agents, key=lambda agent: agent.name.lower())
        self.search = QLineEdit(placeholderText="Add a node: type an agent's name or kind…")
        self.search.setObjectName("paletteSearch")
        self.search.setAccessibleName("Find an agent or a kind")
        self.listing = QListWidget()
        self.listing.setObjectName("paletteList")
        self.listing.setAccessibleName("Agents and kinds")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.search)
        layout.addWidget(self.listing)
        self.resize(380, 320)
        self.search.textChanged.connect(self._filter)
        self.search.returnPressed.connect(self._choose_current)
        self.listing.itemActivated.connect(lambda item: self._choose(item))
        self.search.installEventFilter(self)
        self._filter("")

    def visible_agent_ids(self) -> list[str]:
        """The agents the list shows now, in order."""
        items = (self.listing.item(row) for row in range(self.listing.count()))
        return [item.data(Qt.ItemDataRole.UserRole) for item in items if not item.data(KIND_ROLE)]

    def visible_kinds(self) -> list[str]:
        """The titles of the "new agent" entries the list shows now, in order."""
        items = (self.listing.item(row) for row in range(self.listing.count()))
        return [item.text().split("    ")[0] for item in items if item.data(KIND_ROLE)]

    def _filter(self, query: str) -> None:
        self.listing.clear()
        for agent in self.agents:
            if matches(agent, query):
                item = QListWidgetItem(f"{agent.name}    {agent.id} · {agent.kind}")
                item.setIcon(icon(kind_icon_name(agent.kind)))
                item.setToolTip(agent.description)
                item.setData(Qt.ItemDataRole.UserRole, agent.id)
                self.listing.addItem(item)
        for form in KIND_FORMS:
            if kind_matches(form, query):
                item = QListWidgetItem(f"{form.title}    new agent · {form.kind}")
                item.setIcon(icon(kind_icon_name(form.kind)))
                item.setToolTip(f"Make a new agent: {form.summary}")
                item.setData(KIND_ROLE, form.kind)
                self.listing.addItem(item)
        self.listing.setCurrentRow(0)

    def _choose_current(self) -> None:
        item = self.listing.currentItem()
        if item is not None:
            self._choose(item)

    def _choose(self, item: QListWidgetItem) -> None:
        kind = item.data(KIND_ROLE)
        self.accept()
        if kind:
            self.kindChosen.emit(kind)
        else:
            self.agentChosen.emit(item.data(Qt.ItemDataRole.UserRole))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Up and Down in the search box move through the list, as in every command palette.
        arrows = (Qt.Key.Key_Down, Qt.Key.Key_Up)
        if (
            watched is self.search
            and isinstance(event, QKeyEvent)
            and event.type() == QKeyEvent.Type.KeyPress
            and event.key() in arrows
        ):
            step = 1 if event.key() == Qt.Key.Key_Down else -1
            row = max(0, min(self.listing.count() - 1, self.listing.currentRow() + step))
            self.listing.setCurrentRow(row)
            return True
        return super().eventFilter(watched, event)
