"""Icons drawn from the glyphs of one icon font: Material Design Icons 6.9.96, read from the
folder of the QtAwesome package, which bundles it.

Studio draws the glyphs itself, as QtAwesome would (the glyph seven eighths of the icon's
height, centred), instead of importing QtAwesome: QtAwesome loads its twelve fonts and imports
QtPy, which imports every class of every Qt module it wraps; together about 0.1 s before the
window's first frame, for one font."""

import importlib.util
import json
from functools import cache
from pathlib import Path

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QIcon, QIconEngine, QPainter, QPixmap

FONT_PACKAGE = "qtawesome"
FONT_FILE = "materialdesignicons6-webfont-6.9.96.ttf"
CHARMAP_FILE = "materialdesignicons6-webfont-charmap-6.9.96.json"
GLYPH_SHARE = 0.875
"""The glyph's size as a share of the icon's height, leaving room for the font's bearing."""


class IconFontError(RuntimeError):
    """The icon font or its character map cannot be found or read."""


class GlyphIconEngine(QIconEngine):
    """Draws one glyph of the icon font in a colour, greyed in another when disabled."""

    def __init__(self, glyph: str, colour: QColor, disabled: QColor) -> None:
        super().__init__()
        self.glyph, self.colour, self.disabled = glyph, colour, disabled

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        painter.save()
        painter.setPen(self.disabled if mode == QIcon.Mode.Disabled else self.colour)
        painter.setFont(glyph_font(round(GLYPH_SHARE * rect.height())))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.glyph)
        painter.restore()

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        drawn = QPixmap(size)
        drawn.fill(Qt.GlobalColor.transparent)
        painter = QPainter(drawn)
        self.paint(painter, QRect(QPoint(0, 0), size), mode, state)
        painter.end()
        return drawn

    def clone(self) -> "GlyphIconEngine":
        return GlyphIconEngine(self.glyph, self.colour, self.disabled)


def glyph_icon(name: str, colour: str, disabled: str) -> QIcon:
    """The icon font's glyph ``name`` (such as ``content-save-outline``) as an icon in
    ``colour``, greyed in ``disabled``; KeyError for a name the font does not have."""
    glyph = glyph_codes()[name]
    return QIcon(GlyphIconEngine(glyph, QColor(colour), QColor(disabled)))


def glyph_font(pixels: int) -> QFont:
    """The icon font at a size in pixels."""
    font = QFont()
    font.setFamily(font_family())
    font.setPixelSize(pixels)
    return font


@cache
def font_family() -> str:
    """The icon font's family, once the font is loaded into the application."""
    path = font_folder() / FONT_FILE
    try:
        loaded = QFontDatabase.addApplicationFontFromData(path.read_bytes())
    except OSError as failure:
        raise IconFontError(f"cannot read the icon font {path}: {failure}") from failure
    families = QFontDatabase.applicationFontFamilies(loaded)
    if not families:
        raise IconFontError(f"the icon font {path} holds no font Qt can load")
    return families[0]


@cache
def glyph_codes() -> dict[str, str]:
    """Each glyph's name and its character in the icon font."""
    path = font_folder() / CHARMAP_FILE
    try:
        codes = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as failure:
        raise IconFontError(f"cannot read the icon font's map {path}: {failure}") from failure
    return {name: chr(int(code, 16)) for name, code in codes.items()}


def font_folder() -> Path:
    """The ``fonts`` folder of the installed QtAwesome package (found, not imported)."""
    spec = importlib.util.find_spec(FONT_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise IconFontError(f"the {FONT_PACKAGE} package, which holds the icon font, is missing")
    return Path(next(iter(spec.submodule_search_locations))) / "fonts"
