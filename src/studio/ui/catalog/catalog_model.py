"""The catalog's blueprints as an item model, and the filter behind its tabs and search box.

What a card shows (``CardFacts``) is worked out once per blueprint when the catalog is read;
the filter matches words against a blueprint's name, description, category and agent ids."""

from dataclasses import dataclass

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from studio.model import Workflow
from studio.model.publish_rules import PLACEHOLDER_PREFIX

WORKFLOW_ROLE = Qt.ItemDataRole.UserRole
FACTS_ROLE = Qt.ItemDataRole.UserRole + 1
ALL_CATEGORIES = ""
"""The category of the "All" tab: no filter."""
AnyIndex = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class CardFacts:
    """What a blueprint's card says, and the words a search looks in."""

    key: str
    name: str
    category: str
    node_count: int
    description: str
    needs_remapping: bool
    searched: str
    """Name, description, category and agent ids, lower case, for the search box."""


def facts_of(workflow: Workflow, row: int) -> CardFacts:
    """The card of a blueprint; ``row`` keeps apart two unsaved blueprints of one name."""
    agents = sorted({node.agent_id for node in workflow.nodes})
    words = [workflow.name, workflow.description, workflow.category, *agents]
    return CardFacts(
        key=workflow.id or f"{row}:{workflow.name}",
        name=workflow.name,
        category=workflow.category,
        node_count=len(workflow.nodes),
        description=" ".join(workflow.description.split()),
        needs_remapping=any(agent.startswith(PLACEHOLDER_PREFIX) for agent in agents),
        searched="\n".join(words).lower(),
    )


def categories_of(facts: list[CardFacts]) -> list[str]:
    """Every category present, once, in alphabetical order (blank ones left out)."""
    return sorted({card.category for card in facts if card.category}, key=str.lower)


def matches(card: CardFacts, category: str, text: str) -> bool:
    """Whether a card is in ``category`` ("" for all) and holds every word of ``text``."""
    if category != ALL_CATEGORIES and card.category != category:
        return False
    return all(word in card.searched for word in text.lower().split())


class BlueprintListModel(QAbstractListModel):
    """The blueprints read from the catalog, one row each, with their card facts."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._workflows: list[Workflow] = []
        self._facts: list[CardFacts] = []

    def set_blueprints(self, workflows: list[Workflow]) -> None:
        """Show these blueprints instead of the ones before."""
        self.beginResetModel()
        self._workflows = list(workflows)
        self._facts = [facts_of(workflow, row) for row, workflow in enumerate(workflows)]
        self.endResetModel()

    @property
    def facts(self) -> list[CardFacts]:
        """Every card, in row order."""
        return list(self._facts)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._workflows)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._workflows):
            return None
        card = self._facts[index.row()]
        if role == WORKFLOW_ROLE:
            return self._workflows[index.row()]
        if role == FACTS_ROLE:
            return card
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return card.name
        if role == Qt.ItemDataRole.ToolTipRole:
            return card.description or card.name
        return None


class BlueprintFilter(QSortFilterProxyModel):
    """The cards of the chosen category tab that hold every word typed in the search box."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.category = ALL_CATEGORIES
        self.text = ""

    def set_category(self, category: str) -> None:
        """Show only this category's cards ("" for all)."""
        if category != self.category:
            self.beginFilterChange()
            self.category = category
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_text(self, text: str) -> None:
        """Show only the cards holding every word of ``text``."""
        if text != self.text:
            self.beginFilterChange()
            self.text = text
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: AnyIndex) -> bool:
        card = self.sourceModel().index(source_row, 0, source_parent).data(FACTS_ROLE)
        return isinstance(card, CardFacts) and matches(card, self.category, self.text)
