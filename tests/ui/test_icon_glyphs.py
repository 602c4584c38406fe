"""Studio draws its icons' glyphs itself, from the Material Design font QtAwesome bundles: the
same pixels QtAwesome draws, without loading QtAwesome (and QtPy, which imports every class of
every Qt module it wraps) before the first frame."""

import os
import subprocess
import sys

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon, QPalette
from PySide6.QtWidgets import QApplication

from studio.ui.icons import ICONS, icon
from tests.cli_runner import REPO_ROOT

MODES = (QIcon.Mode.Normal, QIcon.Mode.Active, QIcon.Mode.Selected)
"""The modes drawn in the colour asked for (Disabled is greyed in the theme's colour)."""


@pytest.mark.parametrize("size", [16, 20, 24, 32])
def test_each_icon_is_drawn_as_qtawesome_draws_it(qapp, size: int) -> None:
    import qtawesome

    for name, mdi in ICONS.items():
        ours = icon(name, "#1a66d2")
        theirs = qtawesome.icon(f"mdi6.{mdi}", color="#1a66d2", color_disabled="#a0a0a0")
        for mode in MODES:
            for state in (QIcon.State.Off, QIcon.State.On):
                expected = theirs.pixmap(QSize(size, size), mode, state).toImage()
                drawn = ours.pixmap(QSize(size, size), mode, state).toImage()
                assert drawn == expected, (name, size, mode, state)


def test_a_disabled_icon_is_greyed_in_the_themes_disabled_text_colour(qapp) -> None:
    import qtawesome

    grey = QApplication.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText)
    theirs = qtawesome.icon("mdi6.play", color="#1a66d2", color_disabled=grey.name())
    size = QSize(24, 24)
    drawn = icon("run", "#1a66d2").pixmap(size, QIcon.Mode.Disabled).toImage()
    assert drawn == theirs.pixmap(size, QIcon.Mode.Disabled).toImage()


def test_drawing_icons_loads_neither_qtawesome_nor_qtpy() -> None:
    script = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from studio.ui.icons import icon\n"
        "assert not icon('run').pixmap(24, 24).isNull()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('qtawesome', 'qtpy')))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
