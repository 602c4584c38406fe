"""Exporting the Knowledge view: the picture as PNG or SVG, the projection as GraphML or JSON.

The picture is the scene's drawing of ``source`` (by default everything drawn, with a margin),
on the theme's background: PNG at twice the scene's size, SVG at its size. The data files
come from ``studio.knowledge.graph_export``.
"""

from pathlib import Path

from PySide6.QtCore import QByteArray, QRectF, QSize
from PySide6.QtGui import QColor, QGuiApplication, QImage, QImageWriter, QPainter, QPalette
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QFileDialog, QGraphicsScene, QMessageBox, QWidget

from studio.knowledge.graph_export import Positions, write_graphml, write_json
from studio.knowledge.projection import Projection

PNG_SCALE = 2.0
MARGIN = 24.0
"""Scene units of background around what is drawn."""

PNG_FILTER = "PNG image (*.png)"
SVG_FILTER = "SVG drawing (*.svg)"
GRAPHML_FILTER = "GraphML graph (*.graphml)"
JSON_FILTER = "JSON graph (*.json)"
FILTERS = (PNG_FILTER, SVG_FILTER, GRAPHML_FILTER, JSON_FILTER)
SUFFIXES = {
    PNG_FILTER: ".png",
    SVG_FILTER: ".svg",
    GRAPHML_FILTER: ".graphml",
    JSON_FILTER: ".json",
}


class ExportError(OSError):
    """A file could not be written."""


def drawn_rect(scene: QGraphicsScene, source: QRectF | None = None) -> QRectF:
    """What a picture shows: ``source``, or everything drawn with a margin around it."""
    if source is not None and not source.isEmpty():
        return QRectF(source)
    rect = scene.itemsBoundingRect()
    if rect.isEmpty():
        rect = QRectF(0, 0, 1, 1)
    return rect.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)


def background_colour() -> QColor:
    """The theme's background for a picture (the palette's base colour)."""
    return QGuiApplication.palette().color(QPalette.ColorRole.Base)


def render_image(
    scene: QGraphicsScene, source: QRectF | None = None, scale: float = PNG_SCALE
) -> QImage:
    """The scene's drawing of ``source`` as an image ``scale`` times its size."""
    rect = drawn_rect(scene, source)
    size = QSize(max(1, round(rect.width() * scale)), max(1, round(rect.height() * scale)))
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(background_colour())
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, QRectF(0, 0, size.width(), size.height()), rect)
    painter.end()
    return image


def export_png(scene: QGraphicsScene, path: Path, source: QRectF | None = None) -> QSize:
    """Write the drawing as a PNG at twice its size; returns the image's size."""
    image = render_image(scene, source)
    writer = QImageWriter(str(path), QByteArray(b"png"))
    if not writer.write(image):
        raise ExportError(f"could not write the picture to {path}: {writer.errorString()}")
    return image.size()


def export_svg(scene: QGraphicsScene, path: Path, source: QRectF | None = None) -> None:
    """Write the drawing as an SVG file, in scene units."""
    rect = drawn_rect(scene, source)
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(QSize(round(rect.width()), round(rect.height())))
    generator.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
    generator.setTitle("Studio knowledge graph")
    painter = QPainter()
    if not painter.begin(generator):
        raise ExportError(f"could not write the drawing to {path}")
    target = QRectF(0, 0, rect.width(), rect.height())
    painter.fillRect(target, background_colour())
    scene.render(painter, target, rect)
    painter.end()


def export_to(
    path: Path,
    chosen_filter: str,
    scene: QGraphicsScene,
    projection: Projection,
    positions: Positions | None = None,
) -> Path:
    """Write the file the filter names (the suffix added when missing); returns its path."""
    suffix = SUFFIXES.get(chosen_filter) or _filter_of_suffix(path)
    if path.suffix.lower() != suffix:
        path = path.with_name(path.name + suffix)
    try:
        if suffix == ".png":
            export_png(scene, path)
        elif suffix == ".svg":
            export_svg(scene, path)
        elif suffix == ".graphml":
            write_graphml(projection, path)
        else:
            write_json(projection, path, positions)
    except ExportError:
        raise
    except OSError as failure:
        raise ExportError(f"could not write {path}: {failure.strerror or failure}") from failure
    return path


def choose_and_export(
    parent: QWidget | None,
    scene: QGraphicsScene,
    projection: Projection,
    positions: Positions | None = None,
) -> Path | None:
    """Ask where to export and in which format, and write it; None when the person cancels
    (a failure is shown in a message box)."""
    chosen, chosen_filter = QFileDialog.getSaveFileName(
        parent, "Export the knowledge view", "knowledge-graph.png", ";;".join(FILTERS)
    )
    if not chosen:
        return None
    try:
        return export_to(Path(chosen), chosen_filter, scene, projection, positions)
    except ExportError as failure:
        QMessageBox.warning(parent, "Export failed", str(failure))
        return None


def _filter_of_suffix(path: Path) -> str:
    """The suffix a file name asks for, PNG when it names none of the four."""
    suffix = path.suffix.lower()
    return suffix if suffix in SUFFIXES.values() else ".png"
