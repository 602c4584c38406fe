"""Studio's window in a process of its own, running one workflow until it is killed.

    python -m tests.ui.run.app_process AGENTS_DIR WORKFLOW_ID

Used to kill the app in the middle of a run; STUDIO_DATA_DIR names the data folder."""

import asyncio
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync

from studio.ui.app import create_application
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace


def main(agents: str, workflow_id: str) -> None:
    app = create_application()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    window = MainWindow(Workspace(agent_dirs=[Path(agents)]))
    window.show()
    window.workflows.tabs.open(workflow_id)
    window.workflows.runs.start(workflow_id, {"order": 1})
    with loop:
        loop.run_forever()


if __name__ == "__main__":
    main(*sys.argv[1:])
