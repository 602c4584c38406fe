"""``studio screenshot --view knowledge``: the Knowledge mode pictured from the database the
command is pointed at, with the layers, the focus and the moments asked for; a node or a time
it cannot find is refused with a clear message and no picture."""

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from tests.cli_runner import REPO_ROOT
from tests.ui.knowledge.knowledge_window import FIXTURE


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample corpus, ingested by ``studio kg ingest``."""
    path = tmp_path_factory.mktemp("kg") / "knowledge.db"
    studio("kg", "ingest", str(FIXTURE), "--db", str(path))
    return path


def studio(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, "-m", "studio", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO_ROOT,
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


def colours_in(picture: QImage, step: int = 8) -> int:
    """How many distinct colours a grid of points across the picture holds."""
    return len(
        {
            picture.pixelColor(x, y).name()
            for x in range(0, picture.width(), step)
            for y in range(0, picture.height(), step)
        }
    )


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--items", "--units"],
        ["--items", "--units", "--around", "REQ-1", "--depth", "2"],
        ["--as-of", "2026-09-05", "--compare-to", "2026-09-01"],
    ],
    ids=["default", "items-and-units", "around-a-requirement", "compared"],
)
def test_the_knowledge_view_is_pictured_as_asked(
    database: Path, tmp_path: Path, options: list[str]
) -> None:
    out = tmp_path / "knowledge.png"

    result = studio("screenshot", str(out), "--view", "knowledge", "--db", str(database), *options)

    assert "view knowledge" in result.stdout
    picture = QImage(str(out))
    assert (picture.width(), picture.height()) == (1280, 800)
    assert colours_in(picture) > 20  # a drawn graph, not an empty page


def test_a_node_that_is_not_there_is_refused_by_name(database: Path, tmp_path: Path) -> None:
    out = tmp_path / "knowledge.png"

    result = studio(
        "screenshot", str(out), "--view", "knowledge", "--db", str(database),
        "--around", "REQ-404", check=False,
    )  # fmt: skip

    assert result.returncode == 2
    assert "--around: no node 'REQ-404' in the knowledge graph now" in result.stderr
    assert not out.exists()


def test_a_time_that_is_not_one_is_refused(database: Path, tmp_path: Path) -> None:
    out = tmp_path / "knowledge.png"

    result = studio(
        "screenshot", str(out), "--view", "knowledge", "--db", str(database),
        "--as-of", "last tuesday", check=False,
    )  # fmt: skip

    assert result.returncode == 2
    assert "'last tuesday' is not a date or time" in result.stderr
    assert not out.exists()
