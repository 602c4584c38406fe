"""What a person would see: a widget painted offscreen into an image, and where its ink is."""

from PySide6.QtCore import QModelIndex, QPoint, QRect, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPalette
from PySide6.QtWidgets import QAbstractItemView, QApplication, QWidget

CLOSE = 120
"""How far (summed over red, green and blue) a pixel may be from a colour and still be it:
anti-aliased glyph edges blend into the background, their cores keep the pen's colour."""


def picture(widget: QWidget) -> QImage:
    """``widget`` and its children painted as they are now, one image pixel per widget pixel."""
    QApplication.processEvents()
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    assert (image.width(), image.height()) == (widget.width(), widget.height())
    return image


def place_of(child: QWidget, top: QWidget) -> QRect:
    """Where ``child`` is in ``top``'s picture."""
    assert child.isVisible(), f"{child!r} is not shown"
    return QRect(child.mapTo(top, QPoint(0, 0)), child.size())


def place_in_view(view: QAbstractItemView, index: QModelIndex, top: QWidget) -> QRect:
    """Where the cell at ``index`` of an item view is in ``top``'s picture."""
    cell = view.visualRect(index)
    assert cell.isValid() and not cell.isEmpty(), f"row {index.row()} is not in view"
    return QRect(view.viewport().mapTo(top, cell.topLeft()), cell.size())


def text_colour(widget: QWidget) -> QColor:
    """The colour ``widget`` draws its text in (after any style sheet)."""
    return widget.palette().color(widget.foregroundRole())


def pixels_near(image: QImage, rect: QRect, colour: QColor) -> int:
    """How many pixels inside ``rect`` are ``colour``, give or take anti-aliasing."""
    area = rect.intersected(image.rect())
    target = (colour.red(), colour.green(), colour.blue())
    count = 0
    for y in range(area.top(), area.bottom() + 1):
        for x in range(area.left(), area.right() + 1):
            pixel = QColor(image.pixel(x, y))
            distance = sum(abs(a - b) for a, b in zip(target, pixel.getRgb()[:3], strict=True))
            count += distance <= CLOSE
    return count


def assert_ink(image: QImage, rect: QRect, colour: QColor, what: str) -> None:
    """Text (or a mark) in ``colour`` is drawn inside ``rect``: some of it is that colour,
    and not all of it, so it is strokes on a background rather than a filled box."""
    inked = pixels_near(image, rect, colour)
    area = rect.intersected(image.rect())
    assert inked >= 12, f"{what}: nothing drawn in {colour.name()} at {rect}"
    assert inked < area.width() * area.height() * 0.6, f"{what}: a block of {colour.name()}"


def assert_shows_text(image: QImage, top: QWidget, child: QWidget, what: str) -> None:
    """``child`` (a label, a field) has its text drawn where it sits, in its text colour."""
    assert_ink(image, place_of(child, top), text_colour(child), what)


def assert_cell_text(
    image: QImage, view: QAbstractItemView, index: QModelIndex, top: QWidget
) -> None:
    """The cell's text is drawn in it, in the text colour of a selected or an unselected row."""
    if view.selectionModel().isSelected(index):  # the style draws selected text its own way
        colour = view.palette().color(QPalette.ColorRole.HighlightedText)
    else:
        colour = index.data(Qt.ItemDataRole.ForegroundRole) or view.palette().color(
            QPalette.ColorRole.Text
        )
    if isinstance(colour, QBrush):
        colour = colour.color()
    place = place_in_view(view, index, top)
    assert_ink(image, place, colour, f"row {index.row()}, column {index.column()}")


def assert_no_ink(image: QImage, rect: QRect, colour: QColor, what: str) -> None:
    """Nothing in ``colour`` is drawn inside ``rect``."""
    assert pixels_near(image, rect, colour) < 3, f"{what}: {colour.name()} drawn at {rect}"
