"""One table of actions: every controller supplies its actions by name, and the menus and
the toolbar are built from this table, so where a command appears is written once. Each
action's icon is found by its name in Studio's icon table (studio.ui.icons)."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QToolBar

from studio.ui.icons import ACTION_ICONS, icon

Key = QKeySequence.StandardKey
SEPARATOR = None

MENUS: list[tuple[str, list[str | None]]] = [
    (
        "&File",
        ["new", "open", "recent", "save", "export", None, "kg_land_file", "kg_ingest_folder",
         "kg_export", None, "close", "quit"],
    ),
    (
        "&Edit",
        ["undo", "redo", None, "cut", "copy", "paste", "duplicate", "delete", None,
         "select_all", "find", "kg_find", "kg_search"],
    ),
    (
        "&View",
        ["mode_workflows", "mode_knowledge", "mode_work", None, "zoom_in", "zoom_out", "fit",
         "kg_fit", None, "snap", None, "theme_system", "theme_light", "theme_dark", None,
         "reset_layout"],
    ),
    (
        "&Workflow",
        ["add_node", "add_note", "group", "layout", None, "validate", "publish", None,
         "browse_catalog", "save_catalog", "load_catalog", "review_update", "agent_library",
         "clear"],
    ),
    (
        "&Run",
        ["run", "cancel_run", "rerun", "run_from_here", None, "show_run", "hide_run", None,
         "runs_panel", "approvals_panel"],
    ),
    (
        "&Graph",
        ["kg_items", "kg_units", "kg_sections", None, "kg_focus", "kg_unfocus", "kg_depth_1",
         "kg_depth_2", "kg_depth_3", None, "kg_upstream", "kg_downstream", "kg_clear_lineage",
         None, "kg_compare", "kg_now", None, "kg_refresh", "kg_relayout"],
    ),
    ("&Work", ["work_enqueue", None, "work_release", "work_kill", "work_return", None,
               "work_refresh"]),
    ("&Help", ["shortcuts", None, "about"]),
]  # fmt: skip
"""Each menu's actions by name; None is a separator. A name no controller supplies (yet) is
left out, and so is a separator with nothing on one side."""

TOOLBAR: list[str | None] = [
    "new", "save_catalog", "load_catalog", "open", "export", None, "undo", "redo", None,
    "layout", "fit", None, "validate", "publish", "clear", None, "run", "cancel_run", "rerun",
]  # fmt: skip
"""The Workflows mode's toolbar."""


@dataclass(frozen=True)
class ActionSpec:
    """One command: its text, shortcut, and what it calls."""

    name: str
    text: str
    shortcut: QKeySequence | Key | str | None
    slot: Callable[..., object]
    tip: str = ""
    checkable: bool = False


def build_actions(owner: QObject, specs: Iterable[ActionSpec]) -> dict[str, QAction]:
    """QActions for the specs, owned by ``owner``, by name."""
    return {spec.name: build_action(owner, spec) for spec in specs}


def build_action(owner: QObject, spec: ActionSpec) -> QAction:
    """A QAction for the spec, owned by ``owner``."""
    action = QAction(spec.text, owner)
    action.setObjectName(spec.name)
    if spec.name in ACTION_ICONS:
        action.setIcon(icon(spec.name))
    if spec.shortcut is not None:
        action.setShortcut(QKeySequence(spec.shortcut))
    action.setToolTip(tooltip_of(spec.tip or plain_text(spec.text), action.shortcut()))
    action.setCheckable(spec.checkable)
    if spec.checkable:
        action.toggled.connect(spec.slot)
    else:
        action.triggered.connect(spec.slot)
    return action


def plain_text(text: str) -> str:
    """An action's words without the mnemonic's "&" and the dialog's "…"."""
    return text.replace("&", "").replace("…", "")


def tooltip_of(tip: str, shortcut: QKeySequence) -> str:
    """A tooltip that names the shortcut, as a person types it: "Run (F5)"."""
    keys = shortcut.toString(QKeySequence.SequenceFormat.NativeText)
    return f"{tip} ({keys})" if keys else tip


def build_menus(
    window: QMainWindow, actions: dict[str, QAction], submenus: dict[str, QMenu]
) -> dict[str, QMenu]:
    """The menu bar from MENUS: each entry an action, or a submenu (such as Open Recent)."""
    menus = {}
    for title, names in MENUS:
        menu = window.menuBar().addMenu(title)
        for entry in _present(names, {*actions, *submenus}):
            if entry is None:
                menu.addSeparator()
            elif entry in submenus:
                menu.addMenu(submenus[entry])
            else:
                menu.addAction(actions[entry])
        menus[title.replace("&", "")] = menu
    return menus


def build_toolbar(
    window: QMainWindow,
    title: str,
    actions: dict[str, QAction],
    names: list[str | None] = TOOLBAR,
) -> QToolBar:
    """A toolbar of the named actions (the Workflows mode's TOOLBAR unless told)."""
    toolbar = window.addToolBar(title)
    toolbar.setObjectName(title.lower().replace(" ", "-") + "-toolbar")
    for entry in _present(names, set(actions)):
        if entry is None:
            toolbar.addSeparator()
        else:
            toolbar.addAction(actions[entry])
    return toolbar


def _present(names: list[str | None], known: set[str]) -> list[str | None]:
    """The names that are known, with separators only between groups that are not empty."""
    entries: list[str | None] = []
    for name in names:
        if name is None:
            if entries and entries[-1] is not None:
                entries.append(None)
        elif name in known:
            entries.append(name)
    if entries and entries[-1] is None:
        entries.pop()
    return entries
