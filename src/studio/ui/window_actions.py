"""The main window's menus and toolbar: every command with its standard shortcut."""

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QToolBar

Key = QKeySequence.StandardKey


@dataclass(frozen=True)
class ActionSpec:
    """One command: its text, shortcut, and what it calls."""

    name: str
    text: str
    shortcut: QKeySequence | Key | str | None
    slot: Callable[[], object]
    tip: str = ""
    checkable: bool = False


def build_action(window: QMainWindow, spec: ActionSpec) -> QAction:
    """A QAction for the spec, owned by the window."""
    action = QAction(spec.text, window)
    action.setObjectName(spec.name)
    if spec.shortcut is not None:
        action.setShortcut(QKeySequence(spec.shortcut))
    action.setToolTip(spec.tip or spec.text.replace("&", "").replace("…", ""))
    action.setCheckable(spec.checkable)
    if spec.checkable:
        action.toggled.connect(spec.slot)
    else:
        action.triggered.connect(spec.slot)
    return action


def add_menu(window: QMainWindow, title: str, actions: list[QAction | None]) -> QMenu:
    """A menu of actions; None is a separator."""
    menu = window.menuBar().addMenu(title)
    for action in actions:
        if action is None:
            menu.addSeparator()
        else:
            menu.addAction(action)
    return menu


def add_toolbar(window: QMainWindow, title: str, actions: list[QAction | None]) -> QToolBar:
    """A toolbar of actions; None is a separator."""
    toolbar = window.addToolBar(title)
    toolbar.setObjectName(title.lower().replace(" ", "-") + "-toolbar")
    for action in actions:
        if action is None:
            toolbar.addSeparator()
        else:
            toolbar.addAction(action)
    return toolbar
