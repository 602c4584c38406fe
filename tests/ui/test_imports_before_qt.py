"""The desktop commands load what the window needs without Qt before they load Qt: PySide6's
import hook reads the source of every module imported after it, about a third more for each
(``studio.ui.before_qt``)."""

import os
import re
import subprocess
import sys
from pathlib import Path

QT_AND_THE_WINDOW = (
    "PySide6",
    "shiboken6",
    "shibokensupport",
    "signature_bootstrap",
    "__feature__",
    "qasync",
    "studio.ui",
    "encodings",  # Qt reads its own bundled files with them
)
"""What is imported after Qt by design: Qt itself and the window's own modules."""
IMPORT_LINE = re.compile(r"import time:\s+\d+ \|\s+\d+ \|\s*(\S+)")


def modules_in_the_order_loaded(*command: str, scratch: Path) -> list[str]:
    """The modules a ``studio`` command imports, in the order each finished loading."""
    environment = {
        **os.environ,
        "STUDIO_DATA_DIR": str(scratch / "data"),
        "QT_QPA_PLATFORM": "offscreen",
    }
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "studio", *command],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [found[1] for found in map(IMPORT_LINE.match, done.stderr.splitlines()) if found]


def loaded_after_qt(modules: list[str]) -> list[str]:
    """The modules loaded after the first of Qt's that are neither Qt's nor the window's."""
    first = next(i for i, name in enumerate(modules) if name.startswith("PySide6"))
    return [name for name in modules[first:] if not name.startswith(QT_AND_THE_WINDOW)]


def test_a_picture_of_the_window_loads_nothing_but_qt_and_the_window_after_qt(
    tmp_path: Path,
) -> None:
    picture = tmp_path / "window.png"
    modules = modules_in_the_order_loaded("screenshot", str(picture), scratch=tmp_path)
    assert picture.is_file()
    assert "networkx" in modules  # the Knowledge mode's graph is among what the window needs
    assert loaded_after_qt(modules) == []
