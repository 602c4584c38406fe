"""Layout speed: ``layered_layout`` on random DAGs of 500, 2,000 and 5,000 nodes (one to
three earlier nodes before each), next to the floor: the topological generations of the same
graph from the standard library's graphlib, which is the first step of any layered layout.
Prints; asserts nothing.

    .venv/bin/python bench/layout.py
"""

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from graphlib import TopologicalSorter

from studio.model.layout import layered_layout

SIZES = (500, 2000, 5000)
REPEATS = 3
ROW = "{:>6} {:>6} {:>14} {:>12} {:>8}"


@dataclass(frozen=True)
class LayoutFigures:
    """The layout of one random DAG next to graphlib's generations of it."""

    nodes: int
    links: int
    layout_ms: float
    floor_ms: float


def random_dag(size: int, seed: int = 7) -> tuple[list[str], list[tuple[str, str]]]:
    """Node ids in shuffled order and links from earlier to later nodes."""
    rng = random.Random(seed)
    ids = [f"node-{number}" for number in range(size)]
    links = [
        (ids[rng.randrange(number)], ids[number])
        for number in range(1, size)
        for _ in range(rng.randint(1, 3))
    ]
    rng.shuffle(ids)
    return ids, links


def generations(node_ids: list[str], links: list[tuple[str, str]]) -> list[list[str]]:
    """The graph's columns: every node whose predecessors are all in earlier columns."""
    sorter: TopologicalSorter[str] = TopologicalSorter({node_id: [] for node_id in node_ids})
    for source, target in links:
        sorter.add(target, source)
    sorter.prepare()
    columns = []
    while sorter.is_active():
        ready = list(sorter.get_ready())
        sorter.done(*ready)
        columns.append(ready)
    return columns


def best_of(work: Callable[[], object]) -> float:
    """The fastest of a few runs, in milliseconds, after one to warm up."""
    work()
    timings = []
    for _ in range(REPEATS):
        began = time.perf_counter()
        work()
        timings.append(time.perf_counter() - began)
    return min(timings) * 1000


def measure(size: int) -> LayoutFigures:
    """The fastest of a few layouts of a random DAG of ``size`` nodes, and of its floor."""
    node_ids, links = random_dag(size)
    layout = best_of(partial(layered_layout, node_ids, links))
    floor = best_of(partial(generations, node_ids, links))
    return LayoutFigures(size, len(links), layout, floor)


def main() -> None:
    print(ROW.format("nodes", "links", "layout (ms)", "floor (ms)", "ratio"))
    for size in SIZES:
        figures = measure(size)
        layout, floor = figures.layout_ms, figures.floor_ms
        cells = (f"{layout:.1f}", f"{floor:.1f}", f"{layout / floor:.0f}x")
        print(ROW.format(size, figures.links, *cells))


if __name__ == "__main__":
    main()
