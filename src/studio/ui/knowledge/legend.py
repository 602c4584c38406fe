"""The legend: an overlay in the canvas corner listing the node types and edge families in
view with their looks; its header folds it away."""

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPixmap
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from studio.ui.canvas.style import canvas_colors
from studio.ui.knowledge.node_look import (
    DOCUMENT,
    NodeLook,
    edge_icon,
    edge_look,
    look_icon,
)

COLUMNS = 2
ICON_WIDTH = 22
SHAPE_ORDER = {DOCUMENT: 0, "pill": 1, "card": 2, "hexagon": 3, "box": 4}


class Legend(QFrame):
    """What each look means, for the types present in the graph shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphLegend")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.toggle = QToolButton(self)
        self.toggle.setText("Legend")
        self.toggle.setCheckable(True)
        self.toggle.setChecked(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow)
        self.toggle.toggled.connect(self.set_expanded)
        self.body = QWidget(self)
        self.rows = QGridLayout(self.body)
        self.rows.setContentsMargins(6, 0, 6, 6)
        self.rows.setHorizontalSpacing(6)
        self.rows.setVerticalSpacing(2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(0)
        layout.addWidget(self.toggle)
        layout.addWidget(self.body)
        self._shown: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        self._looks: list[NodeLook] = []
        self._names: list[QLabel] = []
        self._font = QFont()
        self._font.setPointSizeF(max(6.5, self._font.pointSizeF() * 0.85))
        self._edge_types: list[str] = []

    def show_types(self, looks: Iterable[NodeLook], edge_types: Iterable[str]) -> None:
        """List these node looks and the families of these edge types (once each)."""
        unique = {look.name: look for look in looks}
        self._looks = sorted(unique.values(), key=lambda k: (SHAPE_ORDER[k.shape], k.name))
        self._edge_types = sorted(set(edge_types))
        shown = (tuple(k.name for k in self._looks), tuple(self._edge_types))
        if shown != self._shown:
            self._shown = shown
            self._rebuild()

    def entries(self) -> list[str]:
        """The names listed, node types first, then edge families."""
        return [name.text() for name in self._names if name.text()]

    def set_expanded(self, expanded: bool) -> None:
        """Show the list, or fold it down to its header."""
        self.toggle.setChecked(expanded)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self.body.setVisible(expanded)
        self.adjustSize()

    def apply_colors(self) -> None:
        """Draw the swatches again in the current theme."""
        self._rebuild()

    def _rebuild(self) -> None:
        while self.rows.count():
            taken = self.rows.takeAt(0)
            widget = taken.widget() if taken is not None else None
            if widget is not None:
                widget.deleteLater()
        self._names = []
        colors = canvas_colors()
        for look in self._looks:
            self._add_entry(look_icon(look, colors, ICON_WIDTH), look.name, look.name)
        self._next_row()
        for family, types in _families(self._edge_types).items():
            swatch = edge_icon(edge_look(types[0]), ICON_WIDTH)
            self._add_entry(swatch, family, f"{family}: {', '.join(types)}")
        self.adjustSize()

    def _next_row(self) -> None:
        """Start the next entries on a fresh row (edges below the node types)."""
        while len(self._names) % COLUMNS:
            self._names.append(QLabel(self.body))  # an empty cell keeps the count aligned
            self._names[-1].hide()

    def _add_entry(self, swatch: QPixmap, text: str, tooltip: str) -> None:
        place = len(self._names)
        row, column = divmod(place, COLUMNS)
        icon, name = QLabel(self.body), QLabel(text, self.body)
        icon.setPixmap(swatch)
        icon.setAlignment(Qt.AlignmentFlag.AlignCenter)
        for cell in (icon, name):
            cell.setFont(self._font)
            cell.setToolTip(tooltip)
        self.rows.addWidget(icon, row, 2 * column)
        self.rows.addWidget(name, row, 2 * column + 1)
        icon.show()  # children added to a shown widget stay hidden until told
        name.show()
        self._names.append(name)


def _families(edge_types: list[str]) -> dict[str, list[str]]:
    """Edge types grouped by family, in first-seen order."""
    families: dict[str, list[str]] = {}
    for edge_type in edge_types:
        families.setdefault(edge_look(edge_type).family, []).append(edge_type)
    return families
