"""The command line's paths, timed as a person meets them: real ``studio`` processes over a
fresh data folder in a temporary folder, each figure the median of several runs.

- start-up: ``python -c pass`` (the floor), ``studio --version``, ``studio --help``, and
  ``studio screenshot`` of an empty workspace (start-up to a drawn window);
- ``studio run chain.json --json`` of a chain of echo nodes, minus ``studio --version``, and
  per node added beyond a 1-node chain (``--version`` imports almost nothing now, so the first
  figure carries the imports and the database a run needs once; the second is what the
  command spends per node: publishing, logging, progress, the record);
- ``studio screenshot --open`` of bench/canvas.py's random DAG, minus the same of a 1-node file;
- the peak resident memory of ``studio run`` of chains of 1,000, 5,000 and 10,000 echo nodes,
  one process each, and whether it grows linearly with the chain.

Every command runs once untimed before it is timed: that run writes the bytecode of what it
imports to a cache in the temporary folder (``PYTHONPYCACHEPREFIX``), even where the
environment says not to write bytecode. An installed Studio has its modules compiled (pip
compiles them at install); timed without bytecode, every start compiled every module again,
which no user sees: the empty-workspace picture took 1.19 s that way and 0.93 s compiled
(medians of 7 runs, 2 shared cores).

Where start-up goes (``studio screenshot`` of an empty workspace, compiled, medians of at
least 5 runs; other work on the machine moves every figure by ±0.05 s): about 0.73 s of the
0.93 s is importing — the models 0.13 s, the workspace 0.23 s (SQLAlchemy 0.08–0.10 s, httpx
for the HTTP agent kind 0.04 s), PySide6 0.05 s, the window's modules 0.29 s (the Knowledge
mode brings networkx and markdown-it, some 350 modules); building the window 0.10 s; the first
frame, the picture and writing it 0.07 s. Once PySide6 is imported its import hook reads the
source of every module imported after it: networkx, SQLAlchemy, markdown-it and httpx take
0.28 s before Qt and 0.38 s after. The desktop commands now load what the window needs
without Qt before Qt (``studio.ui.before_qt``: the import phase 0.645 s → 0.611 s of CPU,
medians of 12 alternating runs), and the picture waits for the store thread's answers in
1 ms steps instead of 10 ms (0.028 s, 9 alternating runs): 0.93 s → about 0.87 s.

Where ``studio run`` goes (a machine about 1.4 times slower than a quick one; medians of
5–7 runs, sampling profiles): a 1-node run takes 0.36 s (0.42–0.43 s before its imports were
cut), ``--version`` 0.03 s. Of the difference, importing is about 0.26 s: pydantic and the
models about 0.11 s, SQLAlchemy about 0.11 s, jsonschema 0.03 s (the bundled agents'
parameter schemas are checked as they load); the HTTP and LLM kinds (httpx), the keyring, the
knowledge store and PostgreSQL's dialect are no longer imported by a run that needs none of
them. The rest, about 0.07 s: the database opened and checked, the workspace and its agents,
the workflow published, the run's start and end, and the close, whose checkpoint copies what
the run wrote to the log back into the file. Per node beyond a 1-node run, 0.37 ms against
the engine's 0.22: the published file (read, checked and laid out) about 0.04 ms, two JSON
log lines 0.024 ms (12 µs a line: the record, its JSON, the write), progress lines about
0.02 ms, the close's checkpoint about 0.025 ms (4.3 pages a node), the record printed.
So at the engine's speed the once-a-run start alone is 1.5 times the whole 1,000-node chain's
engine time: within 1.2 times of the engine is out of reach while a run imports pydantic and
SQLAlchemy.

``screenshot --open`` of the 2,000-node DAG beyond a 1-node file (about 0.6 s): reading and
checking the YAML file ~0.15 s, storing the new draft on the store thread 0.07–0.10 s (the
tab opens once it is stored), building the canvas ~0.2 s (bench/canvas.py), its first paint
0.06–0.07 s, a larger picture to write ~0.02 s.

Prints; asserts nothing.

    .venv/bin/python bench/commands.py [--runs 5] [--nodes 1000] [--canvas-nodes 2000]
"""

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# Run as a script, this folder comes first on the path, and its queue.py would hide the
# standard library's queue module from everything imported below: put the folder last.
sys.path.sort(key=lambda entry: Path(entry or ".").resolve() == Path(__file__).resolve().parent)

STUDIO = [sys.executable, "-m", "studio"]
ECHO_AGENT = "demo-echo-agent"


@dataclass(frozen=True)
class CommandFigures:
    """Medians of ``runs`` runs, in seconds."""

    runs: int
    python_pass_s: float
    version_s: float
    help_s: float
    empty_screenshot_s: float
    chain_nodes: int
    chain_run_s: float
    one_node_run_s: float
    """``studio run`` of a 1-node chain: start-up, the database, one node and the record."""
    canvas_nodes: int
    open_big_s: float
    open_one_s: float

    @property
    def run_ms_per_node(self) -> float:
        """``studio run`` of the chain, minus ``studio --version``, per node."""
        return (self.chain_run_s - self.version_s) / self.chain_nodes * 1000

    @property
    def run_ms_per_added_node(self) -> float:
        """``studio run`` of the chain beyond a 1-node chain, per node added: what the
        command spends per node, without what every run spends once (imports, the database)."""
        return (self.chain_run_s - self.one_node_run_s) / (self.chain_nodes - 1) * 1000

    @property
    def open_beyond_s(self) -> float:
        """``studio screenshot --open`` of the big graph beyond that of a 1-node file."""
        return self.open_big_s - self.open_one_s


def median_seconds(command: list[str], runs: int, environment: dict[str, str]) -> float:
    """The median wall time of ``runs`` runs of ``command``, after one untimed run that
    writes the bytecode of what it imports; stops at the first run that fails."""
    times = []
    for _ in range(runs + 1):
        began = time.perf_counter()
        done = subprocess.run(command, env=environment, capture_output=True, text=True)
        times.append(time.perf_counter() - began)
        if done.returncode != 0:
            sys.exit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-400:]}")
    return statistics.median(times[1:])


def compiled_environment(folder: Path) -> dict[str, str]:
    """The environment the commands run in: a fresh data folder, Qt offscreen, and bytecode
    kept in ``folder`` (written by each command's first, untimed run) even where the
    environment says not to write any: an installed Studio has its modules compiled, so a
    start that compiles every module again is one no user sees."""
    environment = {
        **os.environ,
        "STUDIO_DATA_DIR": str(folder / "data"),
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPYCACHEPREFIX": str(folder / "bytecode"),
    }
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment


def chain_file(folder: Path, count: int) -> Path:
    """A JSON workflow file of ``count`` echo nodes in a row."""
    nodes = [{"id": f"n{i}", "agentId": ECHO_AGENT} for i in range(count)]
    edges = [{"source": f"n{i}", "target": f"n{i + 1}"} for i in range(count - 1)]
    path = folder / f"chain-{count}.json"
    path.write_text(json.dumps({"name": f"chain of {count}", "nodes": nodes, "edges": edges}))
    return path


def dag_file(folder: Path, count: int) -> Path:
    """bench/canvas.py's random DAG of ``count`` nodes, laid out, as a YAML file."""
    from canvas import random_dag  # bench/canvas.py: the canvas benchmark's graph

    from studio.model import write_workflow

    path = folder / f"dag-{count}.yaml"
    write_workflow(random_dag(count), path)
    return path


@dataclass(frozen=True)
class RunMemory:
    """The peak resident memory of one ``studio run`` of a chain of ``nodes`` echo nodes."""

    nodes: int
    peak_mib: float
    seconds: float


@dataclass(frozen=True)
class MemoryFigures:
    """``studio run``'s peak memory over chains of growing size."""

    runs: list[RunMemory]
    kib_per_node: list[float]
    """The memory each node added took, from each size to the next."""
    grows_linearly: bool
    """Whether a node added takes at most 1.5 times what one took at the smaller sizes: a
    run keeping something per node for every node before it grows much faster."""


def memory_figures(runs: list[RunMemory]) -> MemoryFigures:
    steps = [
        (later.peak_mib - earlier.peak_mib) * 1024 / (later.nodes - earlier.nodes)
        for earlier, later in itertools.pairwise(runs)
    ]
    linear = all(later <= 1.5 * max(earlier, 1.0) for earlier, later in itertools.pairwise(steps))
    return MemoryFigures(runs, steps, linear)


def peak_memory(sizes: tuple[int, ...] = (1000, 5000, 10_000)) -> MemoryFigures:
    """``studio run chain.json --quiet`` of a chain of each size, once each, in a process of
    its own over one fresh data folder: the process's peak resident memory (as the system
    counts it when the process ends) and its wall time."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        environment = compiled_environment(folder)
        _run_memory(folder, environment, 1)  # writes the bytecode of what a run imports
        return memory_figures([_run_memory(folder, environment, size) for size in sizes])


def _run_memory(folder: Path, environment: dict[str, str], size: int) -> RunMemory:
    command = [*STUDIO, "run", str(chain_file(folder, size)), "--quiet"]
    began = time.perf_counter()
    process = subprocess.Popen(
        command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _pid, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - began
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({process.returncode})")
    return RunMemory(size, usage.ru_maxrss / 1024, seconds)  # Linux counts it in KiB


def measure(runs: int = 5, nodes: int = 1000, canvas_nodes: int = 2000) -> CommandFigures:
    """Every command ``runs`` times, over one fresh data folder."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        environment = compiled_environment(folder)

        def median(*arguments: str) -> float:
            return median_seconds(list(arguments), runs, environment)

        picture = str(folder / "shot.png")
        floor = median(sys.executable, "-c", "pass")
        version = median(*STUDIO, "--version")
        help_s = median(*STUDIO, "--help")
        empty = median(*STUDIO, "screenshot", picture)
        chain = str(chain_file(folder, nodes))
        run = median(*STUDIO, "run", chain, "--json")
        one_node = median(*STUDIO, "run", str(chain_file(folder, 1)), "--json")
        big, one = str(dag_file(folder, canvas_nodes)), str(dag_file(folder, 1))
        open_big = median(*STUDIO, "screenshot", picture, "--open", big)
        open_one = median(*STUDIO, "screenshot", picture, "--open", one)
    return CommandFigures(
        runs, floor, version, help_s, empty, nodes, run, one_node, canvas_nodes, open_big, open_one
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--canvas-nodes", type=int, default=2000)
    args = parser.parse_args()
    figures = measure(args.runs, args.nodes, args.canvas_nodes)
    print(f"medians of {figures.runs} runs, a fresh data folder")
    print(f"python -c pass                       {figures.python_pass_s:6.3f} s")
    print(f"studio --version                     {figures.version_s:6.3f} s")
    print(f"studio --help                        {figures.help_s:6.3f} s")
    print(f"studio screenshot, empty workspace   {figures.empty_screenshot_s:6.3f} s")
    run = f"studio run of {figures.chain_nodes} echo nodes"
    print(
        f"{run:<36} {figures.chain_run_s:6.3f} s  "
        f"({figures.run_ms_per_node:.3f} ms/node beyond --version, "
        f"{figures.run_ms_per_added_node:.3f} beyond a 1-node run of "
        f"{figures.one_node_run_s:.3f} s)"
    )
    memory = peak_memory()
    sizes = ", ".join(
        f"{m.nodes:,}: {m.peak_mib:.0f} MiB in {m.seconds:.2f} s" for m in memory.runs
    )
    linear = "grows linearly" if memory.grows_linearly else "grows faster than linearly"
    print(f"studio run peak RSS                  {sizes} ({linear})")
    shot = f"screenshot --open, {figures.canvas_nodes} nodes"
    print(
        f"{shot:<36} {figures.open_big_s:6.3f} s  "
        f"(1 node {figures.open_one_s:.3f} s: {figures.open_beyond_s:.3f} s beyond)"
    )


if __name__ == "__main__":
    main()
