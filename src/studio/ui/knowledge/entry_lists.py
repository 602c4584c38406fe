"""The parts the Insights and Changes docks are both made of: a tree of grouped entries and,
while it has none, a quiet sentence in its place."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QStackedWidget, QTreeWidget


def entry_tree(accessible_name: str) -> QTreeWidget:
    """A headerless tree of groups and their entries, every row one line high."""
    tree = QTreeWidget()
    tree.setHeaderHidden(True)
    tree.setUniformRowHeights(True)
    tree.setAccessibleName(accessible_name)
    return tree


def empty_state(text: str, object_name: str) -> QLabel:
    """The sentence shown while there is nothing to list."""
    label = QLabel(text)
    label.setObjectName(object_name)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setWordWrap(True)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    return label


def tree_or_empty(tree: QTreeWidget, empty: QLabel) -> QStackedWidget:
    """The two in one place; the caller shows one or the other."""
    stack = QStackedWidget()
    stack.addWidget(empty)
    stack.addWidget(tree)
    return stack
