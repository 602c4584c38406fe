"""Save the canvas to the blueprint catalog, and load a blueprint from it."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
)

from studio.model import Workflow


class SaveToCatalogDialog(QDialog):
    """Asks for the blueprint's name and category."""

    def __init__(self, name: str, category: str, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Save to blueprint catalog")
        self.name_edit = QLineEdit(name)
        self.category_edit = QLineEdit(category, placeholderText="e.g. pipeline, routing, demo")
        form = QFormLayout()
        form.addRow("Name", self.name_edit)
        form.addRow("Category", self.category_edit)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.name_edit.textChanged.connect(
            lambda text: buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(
                bool(text.strip())
            )
        )
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def entered(self) -> tuple[str, str]:
        """The name and category as typed, trimmed."""
        return self.name_edit.text().strip(), self.category_edit.text().strip()


class LoadFromCatalogDialog(QDialog):
    """A searchable list of the catalog's blueprints."""

    def __init__(self, blueprints: list[Workflow], parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Load from blueprint catalog")
        self.blueprints = blueprints
        self.search = QLineEdit(placeholderText="Search by name, category or description")
        self.listing = QListWidget()
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.listing.itemActivated.connect(lambda _item: self.accept())
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.listing)
        layout.addWidget(buttons)
        self.search.textChanged.connect(self._filter)
        self.resize(480, 420)
        self._filter("")

    def chosen(self) -> Workflow | None:
        """The highlighted blueprint."""
        item = self.listing.currentItem()
        return self.blueprints[item.data(Qt.ItemDataRole.UserRole)] if item else None

    def _filter(self, text: str) -> None:
        words = text.lower().split()
        self.listing.clear()
        for index, blueprint in enumerate(self.blueprints):
            haystack = f"{blueprint.name} {blueprint.category} {blueprint.description}".lower()
            if all(word in haystack for word in words):
                item = QListWidgetItem(
                    f"{blueprint.name}  ·  {blueprint.category or 'uncategorised'}"
                )
                item.setToolTip(blueprint.description)
                item.setData(Qt.ItemDataRole.UserRole, index)
                self.listing.addItem(item)
        self.listing.setCurrentRow(0)
