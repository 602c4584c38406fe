"""A mapping of mappings as blocks: each entry's id in an editable header over its key | value
rows (integration settings, agent properties)."""

from typing import Any

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCompleter,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.ui.icons import icon
from studio.ui.panels.key_value_rows import KeyValueRows


class MappingBlock(QFrame):
    """One entry: its id in the header, a remove button, and its settings as rows."""

    def __init__(self, entry: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.id_edit = QLineEdit(self, placeholderText=f"{entry.capitalize()} id")
        self.id_edit.setAccessibleName(f"{entry.capitalize()} id")
        bold = self.id_edit.font()
        bold.setBold(True)
        self.id_edit.setFont(bold)  # the header of the block, not one of its settings
        self.remove_button = QToolButton(self)
        self.remove_button.setIcon(icon("delete"))
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip(f"Remove this {entry} and its settings")
        self.remove_button.setAccessibleName(f"Remove this {entry}")
        self.remove_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.rows = KeyValueRows("setting", "settings", self, empty_hint=False)
        self.rows.add_button.setFlat(True)
        header = QHBoxLayout()
        header.addWidget(self.id_edit, 1)
        header.addWidget(self.remove_button)
        adding = QHBoxLayout()
        adding.addWidget(self.rows.add_button)
        adding.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 4)
        layout.setSpacing(3)
        layout.addLayout(header)
        layout.addWidget(self.rows)
        layout.addLayout(adding)

    def entry_id(self) -> str:
        """The id as typed, without surrounding spaces."""
        return self.id_edit.text().strip()

    def is_blank(self) -> bool:
        """Whether the block has neither an id nor a setting."""
        return not self.entry_id() and not self.rows.mapping()


class MappingBlocks(QWidget):
    """Blocks of id → settings; ``committed`` when a person finishes an edit in one or
    removes one. ``entry`` names a block ("integration"), ``plural`` several in the empty state,
    ``add_text`` is the add button's."""

    committed = Signal()

    def __init__(
        self, entry: str, plural: str, add_text: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.entry = entry
        self.blocks: list[MappingBlock] = []
        self.suggestions = QStringListModel(self)
        self.add_button = QPushButton(icon("add_node"), add_text)
        self.add_button.setToolTip(f"Add an {entry} with its own settings")
        self.add_button.clicked.connect(self.add_block)
        self.empty_label = QLabel(f'No {plural} yet — <a href="add">Add one</a>')
        self.empty_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.empty_label.linkActivated.connect(lambda _link: self.add_block())
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.setSpacing(6)
        self.column.addWidget(self.empty_label)

    def set_suggestions(self, ids: list[str]) -> None:
        """Offer these ids as each block's id is typed (the registry's agent ids, say)."""
        self.suggestions.setStringList(sorted(ids))

    def load(self, mapping: dict[str, Any]) -> None:
        """Show one block per entry of ``mapping`` (each value a mapping of settings)."""
        while self.blocks:
            self._drop(self.blocks[-1])
        for entry_id, settings in mapping.items():
            block = self._append()
            block.id_edit.setText(str(entry_id))
            block.rows.load(settings if isinstance(settings, dict) else {})
        self._show_empty_state()

    def mapping(self) -> dict[str, Any]:
        """The blocks as id → settings; meaningless while ``problem()`` is not None."""
        return {block.entry_id(): block.rows.mapping() for block in self.blocks if block.entry_id()}

    def problem(self) -> str | None:
        """What keeps the blocks from making a mapping, naming the block and row, or None."""
        seen: set[str] = set()
        for number, block in enumerate(self.blocks, start=1):
            entry_id = block.entry_id()
            if entry_id in seen:
                return f"'{entry_id}' is listed twice; keep one {self.entry} per id."
            name = entry_id or f"{self.entry.capitalize()} {number}"
            rows_problem = block.rows.problem(f"{name}, ")
            if rows_problem is not None:
                return rows_problem
            if not entry_id and not block.is_blank():
                return f"{name}: give this {self.entry} an id."
            seen.add(entry_id)
        return None

    def add_block(self) -> MappingBlock:
        """Add an empty block at the end and put the cursor in its id."""
        block = self._append()
        self._show_empty_state()
        block.id_edit.setFocus(Qt.FocusReason.OtherFocusReason)
        return block

    def remove_block(self, block: MappingBlock) -> None:
        """Take ``block`` away with its settings and say so."""
        self._drop(block)
        self._show_empty_state()
        self.committed.emit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Delete in the empty id of a block without settings removes the block."""
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            block = watched.parent()
            if (
                event.key() == Qt.Key.Key_Delete
                and isinstance(block, MappingBlock)
                and block in self.blocks
                and block.is_blank()
                and not block.rows.rows
            ):
                self.remove_block(block)
                self.add_button.setFocus(Qt.FocusReason.OtherFocusReason)
                return True
        return super().eventFilter(watched, event)

    def _append(self) -> MappingBlock:
        block = MappingBlock(self.entry, self)
        completer = QCompleter(self.suggestions, block.id_edit)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        block.id_edit.setCompleter(completer)
        block.id_edit.installEventFilter(self)
        block.id_edit.editingFinished.connect(self.committed)
        block.id_edit.returnPressed.connect(lambda: _enter_settings(block))
        block.remove_button.clicked.connect(lambda: self.remove_block(block))
        block.rows.committed.connect(self.committed)
        self.blocks.append(block)
        self.column.addWidget(block)
        block.show()  # now, not on a later turn: the cursor may be put in it at once
        return block

    def _drop(self, block: MappingBlock) -> None:
        self.blocks.remove(block)
        self.column.removeWidget(block)
        block.hide()
        block.deleteLater()

    def _show_empty_state(self) -> None:
        self.empty_label.setVisible(not self.blocks)


def _enter_settings(block: MappingBlock) -> None:
    """Enter in an id: on to the block's first setting, adding one when it has none."""
    if block.rows.rows:
        block.rows.rows[0].key_edit.setFocus(Qt.FocusReason.TabFocusReason)
    else:
        block.rows.add_row()
