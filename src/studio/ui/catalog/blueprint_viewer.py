"""One blueprint, read-only: its name, category and description above its graph (each node's
name and agent id, each edge's condition), with "Use in app…" and a way back to the cards."""

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QPainter, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.model import Workflow
from studio.ui.catalog.blueprint_scene import blueprint_scene, scene_texts
from studio.ui.catalog.catalog_model import facts_of

SMALLEST_ZOOM = 0.6
"""A large blueprint is not shrunk below this to fit: its words stay readable (it scrolls)."""


class BlueprintViewer(QWidget):
    """The read-only view of a blueprint opened from the catalog."""

    backRequested = Signal()
    useInAppRequested = Signal(object)  # the blueprint's Workflow

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workflow: Workflow | None = None
        self.back_button = QPushButton("← All blueprints")
        self.use_button = QPushButton("Use in app…")
        self.use_button.setDefault(True)
        self.title = QLabel()
        self.title.setObjectName("blueprint-title")
        self.facts = QLabel()
        self.description = QLabel()
        self.description.setWordWrap(True)
        self.view = QGraphicsView()
        self.view.setAccessibleName("Blueprint graph")
        self.view.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.view.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self._lay_out()
        self.back_button.clicked.connect(self.backRequested)
        self.use_button.clicked.connect(self._use)
        QShortcut(QKeySequence("Backspace"), self, self.backRequested.emit)

    def _lay_out(self) -> None:
        buttons = QHBoxLayout()
        buttons.addWidget(self.back_button)
        buttons.addStretch(1)
        buttons.addWidget(self.use_button)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.title)
        layout.addWidget(self.facts)
        layout.addWidget(self.description)
        layout.addWidget(self.view, 1)

    def show_blueprint(self, workflow: Workflow) -> None:
        """Show this blueprint, fitted to the view."""
        self.workflow = workflow
        card = facts_of(workflow, 0)
        self.title.setText(f"<h2>{_escaped(card.name)}</h2>")
        nodes = f"{card.node_count} node{'s' if card.node_count != 1 else ''}"
        remap = "  ·  needs remapping: placeholder agents" if card.needs_remapping else ""
        self.facts.setText(f"{card.category or 'Uncategorised'}  ·  {nodes}{remap}")
        self.description.setText(workflow.description)
        old = self.view.scene()
        self.view.setScene(blueprint_scene(workflow))
        if old is not None:
            old.deleteLater()
        self.fit()

    def fit(self) -> None:
        """Fit the graph in view, but never smaller than readable."""
        scene = self.view.scene()
        if scene is None:
            return
        self.view.resetTransform()
        self.view.fitInView(scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        zoom = min(max(self.view.transform().m11(), SMALLEST_ZOOM), 1.0)
        self.view.resetTransform()
        self.view.scale(zoom, zoom)

    def shown_texts(self) -> list[str]:
        """The words drawn on the graph: node names, agent ids and conditions."""
        scene = self.view.scene()
        return [] if scene is None else scene_texts(scene)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit()

    def _use(self) -> None:
        if self.workflow is not None:
            self.useInAppRequested.emit(self.workflow)


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
