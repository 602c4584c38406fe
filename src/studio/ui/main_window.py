"""The main window: menus, the blueprint catalog dock and the central area."""

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
)

from studio import __version__
from studio.model import DefinitionError, Workflow, WorkflowFileError, load_workflow
from studio.workspace import Workspace

WORKFLOW_FILE_FILTER = "Workflows (*.yaml *.yml *.json);;All files (*)"


class MainWindow(QMainWindow):
    """Studio's top-level window."""

    def __init__(self, workspace: Workspace) -> None:
        super().__init__()
        self.workspace = workspace
        self.workflow: Workflow | None = None
        self.setWindowTitle("Studio")
        self.resize(1280, 800)
        self._welcome = QLabel(alignment=Qt.AlignmentFlag.AlignCenter)
        self._welcome.setObjectName("welcome")
        self._welcome.setWordWrap(True)
        self.setCentralWidget(self._welcome)
        self.blueprint_list = self._build_catalog_dock()
        self._build_menus()
        self._show_welcome()
        self.statusBar().showMessage(self._status_text())

    def open_workflow_file(self, path: str) -> bool:
        """Load a workflow file and show it; a bad file gets a message and changes nothing."""
        try:
            workflow = load_workflow(path)
        except (WorkflowFileError, DefinitionError) as failure:
            QMessageBox.warning(self, "Cannot open workflow", f"{Path(path).name}\n\n{failure}")
            return False
        self.show_workflow(workflow)
        return True

    def show_workflow(self, workflow: Workflow) -> None:
        """Make a workflow the one in view."""
        self.workflow = workflow
        self.setWindowTitle(f"{workflow.name} — Studio")
        nodes, edges = len(workflow.nodes), len(workflow.edges)
        self._welcome.setText(
            f"<h2>{_escape(workflow.name)}</h2><p>{_escape(workflow.description)}</p>"
            f"<p>{nodes} node(s), {edges} edge(s)</p>"
        )

    def _show_welcome(self) -> None:
        self._welcome.setText(
            "<h1>Studio</h1><p>Open a workflow file (Ctrl+O) or pick a blueprint on the left.</p>"
        )

    def _build_catalog_dock(self) -> QListWidget:
        listing = QListWidget()
        listing.setObjectName("blueprintList")
        for blueprint in self.workspace.blueprints:
            item = QListWidgetItem(f"{blueprint.workflow.name}\n{blueprint.workflow.category}")
            item.setToolTip(blueprint.workflow.description)
            item.setData(Qt.ItemDataRole.UserRole, blueprint.slug)
            listing.addItem(item)
        listing.itemActivated.connect(self._open_blueprint_item)
        dock = QDockWidget("Blueprints", self)
        dock.setObjectName("blueprintsDock")
        dock.setWidget(listing)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        return listing

    def _open_blueprint_item(self, item: QListWidgetItem) -> None:
        slug = item.data(Qt.ItemDataRole.UserRole)
        blueprint = next(b for b in self.workspace.blueprints if b.slug == slug)
        self.show_workflow(blueprint.workflow)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self._add_action(file_menu, "&Open…", QKeySequence.StandardKey.Open, self._choose_file)
        file_menu.addSeparator()
        self._add_action(file_menu, "&Quit", QKeySequence.StandardKey.Quit, self.close)
        help_menu = self.menuBar().addMenu("&Help")
        self._add_action(help_menu, "&About Studio", None, self._show_about)

    def _add_action(self, menu, text: str, shortcut, slot) -> QAction:
        action = menu.addAction(text)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        return action

    def _choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open workflow", "", WORKFLOW_FILE_FILTER)
        if path:
            self.open_workflow_file(path)

    def _show_about(self) -> None:
        QMessageBox.about(
            self, "About Studio", f"Studio {__version__}\nDraw, run and trace agent workflows."
        )

    def _status_text(self) -> str:
        agents, blueprints = len(self.workspace.agents), len(self.workspace.blueprints)
        return f"{agents} agent(s) · {blueprints} blueprint(s) · data in {self.workspace.data_dir}"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
