"""Light and dark themes; by default Studio follows the system's choice."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

THEMES = ("system", "light", "dark")
_SCHEMES = {
    "system": Qt.ColorScheme.Unknown,
    "light": Qt.ColorScheme.Light,
    "dark": Qt.ColorScheme.Dark,
}
_DARK = {
    QPalette.ColorRole.Window: "#2b2d30",
    QPalette.ColorRole.WindowText: "#dfe1e5",
    QPalette.ColorRole.Base: "#1e1f22",
    QPalette.ColorRole.AlternateBase: "#26282b",
    QPalette.ColorRole.Text: "#dfe1e5",
    QPalette.ColorRole.Button: "#3c3f41",
    QPalette.ColorRole.ButtonText: "#dfe1e5",
    QPalette.ColorRole.Highlight: "#3574f0",
    QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.ToolTipBase: "#3c3f41",
    QPalette.ColorRole.ToolTipText: "#dfe1e5",
    QPalette.ColorRole.PlaceholderText: "#8c8f94",
    QPalette.ColorRole.Mid: "#55585c",
    QPalette.ColorRole.Link: "#589df6",
}


def apply_theme(name: str) -> str:
    """Switch the application's colours; an unknown name means "system"."""
    theme = name if name in THEMES else "system"
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return theme
    app.styleHints().setColorScheme(_SCHEMES[theme])
    if theme == "system":
        app.setPalette(app.style().standardPalette())
        return theme
    # An explicit palette with Fusion looks the same on every platform, screen or none.
    app.setStyle("Fusion")
    app.setPalette(dark_palette() if theme == "dark" else app.style().standardPalette())
    return theme


def dark_palette() -> QPalette:
    """The dark theme's palette."""
    palette = QPalette()
    for role, colour in _DARK.items():
        palette.setColor(role, QColor(colour))
    disabled = QColor("#6f737a")
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
        QPalette.ColorRole.WindowText,
    ):
        palette.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return palette
