"""Studio's icons: one table from Studio's names to icons of one family, drawn in the colour of
the theme shown.

Every icon is a glyph of Material Design Icons 6.9.96 (Pictogrammers, Apache License 2.0), the
``mdi6`` font that QtAwesome (MIT) bundles, loaded from QtAwesome's package at run time and drawn
by ``studio.ui.icon_glyphs``: no icon depends on a font being installed, and none is a character
that a font may lack."""

from collections.abc import Mapping
from functools import lru_cache

from PySide6.QtGui import QAction, QColor, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from studio.ui.icon_glyphs import glyph_icon

ACTION_ICONS = {
    # File
    "new": "file-plus-outline",
    "open": "folder-open-outline",
    "recent": "history",
    "save": "content-save-outline",
    "export": "export",
    "kg_land_file": "file-download-outline",
    "kg_ingest_folder": "folder-download-outline",
    "kg_export": "file-export-outline",
    "close": "close",
    "quit": "exit-to-app",
    # Edit
    "undo": "undo",
    "redo": "redo",
    "cut": "content-cut",
    "copy": "content-copy",
    "paste": "content-paste",
    "duplicate": "content-duplicate",
    "delete": "delete-outline",
    "select_all": "select-all",
    "find": "magnify",
    "kg_find": "magnify",
    "kg_search": "text-search",
    # View
    "mode_workflows": "sitemap-outline",
    "mode_knowledge": "graph-outline",
    "mode_work": "clipboard-check-outline",
    "zoom_in": "magnify-plus-outline",
    "zoom_out": "magnify-minus-outline",
    "fit": "fit-to-screen-outline",
    "kg_fit": "fit-to-screen-outline",
    "snap": "grid",
    "theme_system": "theme-light-dark",
    "theme_light": "white-balance-sunny",
    "theme_dark": "weather-night",
    "reset_layout": "page-layout-sidebar-left",
    # Workflow
    "add_node": "plus-box-outline",
    "layout": "auto-fix",
    "add_note": "note-plus-outline",
    "group": "select-group",
    "validate": "check-all",
    "publish": "publish",
    "save_catalog": "book-arrow-down-outline",
    "load_catalog": "book-arrow-up-outline",
    "browse_catalog": "book-open-page-variant-outline",
    "review_update": "update",
    "agent_library": "robot-outline",
    "clear": "eraser",
    # Run
    "run": "play",
    "cancel_run": "stop",
    "rerun": "replay",
    "run_from_here": "step-forward",
    "show_run": "eye-outline",
    "hide_run": "eye-off-outline",
    "runs_panel": "history",
    "approvals_panel": "account-check-outline",
    # Graph
    "kg_items": "shape-outline",
    "kg_units": "cube-outline",
    "kg_sections": "format-section",
    "kg_focus": "image-filter-center-focus",
    "kg_unfocus": "arrow-expand-all",
    "kg_depth_1": "numeric-1-circle-outline",
    "kg_depth_2": "numeric-2-circle-outline",
    "kg_depth_3": "numeric-3-circle-outline",
    "kg_upstream": "ray-end-arrow",
    "kg_downstream": "ray-start-arrow",
    "kg_clear_lineage": "close-circle-outline",
    "kg_compare": "compare-horizontal",
    "kg_now": "clock-end",
    "kg_refresh": "refresh",
    "kg_relayout": "shuffle-variant",
    # Work
    "work_enqueue": "tray-plus",
    "work_release": "tray-arrow-up",
    "work_kill": "close-octagon-outline",
    "work_return": "keyboard-return",
    "work_refresh": "refresh",
    # Help
    "shortcuts": "keyboard-outline",
    "about": "information-outline",
}
"""Each menu and toolbar action's icon, by the action's name."""

STATUS_ICONS = {
    "pending": "circle-outline",
    "running": "progress-clock",
    "completed": "check-circle",
    "failed": "close-circle",
    "skipped": "debug-step-over",
    "upstream_failed": "minus-circle-outline",
    "waiting": "pause-circle",
    "retrying": "refresh",
    "cancelled": "cancel",
    "compensating": "undo-variant",
    "compensated": "backup-restore",
    "compensation_failed": "alert",
    "not_started": "circle-outline",
    "interrupted": "stop-circle",
    "approved": "check-circle",
    "rejected": "close-circle",
    "unknown": "help-circle-outline",
}
"""Each run, node, compensation and decision status's icon: a shape of its own, so status is
told by shape and words as well as by colour."""

KIND_ICONS = {
    "echo": "message-reply-text-outline",
    "http": "web",
    "shell": "console",
    "python": "language-python",
    "llm": "robot-outline",
    "transform": "function-variant",
    "approval": "account-check-outline",
    "artifact": "package-variant-closed",
    "agent": "puzzle-outline",
}
"""Each agent kind's icon in the node palette; "agent" for a kind without one of its own."""

MESSAGE_ICONS = {"error": "close-circle", "warning": "alert", "note": "information-outline"}
"""The icons of inline messages and notices."""

ICONS: Mapping[str, str] = {
    **ACTION_ICONS,
    **{f"status_{name}": mdi for name, mdi in STATUS_ICONS.items()},
    **{f"kind_{name}": mdi for name, mdi in KIND_ICONS.items()},
    **{f"message_{name}": mdi for name, mdi in MESSAGE_ICONS.items()},
}
"""Every Studio icon name and its Material Design icon."""


def icon(name: str, colour: QColor | str | None = None) -> QIcon:
    """Studio's icon ``name`` in ``colour``, or in the theme's text colour when none is given
    (greyed as the theme greys text when the icon's action is disabled)."""
    palette = QApplication.palette()
    if colour is None:
        colour = palette.color(QPalette.ColorRole.WindowText)
    disabled = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText)
    return _drawn(ICONS.get(name, STATUS_ICONS["unknown"]), QColor(colour).name(), disabled.name())


def status_icon_name(status: str) -> str:
    """The Studio icon name of a status; unknown statuses share a question mark."""
    return f"status_{status if status in STATUS_ICONS else 'unknown'}"


def kind_icon_name(kind: str) -> str:
    """The Studio icon name of an agent kind."""
    return f"kind_{kind if kind in KIND_ICONS else 'agent'}"


def give_action_icons(actions: Mapping[str, QAction]) -> None:
    """Give each action its icon from the table, in the theme's colours: called when actions
    are made and again when the theme changes."""
    for name, action in actions.items():
        if name in ACTION_ICONS:
            action.setIcon(icon(name))


@lru_cache(maxsize=512)
def _drawn(mdi_name: str, colour: str, disabled: str) -> QIcon:
    return glyph_icon(mdi_name, colour, disabled)
