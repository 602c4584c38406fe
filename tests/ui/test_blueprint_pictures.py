"""Each seed blueprint opens into a readable picture: no overlapping nodes, legible labels."""

from itertools import combinations
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from studio.ui.canvas.items import DETAIL_THRESHOLD
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace
from tests.cli_runner import REPO_ROOT, run_studio
from tests.ui.answers import answer

BLUEPRINTS = sorted(path.stem for path in (REPO_ROOT / "blueprints").glob("*.yaml"))


@pytest.mark.parametrize("slug", BLUEPRINTS)
def test_a_blueprint_on_the_canvas_has_no_overlapping_nodes_and_readable_labels(
    qtbot, slug: str
) -> None:
    window = MainWindow(Workspace())
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    tab = answer(qtbot, window.workflows.catalog.use_blueprint(slug))
    tab.editor.view.fit_all()
    rects = [item.sceneBoundingRect() for item in tab.editor.scene.node_items.values()]
    for first, second in combinations(rects, 2):
        assert not first.intersects(second)
    assert tab.editor.view.zoom_level() >= max(0.5, DETAIL_THRESHOLD)  # labels drawn, legible


def test_studio_screenshot_writes_a_picture_of_a_blueprint(tmp_path: Path) -> None:
    out = tmp_path / "router.png"
    result = run_studio(
        "screenshot",
        str(out),
        "--open",
        "blueprints/conditional-router.yaml",
        "--view",
        "canvas",
        "--size",
        "900x600",
    )
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert not image.isNull() and image.width() > 0
