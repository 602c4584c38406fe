"""``studio screenshot --view work``: the Work mode pictured once it has read the queue of the
database the command is pointed at."""

import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from studio.workspace import Workspace
from tests.cli_runner import REPO_ROOT
from tests.ui.work.queue_items import ready_queue, seed_every_status


def test_the_work_board_is_pictured_with_the_queue_it_read(
    tmp_path: Path, studio_data_dir: Path
) -> None:
    database = tmp_path / "work.db"
    workspace = Workspace(studio_data_dir, (), str(database))
    seed_every_status(ready_queue(workspace))
    workspace.close()
    out = tmp_path / "work.png"
    command = ["screenshot", str(out), "--view", "work", "--db", str(database)]
    result = subprocess.run(
        [sys.executable, "-m", "studio", *command, "--size", "1280x800"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO_ROOT,
    )
    assert result.returncode == 0, result.stderr
    assert "view work" in result.stdout
    picture = QImage(str(out))
    assert (picture.width(), picture.height()) == (1280, 800)
    killed_red = {
        picture.pixelColor(x, y).name()
        for x in range(0, picture.width(), 2)
        for y in range(0, 400, 2)
    }
    assert "#c5221f" in killed_red  # the killed card's edge, in the closed column
