"""Every benchmark under bench/ in one run, and one table: where each path stands against its
floor or peer, and against its goal (issue 17's table, and each benchmark's own target).

Each benchmark's figures come from its ``measure`` function, called in a process of its own
(``python -P``, with this folder last on the path: bench/queue.py shares its name with the
standard library's ``queue``, and Qt wants a fresh process). A timing row is the median of
the runs its ``runs`` column says, each run a fresh process. Columns: the path, its figure,
the floor or peer measured in the same run ("—" where there is none), the ratio of our time
to theirs (for rates, their rate over ours: above 1 is slower), the goal and whether it is
met. Progress goes to stderr, the table to stdout. The machine's load moves every figure.

    .venv/bin/python bench/all.py            (about 5 minutes on 2 cores)
    .venv/bin/python bench/all.py --quick    (about 2 minutes: fewer runs, smaller stores)
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
MARK = "bench-figures: "
CHILD = f"""
import dataclasses, importlib.util, json, sys
bench, name, function, arguments = sys.argv[1:5]
sys.path.append(bench)
spec = importlib.util.spec_from_file_location("bench_" + name, f"{{bench}}/{{name}}.py")
module = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = module
spec.loader.exec_module(module)
result = getattr(module, function)(**json.loads(arguments))
figures = [dataclasses.asdict(r) for r in result] if isinstance(result, list) else (
    dataclasses.asdict(result))
print({MARK!r} + json.dumps(figures), flush=True)
"""
HEADER = ("path", "figure", "floor or peer", "ratio", "goal", "met?", "runs")
DASH = "—"


@dataclass(frozen=True)
class Sizes:
    """How much each benchmark does in one run of this script."""

    runs: int
    heavy_runs: int
    knowledge: int
    knowledge_view: int
    queue_items: int


FULL = Sizes(runs=5, heavy_runs=3, knowledge=10_000, knowledge_view=5000, queue_items=3000)
QUICK = Sizes(runs=3, heavy_runs=1, knowledge=2000, knowledge_view=500, queue_items=500)


@dataclass(frozen=True)
class Row:
    path: str
    figure: str
    floor: str = DASH
    ratio: str = DASH
    goal: str = DASH
    met: str = DASH
    runs: int = 1


def call(name: str, function: str = "measure", **arguments: object) -> object:
    """``bench/<name>.py``'s ``function(**arguments)`` in a process of its own; its figures
    as JSON data."""
    print(f"running bench/{name}.py {function}({arguments or ''})", file=sys.stderr, flush=True)
    command = [sys.executable, "-P", "-c", CHILD, str(BENCH), name, function]
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [*command, json.dumps(arguments)], env=environment, capture_output=True, text=True
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith(MARK)]
    if done.returncode != 0 or not lines:
        sys.exit(f"bench/{name}.py failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return json.loads(lines[-1].removeprefix(MARK))


def medians(name: str, processes: int, **arguments: object) -> dict[str, float]:
    """Each numeric figure's median over runs in ``processes`` fresh processes."""
    results = []
    for _ in range(processes):
        result = call(name, **arguments)
        assert isinstance(result, dict)
        results.append({key: value for key, value in result.items() if is_number(value)})
    return {key: statistics.median(result[key] for result in results) for key in results[0]}


def is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.3g}×" if theirs else DASH


def verdict(met: bool) -> str:
    return "yes" if met else "no"


def engine_rows(sizes: Sizes) -> tuple[list[Row], float]:
    """The chain and the fan-out against the plain sqlite3 floor; the chain's ms/node."""
    f = medians("engine", sizes.runs, nodes=1000)
    chain = f["chain_seconds"] / f["nodes"] * 1000
    fan = f["fan_out_seconds"] / f["fan_out_nodes"] * 1000
    floor = f["sqlite3_floor_ms"]
    within = chain / floor
    return [
        Row("engine chain of 1,000", f"{chain:.3f} ms/node", f"sqlite3 3 commits/node "
            f"{floor:.3f} ms", f"{within:.2f}×", "≤ 3× floor", verdict(within <= 3), sizes.runs),
        Row("engine fan-out 1→1,000→1", f"{fan:.3f} ms/node", f"sqlite3 {floor:.3f} ms",
            ratio(fan, floor), runs=sizes.runs),
    ], chain  # fmt: skip


def command_rows(sizes: Sizes, engine_chain_ms: float, bare_open_s: float) -> list[Row]:
    """``studio run``, ``studio screenshot`` and start-up, as real processes."""
    f = medians("commands", 1, runs=sizes.runs, nodes=1000, canvas_nodes=2000)
    run_ms = (f["chain_run_s"] - f["version_s"]) / f["chain_nodes"] * 1000
    beyond = f["open_big_s"] - f["open_one_s"]
    floor = f["python_pass_s"]
    runs = sizes.runs
    added_ms = (f["chain_run_s"] - f["one_node_run_s"]) / (f["chain_nodes"] - 1) * 1000
    return [
        Row("studio run chain.json --json, 1,000 echo, minus --version", f"{run_ms:.3f} ms/node",
            f"engine chain {engine_chain_ms:.3f} ms", f"{run_ms / engine_chain_ms:.2f}×",
            "≤ 1.2× engine", verdict(run_ms <= 1.2 * engine_chain_ms), runs),
        Row("studio run, per node beyond a 1-node run", f"{added_ms:.3f} ms/node",
            f"engine chain {engine_chain_ms:.3f} ms", f"{added_ms / engine_chain_ms:.2f}×",
            "≤ 1.2× engine", verdict(added_ms <= 1.2 * engine_chain_ms), runs),
        Row("studio screenshot --open, 2,000 DAG minus 1 node", f"{beyond:.3f} s",
            f"bare scene open {bare_open_s:.3f} s", ratio(beyond, bare_open_s), "≤ 0.6 s",
            verdict(beyond <= 0.6), runs),
        Row("studio screenshot, empty workspace", f"{f['empty_screenshot_s']:.3f} s",
            goal="≤ 1.0 s", met=verdict(f["empty_screenshot_s"] <= 1.0), runs=runs),
        Row("studio --version", f"{f['version_s']:.3f} s", f"python -c pass {floor:.3f} s",
            ratio(f["version_s"], floor), "≤ 0.15 s", verdict(f["version_s"] <= 0.15), runs),
        Row("studio --help", f"{f['help_s']:.3f} s", f"python -c pass {floor:.3f} s",
            ratio(f["help_s"], floor), "≤ 0.15 s", verdict(f["help_s"] <= 0.15), runs),
    ]  # fmt: skip


def memory_rows() -> list[Row]:
    """``studio run``'s peak memory over chains of growing size, once each."""
    memory = call("commands", "peak_memory")
    assert isinstance(memory, dict)
    runs, last = memory["runs"], memory["runs"][-1]
    sizes = ", ".join(f"{run['nodes']:,}: {run['peak_mib']:.0f}" for run in runs)
    added = " then ".join(f"{kib:.1f}" for kib in memory["kib_per_node"])
    return [
        Row(f"studio run peak RSS, chains of {sizes} MiB", f"{last['peak_mib']:.0f} MiB",
            f"KiB a node added: {added}", goal="grows linearly",
            met=verdict(memory["grows_linearly"])),
        Row(f"studio run of {last['nodes']:,} echo nodes, one process", f"{last['seconds']:.2f} s"),
    ]  # fmt: skip


def canvas_rows(sizes: Sizes) -> tuple[list[Row], float]:
    """bench/canvas.py's random DAG of 2,000 against its bare scene; the bare open (s)."""
    f = medians("canvas", sizes.runs, size=2000)
    frame, bare_frame = f["frame_ms"], f["bare_frame_ms"]
    return [
        Row("canvas random DAG 2,000: frame, all in view", f"{frame:.1f} ms",
            f"bare scene {bare_frame:.1f} ms", ratio(frame, bare_frame), "≤ 33 ms",
            verdict(frame <= 33), sizes.runs),
        Row("canvas random DAG 2,000: open (read, build, paint)", f"{f['open_s']:.3f} s",
            f"bare scene {f['bare_open_s']:.3f} s", ratio(f["open_s"], f["bare_open_s"]),
            runs=sizes.runs),
    ], f["bare_open_s"]  # fmt: skip


def queue_rows(sizes: Sizes) -> list[Row]:
    """bench/queue.py's two targets: SQLite with one worker, PostgreSQL with eight."""
    rows = call("queue", items=sizes.queue_items, worker_counts=[1, 8])
    assert isinstance(rows, list)

    def rate(queue: str, backend: str, workers: int) -> float | None:
        for row in rows:
            if (row["queue"], row["backend"], row["workers"]) == (queue, backend, workers):
                return row["items"] / (row["enqueue_s"] + row["drain"]["seconds"])
        return None

    ours, floor = rate("studio", "sqlite", 1), rate("sqlite3 floor", "sqlite", 1)
    assert ours is not None and floor is not None
    found = [Row(f"work queue, SQLite, 1 worker ({sizes.queue_items} items)",
                 f"{ours:.0f} items/s", f"sqlite3 floor {floor:.0f} items/s",
                 ratio(floor, ours), "≥ 1,000 items/s", verdict(ours >= 1000))]  # fmt: skip
    ours_pg, peer = rate("studio", "postgresql", 8), rate("procrastinate", "postgresql", 8)
    if ours_pg is None or peer is None:
        return [*found, Row("work queue, PostgreSQL, 8 workers", "PostgreSQL not installed")]
    return [*found, Row(f"work queue, PostgreSQL, 8 workers ({sizes.queue_items} items)",
                        f"{ours_pg:.0f} items/s", f"procrastinate {peer:.0f} items/s",
                        ratio(peer, ours_pg), "≥ procrastinate",
                        verdict(ours_pg >= peer))]  # fmt: skip


def other_rows(sizes: Sizes) -> list[Row]:
    """Knowledge ingest, layout, replay and the catalog."""
    k = medians("knowledge", sizes.heavy_runs, count=sizes.knowledge)
    lay = medians("layout", sizes.runs, size=2000)
    rep = medians("replay", sizes.runs)
    cat = medians("catalog", sizes.heavy_runs)
    cached, uncached = rep["cached_s"] * 1e6, rep["uncached_s"] * 1e6
    return [
        Row(f"knowledge ingest, {sizes.knowledge:,} artifacts", f"{k['ingest_rate']:.0f} /s",
            f"bare markdown-it parse {k['parse_rate']:.0f} /s",
            ratio(k["parse_rate"], k["ingest_rate"]), runs=sizes.heavy_runs),
        Row("layout, random DAG of 2,000", f"{lay['layout_ms']:.1f} ms",
            f"graphlib generations {lay['floor_ms']:.1f} ms",
            ratio(lay["layout_ms"], lay["floor_ms"]), runs=sizes.runs),
        Row(f"replay scrub, {rep['events']:.0f} events, per moment", f"{cached:.0f} µs",
            f"fold from the start {uncached:.0f} µs", ratio(cached, uncached), runs=sizes.runs),
        Row("blueprint catalog, first open (200 blueprints)", f"{cat['first_open_ms']:.0f} ms",
            goal="< 500 ms", met=verdict(cat["first_open_ms"] < 500), runs=sizes.heavy_runs),
    ]  # fmt: skip


def responsiveness_rows() -> list[Row]:
    """bench/run_responsiveness.py: the longest UI block of each run (one run: it is long)."""
    figures = call("run_responsiveness")
    assert isinstance(figures, dict)
    return [
        Row(f"UI block during run: {run['name']}", f"{run['longest_ms']:.1f} ms",
            goal="≤ 50 ms", met=verdict(run["longest_ms"] <= 50))
        for run in figures["runs"]
    ]  # fmt: skip


def knowledge_view_rows(sizes: Sizes, cache: Path) -> list[Row]:
    """bench/knowledge_view.py at one size: open, frame, step and ingest blocks."""
    os.environ["STUDIO_BENCH_CACHE"] = str(cache)  # the store is generated once, then reused
    size = sizes.knowledge_view
    f = medians("knowledge_view", sizes.heavy_runs, size=size)
    at = f"Knowledge view {size:,}"
    runs = sizes.heavy_runs
    one, step = f["frame_one_ms"], f["step_median_ms"]
    block = max(f["block_landing_ms"], f["block_redraw_ms"])
    opened = Row(f"{at}: open to drawn canvas", f"{f['open_ms']:.0f} ms", runs=runs)
    if size == 5000:
        opened = Row(opened.path, opened.figure, goal="< 1,500 ms",
                     met=verdict(f["open_ms"] < 1500), runs=runs)  # fmt: skip
    return [
        opened,
        Row(f"{at}: frame, one subject ({f['frame_one_nodes']:.0f} nodes)", f"{one:.1f} ms",
            goal="< 33 ms", met=verdict(one < 33), runs=runs),
        Row(f"{at}: timeline step, median", f"{step:.0f} ms", goal="< 100 ms",
            met=verdict(step < 100), runs=runs),
        Row(f"{at}: UI block while 1,000 land / redraw", f"{block:.1f} ms", goal="< 50 ms",
            met=verdict(block < 50), runs=runs),
    ]  # fmt: skip


def print_table(rows: list[Row]) -> None:
    cells = [HEADER, *((r.path, r.figure, r.floor, r.ratio, r.goal, r.met, str(r.runs))
                       for r in rows)]  # fmt: skip
    widths = [max(len(cell[column]) for cell in cells) for column in range(len(HEADER))]
    for cell in cells:
        print("  ".join(t.ljust(w) for t, w in zip(cell, widths, strict=True)).rstrip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs, smaller stores")
    sizes = QUICK if parser.parse_args().quick else FULL
    began = time.perf_counter()
    engine, chain_ms = engine_rows(sizes)
    canvas, bare_open_s = canvas_rows(sizes)
    rows = [*engine, *command_rows(sizes, chain_ms, bare_open_s), *memory_rows(), *canvas]
    steps: list[Callable[[], list[Row]]] = [
        lambda: queue_rows(sizes),
        lambda: other_rows(sizes),
        responsiveness_rows,
    ]
    for step in steps:
        rows += step()
    with tempfile.TemporaryDirectory() as cache:
        rows += knowledge_view_rows(sizes, Path(cache))
    minutes = (time.perf_counter() - began) / 60
    print(f"bench/all.py{' --quick' if sizes is QUICK else ''}: {minutes:.1f} min; "
          f"ratio = our time / the floor's (rates: the floor's rate / ours)")  # fmt: skip
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
