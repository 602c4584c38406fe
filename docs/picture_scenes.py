"""The scenes ``make_pictures.py`` draws: real workflows on shell agents, run on the engine in
a scratch folder, shown in the main window as a person would see them."""

import asyncio
import itertools
import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import yaml
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from studio.model import Workflow
from studio.model.layout import layout_positions
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
    "charge-card": "echo 'card declined: insufficient funds' >&2; exit 1",
    "list-customers": (
        'printf \'[{"id": 1, "name": "Ada Lovelace", "city": "London", "orders": 12},'
        ' {"id": 2, "name": "Bo Chen", "city": "Lima", "orders": 3},'
        ' {"id": 3, "name": "Cy Okafor", "city": "Lagos", "orders": 7},'
        ' {"id": 4, "name": "Di Rossi", "city": "Turin", "orders": 21}]\''
    ),
}
ORDERS = [{"id": 1, "item": "tea", "price": 3.5}, {"id": 2, "item": "cake", "price": 4}]


class Stage:
    """The window, its workspace, the event loop and where pictures go."""

    def __init__(self, window: MainWindow, workspace: Workspace, loop, root: Path, out: Path):
        self.window, self.workspace, self.loop = window, workspace, loop
        self.root, self.out = root, out

    def until(self, condition: Callable[[], object], timeout: float = 30.0) -> Any:
        """Let the app work until ``condition`` holds; what it gave."""

        async def wait() -> Any:
            for _ in range(int(timeout / 0.02)):
                found = condition()
                if found:
                    return found
                await asyncio.sleep(0.02)
            raise TimeoutError(str(condition))

        return self.loop.run_until_complete(wait())

    def settle(self, seconds: float = 0.4) -> None:
        """Let the window draw what it was asked to."""
        self.loop.run_until_complete(asyncio.sleep(seconds))

    def save(self, widget: QWidget, name: str) -> None:
        self.settle()
        widget.grab().save(str(self.out / name))
        print(f"  {name}")

    def publish(self, data: dict) -> Workflow:
        """Lay the workflow out, write it to a file, import and publish it."""
        positions = layout_positions(Workflow.model_validate(data))
        for node in data["nodes"]:
            node.setdefault("position", positions[node["id"]].model_dump())
        path = self.root / f"{data['name']}.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False))
        workflow = self.workspace.import_and_publish(path)
        self.window.workflows.lists.refresh()
        return workflow

    def open(self, workflow: Workflow):
        """Open a stored workflow in a tab; the tab."""
        future = self.window.workflows.tabs.open(workflow.id)
        return self.until(lambda: future.done() and future.result())

    def run(self, workflow: Workflow, execution_input: Any, wait: bool = True):
        """Start a run from the window; its record (once finished, unless told not to wait)."""
        started = self.window.workflows.runs.start(workflow.id, execution_input)
        record = self.until(lambda: started.done() and started.result())
        if wait:
            runs = self.window.workflows.runs
            self.until(lambda: not runs.is_driving(record.execution_id))
        return record

    def show_in_history(self, execution_id: str) -> None:
        history = self.window.workflows.run_docks.history
        self.window.workflows.run_docks.show_history()
        self.until(lambda: history.tree.run_count() > 0)
        history.select_execution(execution_id)
        self.until(lambda: not history.is_loading())


def write_agents(folder: Path) -> None:
    folder.mkdir(parents=True)
    for agent_id, script in AGENTS.items():
        data = {"id": agent_id, "name": agent_id.replace("-", " ").capitalize(), "kind": "shell"}
        data["settings"] = {"argv": ["sh", "-c", script]}
        (folder / f"{agent_id}.yaml").write_text(yaml.safe_dump(data))


def chain(name: str, *nodes: tuple[str, str, str]) -> dict:
    """Workflow data: the nodes (id, name, agent) in a row."""
    listed = [{"id": i, "name": n, "agentId": a} for i, n, a in nodes]
    edges = [{"source": a["id"], "target": b["id"]} for a, b in itertools.pairwise(listed)]
    return {"name": name, "nodes": listed, "edges": edges}


# Scenes -------------------------------------------------------------------------------------


def editor(stage: Stage, blueprint: Path) -> None:
    """The editor at 1280×800 with a blueprint open, its placeholders mapped to a real agent
    (so nothing stands in the way of publishing): the canvas has most of the window."""
    window = stage.window
    window.resize(1280, 800)
    data = yaml.safe_load(blueprint.read_text())
    for node in data["nodes"]:
        node["agentId"] = "demo-echo-agent"
    mapped = stage.root / blueprint.name
    mapped.write_text(yaml.safe_dump(data, sort_keys=False))
    future = window.workflows.files.open_workflow_file(str(mapped))
    tab = stage.until(lambda: future.done() and future.result())
    tab.editor.view.fit_all()
    stage.save(window, "studio-editor.png")


def editor_dark(stage: Stage) -> None:
    """The same window in the dark theme."""
    stage.window.set_theme("dark")
    stage.window.workflows.tabs.current().editor.view.fit_all()
    stage.save(stage.window, "studio-editor-dark.png")
    stage.window.set_theme("light")


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

    def undone(node_id: str, name: str, agent: str, tool: str, key: str) -> dict:
        args = {key: f"${{output.{key}}}"}
        undo = {"tool": tool, "args": args, "sideEffecting": True}
        return {"id": node_id, "name": name, "agentId": agent, "compensation": undo}

    data = chain("Book the offsite", ("close-out", "Close out", "reconcile"))
    data["nodes"][:0] = [
        undone("create-ticket", "Create ticket", "ticketing", "close_ticket", "ticketId"),
        undone("reserve-room", "Reserve room", "rooms", "release_room", "roomId"),
    ]
    data["edges"] = [
        {"source": "create-ticket", "target": "reserve-room"},
        {"source": "reserve-room", "target": "close-out"},
    ]
    data["configuration"] = {
        "compensation": compensation,
        "governance": {"denyAgents": ["reconcile"]},
    }
    return data


def runs(stage: Stage) -> None:
    """A run in progress, a failed run that rolled back, and a replay with the heat map."""
    window = stage.window
    window.resize(1400, 880)
    scoring = stage.publish(fan_out())
    tab = stage.open(scoring)
    record = stage.run(scoring, {"day": "2026-11-30"}, wait=False)
    stage.until(
        lambda: (
            tab.overlay
            and sum(b.view.status == "completed" for b in tab.overlay.badges.values()) >= 3
        )
    )
    stage.show_in_history(record.execution_id)
    tab.editor.view.fit_all()
    stage.save(window, "run-live.png")
    stage.until(lambda: not window.workflows.runs.is_driving(record.execution_id))

    booking = stage.publish(rollback())
    stage.open(booking)
    record = stage.run(booking, {"team": "design", "date": "2026-12-12"})
    window.workflows.run_canvas.show_execution(record.execution_id)
    stage.show_in_history(record.execution_id)
    window.workflows.tabs.current().editor.view.fit_all()
    stage.save(window, "run-rolled-back.png")

    stage.open(scoring)
    bar = window.workflows.run_docks.replay(
        stage.workspace.executions.find(workflow_id=scoring.id)[0].execution_id
    )
    bar = stage.until(lambda: bar.done() and bar.result())
    bar.seek(max(1, len(bar.log.events) * 2 // 3))
    bar.heat_button.setChecked(True)
    window.workflows.tabs.current().editor.view.fit_all()
    stage.save(window, "run-replay.png")


def upstream_failure(stage: Stage) -> None:
    """A run whose third node failed: the nodes after it were never run."""
    window = stage.window
    window.resize(1280, 800)
    workflow = stage.publish(
        chain(
            "Take the payment",
            ("basket", "Read the basket", "demo-echo-agent"),
            ("charge", "Charge the card", "charge-card"),
            ("receipt", "Send the receipt", "demo-echo-agent"),
            ("ship", "Ship the order", "demo-echo-agent"),
        )
    )
    tab = stage.open(workflow)
    record = stage.run(workflow, {"basket": 42})
    stage.show_in_history(record.execution_id)
    tab.editor.view.fit_all()
    stage.save(window, "run-upstream-failure.png")


def data_table(stage: Stage) -> None:
    """A node's output, a list of records, as a table below the canvas."""
    window = stage.window
    workflow = stage.publish(
        chain(
            "Customers",
            ("list", "List customers", "list-customers"),
            ("keep", "Keep them", "demo-echo-agent"),
        )
    )
    tab = stage.open(workflow)
    record = stage.run(workflow, {})
    stage.show_in_history(record.execution_id)
    item = tab.editor.scene.node_items["list"]
    view = tab.editor.view
    view.fit_all()
    point = view.mapFromScene(item.sceneBoundingRect().center())
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    output = window.workflows.run_docks.history.detail.inspector.output_view
    stage.until(lambda: output.mode() == "table")
    stage.save(window, "run-data-table.png")


class OrdersHandler(BaseHTTPRequestHandler):
    """GET anything: ORDERS as JSON."""

    def do_GET(self) -> None:
        body = json.dumps(ORDERS).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


def agent_editor(stage: Stage) -> None:
    """The agent editor for an HTTP request, tried once against a local server."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), OrdersHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        future = stage.window.workflows.files.new_workflow()
        tab = stage.until(lambda: future.done() and future.result())
        dialog = tab.editor.make_agent("http")
        dialog.name_edit.setText("Fetch orders")
        url = f"http://127.0.0.1:{server.server_address[1]}/orders"
        dialog.settings_form.editors["url"].edit.setText(url)
        dialog.try_box.try_button.click()
        stage.until(lambda: dialog.try_box.output.toPlainText())
        stage.save(dialog, "agent-editor.png")
        dialog.reject()
    finally:
        server.shutdown()
        server.server_close()


def notes_and_group(stage: Stage) -> None:
    """A workflow with two notes and a named group."""
    window = stage.window
    data = fan_out()
    data["name"] = "Score with notes"
    data["notes"] = [
        {
            "id": "why",
            "text": "## Why four batches\nScoring is **slow**: batches run side by side.",
            "colour": "yellow",
            "position": {"x": -40, "y": -330},
            "size": {"width": 300, "height": 120},
        },
        {
            "id": "todo",
            "text": "- merge keeps the **best** score\n- ask Ops about `slow-score`",
            "colour": "pink",
            "position": {"x": 620, "y": -330},
            "size": {"width": 280, "height": 110},
        },
    ]
    data["groups"] = [
        {"id": "scoring", "name": "Scoring", "nodeIds": ["score-0", "score-1", "score-2"]}
    ]
    workflow = stage.publish(data)
    tab = stage.open(workflow)
    window.workflows.runs_dock.hide()  # nothing has run: the canvas takes the room
    tab.editor.view.fit_all()
    stage.save(window, "notes-and-group.png")
