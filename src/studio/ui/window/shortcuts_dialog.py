"""Help → Keyboard Shortcuts: every command of the menus with its shortcut, grouped by menu,
with a box to find one by its words or its keys; and the keys that work on the canvas
without a menu entry."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLineEdit,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.ui.window.action_table import plain_text

CANVAS_KEYS = (
    ("Add a node (the palette opens where the pointer is)", "Tab"),
    ("Connect two nodes: drag from an output port to a node", "Drag"),
    ("Pan the canvas", "Middle drag, or Space+drag"),
    ("Zoom in and out", "Wheel"),
    ("Scroll", "Shift+Wheel"),
    ("Delete the selection", "Delete"),
    ("Add a sticky note", "Ctrl+Shift+N"),
    ("Group the selected nodes", "Ctrl+Shift+G"),
)
"""Keys the canvas answers to beyond its menu commands."""


class ShortcutsDialog(QDialog):
    """The shortcuts of a window's menus, filterable."""

    def __init__(self, menus: dict[str, QMenu], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard Shortcuts")
        self.setObjectName("shortcutsDialog")
        self.search = QLineEdit(placeholderText="Find a command or a key…")
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName("Find a shortcut")
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Command", "Shortcut"])
        self.tree.setRootIsDecorated(False)
        self.tree.setAccessibleName("Keyboard shortcuts")
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self._groups: list[tuple[QTreeWidgetItem, list[QTreeWidgetItem]]] = []
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.tree, 1)
        layout.addWidget(buttons)
        self._fill(menus)
        self.search.textChanged.connect(self.filter)
        self.resize(520, 560)

    def filter(self, text: str) -> None:
        """Show only the commands whose words or keys hold every word typed."""
        words = text.lower().split()
        for group, entries in self._groups:
            for entry in entries:
                haystack = f"{entry.text(0)} {entry.text(1)}".lower()
                entry.setHidden(not all(word in haystack for word in words))
            group.setHidden(all(entry.isHidden() for entry in entries))

    def rows(self) -> list[tuple[str, str]]:
        """Every (command, shortcut) listed and not filtered out."""
        return [
            (entry.text(0), entry.text(1))
            for group, entries in self._groups
            for entry in entries
            if not (entry.isHidden() or group.isHidden())
        ]

    def _fill(self, menus: dict[str, QMenu]) -> None:
        for title, menu in menus.items():
            entries = [_entry(action) for action in _commands(menu)]
            self._group(title, [entry for entry in entries if entry[1]])
        self._group("Canvas", list(CANVAS_KEYS))
        self.tree.expandAll()

    def _group(self, title: str, entries: list[tuple[str, str]]) -> None:
        if not entries:
            return
        group = QTreeWidgetItem([title])
        font = group.font(0)
        font.setBold(True)
        group.setFont(0, font)
        group.setFlags(Qt.ItemFlag.ItemIsEnabled)
        rows = [QTreeWidgetItem([words, keys]) for words, keys in entries]
        group.addChildren(rows)
        self.tree.addTopLevelItem(group)
        self._groups.append((group, rows))


def _commands(menu: QMenu) -> list[QAction]:
    """The menu's commands, those of its submenus included (not separators)."""
    found = []
    for action in menu.actions():
        submenu = action.menu()
        if isinstance(submenu, QMenu):
            found += _commands(submenu)
        elif not action.isSeparator():
            found.append(action)
    return found


def _entry(action: QAction) -> tuple[str, str]:
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    return plain_text(action.text()), keys
