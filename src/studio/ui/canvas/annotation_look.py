"""Colours of notes and group frames for each named colour, in the light and dark themes,
and the signals their items send when a person changes them."""

from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from studio.model.annotations import AnnotationColour

# fill, border for the light theme; fill, border for the dark theme.
_SHADES: dict[AnnotationColour, tuple[str, str, str, str]] = {
    "yellow": ("#fff4b8", "#d9b93a", "#575024", "#b8a040"),
    "blue": ("#dce9ff", "#6c97d8", "#243a5c", "#5d86c4"),
    "green": ("#dcf3dc", "#69ad69", "#25452c", "#5ca15c"),
    "pink": ("#fbdcea", "#d77fa6", "#53293d", "#c06d93"),
    "grey": ("#ebebeb", "#9a9a9a", "#3d3d3d", "#8a8a8a"),
}
COLOUR_NAMES: dict[AnnotationColour, str] = {
    "yellow": "Yellow",
    "blue": "Blue",
    "green": "Green",
    "pink": "Pink",
    "grey": "Grey",
}


@dataclass(frozen=True)
class AnnotationLook:
    """How one named colour is painted in the current theme."""

    fill: QColor
    border: QColor
    text: QColor
    dark: bool


def annotation_look(colour: AnnotationColour) -> AnnotationLook:
    """The fill, border and text colours of ``colour`` for the application's palette."""
    base = QApplication.palette().color(QPalette.ColorRole.Base)
    dark = base.lightness() < 128
    light_fill, light_border, dark_fill, dark_border = _SHADES[colour]
    if dark:
        return AnnotationLook(QColor(dark_fill), QColor(dark_border), QColor("#f0f0f0"), True)
    return AnnotationLook(QColor(light_fill), QColor(light_border), QColor("#202020"), False)


class AnnotationIntents(QObject):
    """What a person did to a note or a group on the canvas, by id; the editor turns each
    into an undo command (items never change the document)."""

    noteTextEdited = Signal(str, str)  # note id, new Markdown text
    noteResized = Signal(str, float, float)  # note id, new width, new height
    groupDragged = Signal(dict, dict)  # node positions before, after {id: Position}
    groupRenamed = Signal(str, str)  # group id, new name
    groupToggled = Signal(str)  # group id: collapse or expand
