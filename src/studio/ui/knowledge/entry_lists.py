"""The parts the Insights and Changes docks are both made of: a tree of grouped entries and,
while it has none, a quiet sentence in its place.

The Changes dock fills a ``QTreeWidget`` item by item; the Insights dock, which may list
thousands of entries, shows its own model in a ``QTreeView`` so that only visible rows cost
anything. Both are set up alike."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QStackedWidget, QTreeView, QTreeWidget


def entry_tree(accessible_name: str) -> QTreeWidget:
    """A headerless tree of groups and their entries, every row one line high."""
    tree = QTreeWidget()
    _set_up_entry_list(tree, accessible_name)
    return tree


def entry_view(accessible_name: str) -> QTreeView:
    """Like ``entry_tree``, for a model of one's own: the caller sets it."""
    view = QTreeView()
    _set_up_entry_list(view, accessible_name)
    return view


def empty_state(text: str, object_name: str) -> QLabel:
    """The sentence shown while there is nothing to list."""
    label = QLabel(text)
    label.setObjectName(object_name)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setWordWrap(True)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    return label


def tree_or_empty(tree: QTreeView, empty: QLabel) -> QStackedWidget:
    """The two in one place (``tree`` a view or a tree widget); the caller shows one or the
    other."""
    stack = QStackedWidget()
    stack.addWidget(empty)
    stack.addWidget(tree)
    return stack


def _set_up_entry_list(view: QTreeView, accessible_name: str) -> None:
    # Uniform heights let the view place rows without asking each one its size.
    view.setHeaderHidden(True)
    view.setUniformRowHeights(True)
    view.setAccessibleName(accessible_name)
