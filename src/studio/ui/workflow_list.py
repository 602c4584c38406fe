"""The workflows dock: the stored workflows and the blueprint catalog.

It shows what it is given and emits intents (open, new, rename, duplicate, delete, use a
blueprint); the main window carries them out."""

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.model import Blueprint, Workflow

ID_ROLE = Qt.ItemDataRole.UserRole


class WorkflowListPanel(QWidget):
    """Stored workflows above, blueprints below, each with a search box."""

    openRequested = Signal(str)
    newRequested = Signal()
    renameRequested = Signal(str)
    duplicateRequested = Signal(str)
    deleteRequested = Signal(str)
    blueprintRequested = Signal(str)  # slug

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.search = QLineEdit(placeholderText="Search workflows and blueprints")
        self.search.setAccessibleName("Search workflows and blueprints")
        self.workflows, self.blueprints = QListWidget(), QListWidget()
        self.workflows.setAccessibleName("Workflows")
        self.blueprints.setAccessibleName("Blueprints")
        self.workflows.setObjectName("workflowList")
        self.blueprints.setObjectName("blueprintList")
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(QLabel("<b>Workflows</b>"))
        layout.addWidget(self.workflows, 3)
        layout.addLayout(self._workflow_buttons())
        layout.addWidget(QLabel("<b>Blueprints</b>"))
        layout.addWidget(self.blueprints, 2)
        use = QPushButton("Use in app…")
        use.clicked.connect(self._use_blueprint)
        layout.addWidget(use)
        self.workflows.itemActivated.connect(
            lambda item: self.openRequested.emit(item.data(ID_ROLE))
        )
        self.blueprints.itemActivated.connect(
            lambda item: self.blueprintRequested.emit(item.data(ID_ROLE))
        )
        self.search.textChanged.connect(self._filter)

    def _workflow_buttons(self) -> QGridLayout:
        grid = QGridLayout()
        buttons = (
            ("New", None),
            ("Rename", self.renameRequested),
            ("Duplicate", self.duplicateRequested),
            ("Delete", self.deleteRequested),
        )
        for index, (text, signal) in enumerate(buttons):
            button = QPushButton(text)
            if signal is None:
                button.clicked.connect(self.newRequested)
            else:
                button.clicked.connect(lambda _checked=False, s=signal: self._emit_current(s))
            grid.addWidget(button, index // 2, index % 2)
        return grid

    def show_workflows(self, workflows: list[Workflow]) -> None:
        """List stored workflows (most recently changed first)."""
        current = self.current_workflow_id()
        self.workflows.clear()
        for workflow in workflows:
            status = "published" if workflow.status == "PUBLISHED" else "draft"
            item = QListWidgetItem(
                f"{workflow.name}\n{status} · v{workflow.version} · {len(workflow.nodes)} nodes"
            )
            item.setData(ID_ROLE, workflow.id)
            self.workflows.addItem(item)
            if workflow.id == current:
                self.workflows.setCurrentItem(item)
        self._filter(self.search.text())

    def show_blueprints(self, blueprints: list[Blueprint]) -> None:
        """List the catalog's blueprints."""
        self.blueprints.clear()
        for blueprint in blueprints:
            workflow = blueprint.workflow
            item = QListWidgetItem(
                f"{workflow.name}\n{workflow.category} · {len(workflow.nodes)} nodes"
            )
            item.setToolTip(workflow.description)
            item.setData(ID_ROLE, blueprint.slug)
            self.blueprints.addItem(item)

    def current_workflow_id(self) -> str | None:
        """The highlighted workflow, if any."""
        item = self.workflows.currentItem()
        return item.data(ID_ROLE) if item else None

    def _emit_current(self, signal) -> None:
        workflow_id = self.current_workflow_id()
        if workflow_id:
            signal.emit(workflow_id)

    def _use_blueprint(self) -> None:
        item = self.blueprints.currentItem()
        if item is not None:
            self.blueprintRequested.emit(item.data(ID_ROLE))

    def _filter(self, text: str) -> None:
        words = text.lower().split()
        for listing in (self.workflows, self.blueprints):
            for row in range(listing.count()):
                item = listing.item(row)
                item.setHidden(not all(word in item.text().lower() for word in words))
