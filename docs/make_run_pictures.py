"""Draw the README's run pictures: a run in progress, a failed run that rolled back, and a
replay with the duration heat map. Runs real workflows on shell agents in a scratch folder,
offscreen.

    .venv/bin/python docs/make_run_pictures.py [OUT_DIR]   (default docs/images)
"""

import asyncio
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync
import yaml

from studio.model import Workflow
from studio.model.layout import layout_positions
from studio.ui.app import create_application
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace

AGENTS = {
    "fetch-orders": 'sleep 0.3; printf \'[{"id": 1}, {"id": 2}, {"id": 3}]\'',
    "score-order": "sleep 0.4; cat",
    "slow-score": "sleep 1.5; cat",
    "ticketing": 'printf \'{"ticketId": "TCK-4471"}\'',
    "rooms": 'printf \'{"roomId": "R-12"}\'',
    "reconcile": "cat",
    "close_ticket": "printf '{\"closed\": true}'",
    "release_room": "printf '{\"released\": true}'",
}


def write_agents(folder: Path) -> None:
    folder.mkdir(parents=True)
    for agent_id, script in AGENTS.items():
        data = {"id": agent_id, "name": agent_id.replace("-", " ").capitalize(), "kind": "shell"}
        data["settings"] = {"argv": ["sh", "-c", script]}
        (folder / f"{agent_id}.yaml").write_text(yaml.safe_dump(data))


def fan_out() -> dict:
    nodes = [{"id": "fetch", "name": "Fetch orders", "agentId": "fetch-orders"}]
    edges = []
    for index, agent in enumerate(("score-order", "score-order", "slow-score", "slow-score")):
        nodes.append({"id": f"score-{index}", "name": f"Score batch {index + 1}", "agentId": agent})
        edges.append({"source": "fetch", "target": f"score-{index}"})
        edges.append({"source": f"score-{index}", "target": "merge"})
    nodes.append({"id": "merge", "name": "Merge scores", "agentId": "demo-echo-agent"})
    return {"name": "Score the day's orders", "nodes": nodes, "edges": edges}


def rollback() -> dict:
    compensation = {"enabled": True, "trigger": {"mode": "on_terminal_failure"}}
    return {
        "name": "Book the offsite",
        "configuration": {
            "compensation": compensation,
            "governance": {"denyAgents": ["reconcile"]},
        },
        "nodes": [
            {
                "id": "create-ticket",
                "name": "Create ticket",
                "agentId": "ticketing",
                "compensation": {
                    "tool": "close_ticket",
                    "args": {"ticketId": "${output.ticketId}"},
                    "sideEffecting": True,
                },
            },
            {
                "id": "reserve-room",
                "name": "Reserve room",
                "agentId": "rooms",
                "compensation": {
                    "tool": "release_room",
                    "args": {"roomId": "${output.roomId}"},
                    "sideEffecting": True,
                },
            },
            {"id": "close-out", "name": "Close out", "agentId": "reconcile"},
        ],
        "edges": [
            {"source": "create-ticket", "target": "reserve-room"},
            {"source": "reserve-room", "target": "close-out"},
        ],
    }


def publish(workspace: Workspace, folder: Path, data: dict):
    """Lay the workflow out, write it to a file, import and publish it."""
    positions = layout_positions(Workflow.model_validate(data))
    for node in data["nodes"]:
        node["position"] = {"x": positions[node["id"]].x, "y": positions[node["id"]].y}
    path = folder / f"{data['name']}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return workspace.import_and_publish(path)


def until(loop, condition, timeout: float = 30.0) -> None:
    async def wait() -> None:
        for _ in range(int(timeout / 0.02)):
            if condition():
                return
            await asyncio.sleep(0.02)
        raise TimeoutError(str(condition))

    loop.run_until_complete(wait())


def settle(loop, seconds: float = 0.3) -> None:
    loop.run_until_complete(asyncio.sleep(seconds))


def main(out: Path) -> int:
    app = create_application()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        os.environ["STUDIO_DATA_DIR"] = str(root / "data")
        write_agents(root / "agents")
        workspace = Workspace(agent_dirs=[root / "agents"])
        window = MainWindow(workspace)
        window.resize(1400, 880)
        window.show()

        scoring = publish(workspace, root, fan_out())
        booking = publish(workspace, root, rollback())
        window.workflows.lists.refresh()  # published outside the window, as `studio run FILE` does
        window.workflows.tabs.open(scoring.id)
        record = window.workflows.runs.start(scoring.id, {"day": "2026-11-30"})
        tab = window.workflows.tabs.current()
        until(
            loop,
            lambda: (
                tab.overlay
                and "Completed"
                in " ".join(b.lines[0][0] for b in tab.overlay.badges.values() if b.lines)
                and sum(b.view.status == "completed" for b in tab.overlay.badges.values()) >= 3
            ),
        )
        window.workflows.run_docks.show_history()
        window.workflows.run_docks.history.select_execution(record.execution_id)
        tab.editor.view.fit_all()
        settle(loop)
        window.grab().save(str(out / "run-live.png"))
        until(loop, lambda: not window.workflows.runs.is_driving(record.execution_id))

        window.workflows.tabs.open(booking.id)
        record = window.workflows.runs.start(booking.id, {"team": "design", "date": "2026-12-12"})
        until(loop, lambda: not window.workflows.runs.is_driving(record.execution_id))
        window.workflows.run_canvas.show_execution(record.execution_id)
        window.workflows.run_docks.show_history()
        window.workflows.run_docks.history.select_execution(record.execution_id)
        window.workflows.tabs.current().editor.view.fit_all()
        settle(loop)
        window.grab().save(str(out / "run-rolled-back.png"))

        window.workflows.tabs.open(scoring.id)
        rerun = workspace.executions.find(workflow_id=scoring.id)[0]
        bar = window.workflows.run_docks.replay(rerun.execution_id)
        bar.seek(max(1, len(bar.log.events) * 2 // 3))
        bar.heat_button.setChecked(True)
        window.workflows.tabs.current().editor.view.fit_all()
        settle(loop)
        window.grab().save(str(out / "run-replay.png"))

        window.workflows.runs.shutdown()
        window.close()
        workspace.close()
    print(f"wrote run-live.png, run-rolled-back.png and run-replay.png to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/images")))
