"""A list of rows of small editors that a person adds to, removes from and reorders: the base
of the argv list, the header and environment tables and the parameters table."""

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPushButton,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

MakeCells = Callable[[], list[QWidget]]


class Row(QWidget):
    """One row: its cells, then the buttons that move or remove it."""

    def __init__(self, cells: list[QWidget], reorderable: bool, parent: QWidget) -> None:
        super().__init__(parent)
        self.cells = cells
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        for cell in cells:
            layout.addWidget(cell)
        self.up = self._button(QStyle.StandardPixmap.SP_ArrowUp, "Move up")
        self.down = self._button(QStyle.StandardPixmap.SP_ArrowDown, "Move down")
        self.remove = self._button(QStyle.StandardPixmap.SP_TrashIcon, "Remove this row")
        for button in (self.up, self.down) if reorderable else ():
            layout.addWidget(button)
        self.up.setVisible(reorderable)
        self.down.setVisible(reorderable)
        layout.addWidget(self.remove)

    def _button(self, pixmap: QStyle.StandardPixmap, text: str) -> QToolButton:
        button = QToolButton(self)
        button.setIcon(self.style().standardIcon(pixmap))
        button.setToolTip(text)
        button.setAccessibleName(text)
        return button


class RowList(QWidget):
    """Rows made by ``make_cells``; ``changed`` after every add, remove, move or edit the
    owner reports with ``notify``."""

    changed = Signal()

    def __init__(
        self,
        make_cells: MakeCells,
        add_text: str,
        reorderable: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.make_cells, self.reorderable = make_cells, reorderable
        self.rows: list[Row] = []
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.setSpacing(3)
        self.add_button = QPushButton(add_text, self)
        self.add_button.setToolTip(add_text)
        self.add_button.clicked.connect(self.add_row)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addStretch(1)
        self.column.addLayout(buttons)

    def add_row(self) -> Row:
        """Add an empty row at the end, its first cell focused."""
        row = Row(self.make_cells(), self.reorderable, self)
        row.remove.clicked.connect(lambda: self.remove_row(self.rows.index(row)))
        row.up.clicked.connect(lambda: self.move_row(self.rows.index(row), -1))
        row.down.clicked.connect(lambda: self.move_row(self.rows.index(row), 1))
        self.rows.append(row)
        self.column.insertWidget(len(self.rows) - 1, row)
        row.cells[0].setFocus()
        self.changed.emit()
        return row

    def remove_row(self, index: int) -> None:
        """Remove the row at ``index``."""
        row = self.rows.pop(index)
        self.column.removeWidget(row)
        row.deleteLater()
        self.changed.emit()

    def move_row(self, index: int, step: int) -> None:
        """Move the row at ``index`` up (-1) or down (+1), if it can go there."""
        target = index + step
        if not 0 <= target < len(self.rows):
            return
        row = self.rows.pop(index)
        self.rows.insert(target, row)
        self.column.removeWidget(row)
        self.column.insertWidget(target, row)
        self.changed.emit()

    def clear_rows(self) -> None:
        """Remove every row."""
        while self.rows:
            self.remove_row(len(self.rows) - 1)

    def notify(self) -> None:
        """Tell listeners a cell was edited."""
        self.changed.emit()
