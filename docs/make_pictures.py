"""Draw every picture the README shows, offscreen, from real workflows run on the engine in a
scratch folder (see ``picture_scenes.py``), and the Knowledge mode's pictures of the sample
corpus with ``studio screenshot --view knowledge``:

- studio-editor.png, studio-editor-dark.png: the editor at 1280×800 with a blueprint;
- run-live.png, run-rolled-back.png, run-replay.png: a run in progress, a failed run that
  rolled back, a replay with the duration heat map;
- run-upstream-failure.png: a failed node and the nodes after it, never run;
- run-data-table.png: a node's output as a table;
- agent-editor.png: making an HTTP agent, tried once;
- notes-and-group.png: a workflow with notes and a named group;
- blueprint-catalog.png, use-in-app.png: the catalog browser and its Use in app dialog;
- blueprint-update.png: reviewing a blueprint's next version beside the local edits;
- work-board.png: the Work mode with an item in every status, one being built;
- knowledge-default.png, knowledge-items.png, knowledge-around.png, knowledge-compared.png.

    .venv/bin/python docs/make_pictures.py [OUT_DIR]   (default docs/images)
"""

import asyncio
import logging
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync
from catalog_scenes import blueprint_update, catalog, use_in_app
from picture_scenes import (
    Stage,
    agent_editor,
    data_table,
    editor,
    editor_dark,
    notes_and_group,
    runs,
    upstream_failure,
    write_agents,
)
from work_scenes import work_board

from studio.ui.app import create_application
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]
BLUEPRINT = REPO / "blueprints" / "conditional-router.yaml"
CORPUS = REPO / "tests" / "knowledge" / "fixtures" / "checkout-redesign"
KNOWLEDGE = {
    "knowledge-default.png": [],
    "knowledge-items.png": ["--items", "--units"],
    "knowledge-around.png": ["--items", "--units", "--around", "REQ-1", "--depth", "2"],
    "knowledge-compared.png": ["--as-of", "2026-09-09", "--compare-to", "2026-09-05"],
}
"""Each Knowledge picture and the options it is drawn with."""


def window_pictures(out: Path) -> None:
    logging.getLogger("studio.engine").setLevel(logging.CRITICAL)  # the failures are meant
    app = create_application()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        os.environ["STUDIO_DATA_DIR"] = str(root / "data")
        write_agents(root / "agents")
        workspace = Workspace(agent_dirs=[root / "agents"])
        window = MainWindow(workspace)
        window.set_theme("light")
        window.show()
        stage = Stage(window, workspace, loop, root, out)
        for scene in (
            lambda: editor(stage, BLUEPRINT),
            lambda: editor_dark(stage),
            lambda: runs(stage),
            lambda: upstream_failure(stage),
            lambda: data_table(stage),
            lambda: agent_editor(stage),
            lambda: notes_and_group(stage),
            lambda: catalog(stage),
            lambda: use_in_app(stage),
            lambda: blueprint_update(stage),
            lambda: work_board(stage),
        ):
            scene()
        window.workflows.runs.shutdown()
        window.close()
        workspace.close()


def knowledge_pictures(out: Path) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        database = Path(scratch) / "knowledge.db"
        studio("kg", "ingest", str(CORPUS), "--db", str(database))
        for name, options in KNOWLEDGE.items():
            studio(
                "screenshot", str(out / name), "--view", "knowledge", "--db", str(database),
                "--size", "1600x1000", *options,
            )  # fmt: skip
            print(f"  {name}")


def studio(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "studio", *args], check=True, capture_output=True)


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    print(f"drawing the README's pictures into {out}")
    window_pictures(out)
    knowledge_pictures(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "images"))
