"""Is the window still responsive while a big run executes? A 200-node workflow runs from the
main window, drawn live on its canvas, while a 2 ms timer on the UI thread records how late
each of its ticks fires: the longest delay is the longest the window could not react.

Two workflows: echo nodes (all engine and drawing work, no waiting on agents) and shell
nodes (a real subprocess per node). Then the echo workflow again while two other programs
write to the same database: a `studio kg ingest` of 2,000 artifacts and a `studio run` of a
200-node workflow, both real subprocesses. The window drives its runs on the store thread, so
their locks may slow the run but never the window (the goal: no block over 50 ms). Prints;
asserts nothing.

Longest block on a 2-core machine, idle otherwise, over six runs: 200 echo 38–73 ms,
200 shell 15–26 ms, 200 echo + 2 writers 33–68 ms (half the runs under 50 ms; the rest is
one block near the run's start, when the canvas first draws 200 badges while the engine,
which shares the interpreter with the window, runs flat out on echo nodes). Before the canvas
drew run events once a frame: 52–66, 27–31 and 52–62 ms. A machine busy with other work
lengthens every figure.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/run_responsiveness.py
"""

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Run as a script, this folder comes first on the path, and its queue.py would hide the
# standard library's queue module from everything imported below: put the folder last.
sys.path.sort(key=lambda entry: Path(entry or ".").resolve() == Path(__file__).resolve().parent)

import qasync
import yaml
from PySide6.QtCore import QElapsedTimer, QTimer

from studio.model import Workflow
from studio.model.layout import layout_positions
from studio.ui.app import create_application, freeze_startup_objects
from studio.ui.window.main_window import MainWindow
from studio.workspace import Workspace

NODES = 200
ARTIFACTS = 2000
STARTUP_S = 2.5
"""Seconds the competing programs get to start writing before the app's run begins."""
PROBE_MS = 2
SHELL_AGENT = """\
id: quick-shell
name: Quick shell step
kind: shell
settings:
  argv: ["cat"]
"""


def parallel_chains(count: int, agent_id: str, chains: int = 11) -> dict:
    """A start node fanning out to ``chains`` chains that join in one end node: ``count``
    nodes in all, up to ``chains`` running at once, and small data on every edge."""
    length = (count - 2) // chains
    nodes = [{"id": "start", "agentId": agent_id, "name": "Start"}]
    edges = []
    for chain in range(chains):
        previous = "start"
        for step in range(length):
            node_id = f"c{chain}s{step}"
            nodes.append({"id": node_id, "agentId": agent_id, "name": f"Chain {chain} step {step}"})
            edges.append({"source": previous, "target": node_id})
            previous = node_id
        edges.append({"source": previous, "target": "end"})
    nodes.append({"id": "end", "agentId": agent_id, "name": "End"})
    workflow = Workflow.model_validate(
        {"name": f"{len(nodes)} {agent_id} nodes", "nodes": nodes, "edges": edges}
    )
    positions = layout_positions(workflow)
    for node in nodes:
        position = positions[node["id"]]
        node["position"] = {"x": position.x, "y": position.y}
    return {"name": workflow.name, "nodes": nodes, "edges": edges}


class LateTicks:
    """A repeating UI-thread timer that records how late each tick came."""

    def __init__(self) -> None:
        self.delays: list[float] = []
        self.clock = QElapsedTimer()
        self.timer = QTimer(interval=PROBE_MS)
        self.timer.timeout.connect(self._tick)

    def start(self) -> None:
        self.delays.clear()
        self.clock.start()
        self.timer.start()

    def stop(self) -> float:
        """Stop; the longest delay in milliseconds."""
        self.timer.stop()
        self._tick()
        return max(self.delays, default=0.0)

    def _tick(self) -> None:
        elapsed = self.clock.nsecsElapsed() / 1e6
        self.clock.restart()
        self.delays.append(max(0.0, elapsed - PROBE_MS))


def measure_run(window: MainWindow, loop, workflow_id: str) -> tuple[float, LateTicks, str]:
    """Run the workflow from the window; seconds taken, the probe, and the final status."""
    probe = LateTicks()
    ended: list[str] = []
    window.workflows.runs.runEnded.connect(lambda _id, status: ended.append(status))
    window.workflows.tabs.open(workflow_id)
    loop.run_until_complete(asyncio.sleep(0.5))  # the canvas is open and drawn before the run

    async def run() -> None:
        probe.start()
        window.workflows.runs.start(workflow_id, {"message": "hi"})
        while not ended:
            await asyncio.sleep(0.01)
        probe.stop()

    began = time.perf_counter()
    loop.run_until_complete(run())
    return time.perf_counter() - began, probe, ended[0]


def start_competitors(scratch: Path, database: str, workflow_file: Path) -> list[subprocess.Popen]:
    """`studio kg ingest` of ARTIFACTS generated artifacts and `studio run` of the workflow
    file, writing to ``database`` from processes of their own."""
    from knowledge import write_corpus  # bench/knowledge.py: the ingest benchmark's artifacts

    corpus = scratch / "corpus"
    corpus.mkdir()
    write_corpus(corpus, ARTIFACTS)
    studio = [sys.executable, "-m", "studio"]
    commands = [
        [*studio, "kg", "ingest", str(corpus), "--db", database, "--quiet"],
        [*studio, "run", str(workflow_file), "--db", database, "--quiet", "--input", "{}"],
    ]
    return [
        subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for command in commands
    ]


def finish_competitors(processes: list[subprocess.Popen], began: float) -> str:
    """Wait for the competing programs; what each did, in words."""
    names = (f"kg ingest of {ARTIFACTS}", f"studio run of {NODES} nodes")
    told = []
    for name, process in zip(names, processes, strict=True):
        running = process.poll() is None
        _, errors = process.communicate(timeout=600)
        state = "still running when the app's run ended" if running else "done first"
        code = process.returncode
        failure = f" ({errors.decode()[-200:]})" if code else ""
        told.append(f"{name}: exit {code}, {state}{failure}")
    return f"competitors ({time.perf_counter() - began:.1f} s in all): " + "; ".join(told)


@dataclass(frozen=True)
class RunBlock:
    """One run from the window and how late the UI probe's ticks came (milliseconds)."""

    name: str
    status: str
    seconds: float
    ticks: int
    median_ms: float
    p99_ms: float
    longest_ms: float

    @classmethod
    def of(cls, name: str, seconds: float, probe: LateTicks, status: str) -> "RunBlock":
        delays = sorted(probe.delays)
        p99 = delays[int(len(delays) * 0.99) - 1] if delays else 0.0
        median = statistics.median(delays)
        return cls(name, status, seconds, len(delays), median, p99, delays[-1])


@dataclass(frozen=True)
class ResponsivenessFigures:
    runs: list[RunBlock]
    competitors: str
    """What the competing programs did, in words."""


def report(run: RunBlock) -> None:
    print(
        f"{run.name:<22} {run.status:<10} {run.seconds:6.2f} s  ticks {run.ticks:>5}  "
        f"median late {run.median_ms:5.1f} ms  p99 {run.p99_ms:5.1f} ms  "
        f"longest block {run.longest_ms:6.1f} ms"
    )


def measure() -> ResponsivenessFigures:
    """The three runs from a main window over a fresh data folder in a temporary folder."""
    app = create_application()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    runs = []
    with tempfile.TemporaryDirectory() as scratch:
        agents = Path(scratch) / "agents"
        agents.mkdir()
        (agents / "quick-shell.yaml").write_text(SHELL_AGENT)
        os.environ["STUDIO_DATA_DIR"] = str(Path(scratch) / "data")
        workspace = Workspace(agent_dirs=[agents])
        window = MainWindow(workspace)
        window.resize(1400, 900)
        window.show()
        freeze_startup_objects()  # as the app does once its window is up
        for agent_id in ("demo-echo-agent", "quick-shell"):
            data = parallel_chains(NODES, agent_id)
            path = Path(scratch) / f"{agent_id}.yaml"
            path.write_text(yaml.safe_dump(data))
            workflow = workspace.import_and_publish(path)
            seconds, probe, status = measure_run(window, loop, workflow.id)
            runs.append(RunBlock.of(f"{NODES} {agent_id}", seconds, probe, status))
        echo_file = Path(scratch) / "demo-echo-agent.yaml"
        echo = workspace.import_and_publish(echo_file)
        began = time.perf_counter()
        competitors = start_competitors(Path(scratch), workspace.database_target, echo_file)
        loop.run_until_complete(asyncio.sleep(STARTUP_S))  # both are writing by now
        seconds, probe, status = measure_run(window, loop, echo.id)
        runs.append(RunBlock.of(f"{NODES} echo + 2 writers", seconds, probe, status))
        told = finish_competitors(competitors, began)
        window.workflows.runs.shutdown()
        window.close()
        workspace.close()
    return ResponsivenessFigures(runs, told)


def main() -> int:
    figures = measure()
    print(f"{NODES}-node runs from the main window, UI probe every {PROBE_MS} ms")
    for run in figures.runs:
        report(run)
    print(figures.competitors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
