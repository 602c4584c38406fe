"""The workspace: importing and publishing a workflow file."""

import threading
from pathlib import Path

from studio.workspace import Workspace
from tests.cli_runner import REPO_ROOT

ECHO_DEMO = REPO_ROOT / "blueprints" / "echo-demo-workflow.yaml"


def test_one_file_imported_at_once_by_many_workspaces_is_stored_once(tmp_path: Path) -> None:
    database = str(tmp_path / "studio.db")
    workspaces = [Workspace(data_dir=tmp_path, database=database) for _ in range(8)]
    for workspace in workspaces:
        assert workspace.workflows.find() == []  # opened and migrated before the race
    start = threading.Barrier(len(workspaces))
    published: list[str] = []

    def import_it(workspace: Workspace) -> None:
        start.wait()
        published.append(workspace.import_and_publish(ECHO_DEMO).id)

    threads = [threading.Thread(target=import_it, args=(w,)) for w in workspaces]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(published) == len(workspaces)
    assert len(set(published)) == 1
    assert len(workspaces[0].workflows.find()) == 1
    for workspace in workspaces:
        workspace.close()


def test_agents_made_in_the_app_are_written_to_the_workspaces_own_folder(tmp_path: Path) -> None:
    workspace = Workspace(data_dir=tmp_path, agent_dirs=[tmp_path / "extra"])
    assert workspace.agents.home == tmp_path / "agents"
    assert workspace.agent_dirs[1] == workspace.own_agents_dir == tmp_path / "agents"
