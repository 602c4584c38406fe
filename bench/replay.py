"""Replay scrubbing speed: a log of 50 nodes each retried 50 times (about 5,000 events) is
folded into the moment under the slider, from the replay's checkpoint cache, next to the peer
that folds every moment from the first event (what replay would do without the cache).
Prints; asserts nothing.

    .venv/bin/python bench/replay.py [--nodes 50] [--per-node 100]
"""

import argparse
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from studio.model.execution import ExecutionEvent
from studio.model.run_view import RunView
from studio.ui.run.replay_bar import ReplayLog

STRIDE = 7  # scrub to every seventh moment, as a dragged slider does


@dataclass(frozen=True)
class ReplayFigures:
    """Scrubbing one synthetic log, with the cache and without (seconds)."""

    events: int
    nodes: int
    built_s: float
    cached_s: float
    uncached_s: float


def synthetic_log(nodes: int, per_node: int) -> tuple[list[str], list[ExecutionEvent]]:
    """A long log: each node retried many times before completing."""
    t0 = datetime(2025, 1, 25, 13, 0, tzinfo=UTC)
    node_ids = [f"n{i}" for i in range(nodes)]
    kinds: list[tuple[str, str | None, dict]] = [("execution.started", None, {})]
    for node_id in node_ids:
        for attempt in range(1, per_node // 2):
            kinds.append(("node.started", node_id, {"attempt": attempt}))
            kinds.append(("node.retrying", node_id, {"delay": 1, "error": {"type": "T"}}))
        kinds.append(("node.started", node_id, {}))
        kinds.append(("node.completed", node_id, {"items": 1}))
    kinds.append(("execution.completed", None, {}))
    events = [
        ExecutionEvent("x", seq, kind, node_id, payload, t0 + timedelta(milliseconds=seq))
        for seq, (kind, node_id, payload) in enumerate(kinds, start=1)
    ]
    return node_ids, events


def cached_scrub(node_ids: list[str], events: list[ExecutionEvent]) -> tuple[float, float]:
    """Seconds to build the checkpoint cache, and seconds per moment scrubbed from it."""
    began = time.perf_counter()
    log = ReplayLog("x", node_ids, events)
    built = time.perf_counter() - began
    moments = range(0, len(events), STRIDE)
    began = time.perf_counter()
    for position in moments:
        log.view_at(position)
    return built, (time.perf_counter() - began) / len(moments)


def uncached_scrub(node_ids: list[str], events: list[ExecutionEvent]) -> float:
    """Seconds per moment when every moment is folded from the first event."""
    moments = range(0, len(events), STRIDE)
    began = time.perf_counter()
    for position in moments:
        RunView.folded("x", node_ids, events, until_seq=position)
    return (time.perf_counter() - began) / len(moments)


def measure(nodes: int = 50, per_node: int = 100) -> ReplayFigures:
    """Scrub a log of ``nodes`` nodes with ``per_node`` events each, cached and not."""
    node_ids, events = synthetic_log(nodes, per_node)
    built, cached = cached_scrub(node_ids, events)
    uncached = uncached_scrub(node_ids, events)
    return ReplayFigures(len(events), len(node_ids), built, cached, uncached)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=50)
    parser.add_argument("--per-node", type=int, default=100)
    args = parser.parse_args()
    figures = measure(args.nodes, args.per_node)
    cached, uncached = figures.cached_s, figures.uncached_s
    print(f"{figures.events} events, {figures.nodes} nodes")
    print(f"{'cache built in':<28} {figures.built_s * 1000:9.1f} ms")
    print(f"{'per moment, from the cache':<28} {cached * 1e6:9.0f} µs")
    print(
        f"{'per moment, from the start':<28} {uncached * 1e6:9.0f} µs  (peer: "
        f"{uncached / cached:.0f}x the cache)"
    )


if __name__ == "__main__":
    main()
