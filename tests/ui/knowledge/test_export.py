"""Exporting the Knowledge view as a person does: pick a file and a format, and the file is
there: a PNG at twice the drawing's size on the theme's background, an SVG with the drawn
shapes and words, GraphML and JSON of the projection."""

import json
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QColor, QImage
from PySide6.QtWidgets import QFileDialog, QGraphicsScene, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from studio.knowledge.projection import Projection, ViewOptions
from studio.ui.knowledge import export
from studio.workspace import Workspace

FIXTURE = Path(__file__).resolve().parents[2] / "knowledge" / "fixtures" / "checkout-redesign"
SVG = "{http://www.w3.org/2000/svg}"
NODE_COLOUR = QColor("#c0392b")


@pytest.fixture
def scene(qtbot: QtBot) -> QGraphicsScene:
    """Two boxes and a label, as a graph canvas draws them (300 x 120 scene units)."""
    scene = QGraphicsScene()
    scene.addRect(QRectF(0, 0, 120, 60), brush=QBrush(NODE_COLOUR))
    scene.addRect(QRectF(180, 60, 120, 60), brush=QBrush(NODE_COLOUR))
    scene.addText("Guest checkout").setPos(10, 70)
    return scene


@pytest.fixture
def projection(tmp_path: Path) -> Iterator[Projection]:
    workspace = Workspace(database=str(tmp_path / "k.db"))
    workspace.knowledge.ingest(FIXTURE)
    yield workspace.knowledge.graph(ViewOptions(items=True, subject="checkout-redesign"))
    workspace.close()


def test_png_is_twice_the_drawing_on_the_theme_background(
    scene: QGraphicsScene, tmp_path: Path
) -> None:
    path = tmp_path / "view.png"

    export.export_png(scene, path)
    image = QImage(str(path))

    assert not image.isNull()
    drawn = scene.itemsBoundingRect().adjusted(
        -export.MARGIN, -export.MARGIN, export.MARGIN, export.MARGIN
    )
    assert (image.width(), image.height()) == (round(drawn.width() * 2), round(drawn.height() * 2))
    corner = image.pixelColor(2, 2)
    assert corner.rgb() == export.background_colour().rgb()
    box_centre = (round((export.MARGIN + 60) * 2), round((export.MARGIN + 30) * 2))
    inside_first_box = image.pixelColor(*box_centre)
    assert inside_first_box.rgb() == NODE_COLOUR.rgb()


def test_png_of_the_visible_part_only(scene: QGraphicsScene, tmp_path: Path) -> None:
    path = tmp_path / "visible.png"

    size = export.export_png(scene, path, QRectF(0, 0, 100, 50))

    assert (size.width(), size.height()) == (200, 100)
    assert QImage(str(path)).pixelColor(100, 50).rgb() == NODE_COLOUR.rgb()


def test_svg_holds_the_shapes_and_the_words(scene: QGraphicsScene, tmp_path: Path) -> None:
    path = tmp_path / "view.svg"

    export.export_svg(scene, path)
    root = ElementTree.parse(path).getroot()

    assert root.tag == f"{SVG}svg"
    shapes = [e for e in root.iter() if e.tag in (f"{SVG}rect", f"{SVG}path", f"{SVG}polygon")]
    assert len(shapes) >= 2
    words = " ".join("".join(e.itertext()) for e in root.iter(f"{SVG}text"))
    assert "Guest checkout" in words


def test_the_file_dialog_chooses_graphml_and_the_suffix_is_added(
    qtbot: QtBot,
    scene: QGraphicsScene,
    projection: Projection,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    chosen = tmp_path / "lineage"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *_args: (str(chosen), export.GRAPHML_FILTER)
    )

    written = export.choose_and_export(parent, scene, projection)

    assert written == tmp_path / "lineage.graphml"
    read = nx.read_graphml(written, force_multigraph=True)
    assert set(read.nodes) == set(projection.graph.nodes)
    assert read.number_of_edges() == projection.graph.number_of_edges()


def test_json_by_its_filter_carries_the_positions(
    scene: QGraphicsScene, projection: Projection, tmp_path: Path
) -> None:
    node = next(iter(projection.graph.nodes))

    written = export.export_to(
        tmp_path / "view.json", export.JSON_FILTER, scene, projection, {node: (4.0, 5.0)}
    )

    data = json.loads(written.read_text(encoding="utf-8"))
    assert data["positions"] == {node: {"x": 4.0, "y": 5.0}}
    assert len(data["nodes"]) == projection.graph.number_of_nodes()


def test_a_file_that_cannot_be_written_is_said_in_a_message(
    qtbot: QtBot,
    scene: QGraphicsScene,
    projection: Projection,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    missing = tmp_path / "no-such-folder" / "view.png"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *_args: (str(missing), export.PNG_FILTER)
    )
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text: warnings.append(text))

    assert export.choose_and_export(parent, scene, projection) is None

    assert len(warnings) == 1 and str(missing) in warnings[0]
    assert not missing.exists()


def test_cancelling_the_file_dialog_writes_nothing(
    scene: QGraphicsScene, projection: Projection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_args: ("", ""))

    assert export.choose_and_export(None, scene, projection) is None
    assert list(tmp_path.glob("*.png")) == []
