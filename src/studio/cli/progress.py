"""Live progress of a run, on stderr: a line per node transition into a pipe or a file; on a
terminal, node lines at most every ``PROGRESS_INTERVAL`` seconds (the latest one waiting shown
when the interval is up), and failures, retries, waits and the run's own lines at once."""

import asyncio
import sys
import time
from collections.abc import Callable
from typing import TextIO

from studio.model.execution import ExecutionEvent
from studio.model.run_words import UPSTREAM_FAILED, duration_words, shown_status, status_words

_SYMBOLS = {
    "node.started": "▶",
    "node.completed": "✓",
    "node.failed": "✗",
    "node.retrying": "↻",
    "node.skipped": "–",
    "node.cancelled": "■",
    "node.interrupted": "!",
    "node.waiting": "⏸",
    "node.resumed": "↺",
    "compensation.started": "↶",
    "compensation.compensated": "↶",
    "compensation.failed": "✗",
}


PROGRESS_INTERVAL = 0.25
"""Seconds between node lines on a terminal: a few a second, however fast the nodes run."""
_ROUTINE = frozenset({"node.started", "node.completed", "node.skipped"})
"""Transitions a terminal shows only as often as a person can read them."""


class PacedLines:
    """Writes lines to a stream; on a terminal, routine ones at most every ``interval``
    seconds: one that comes too soon is held until its turn, unless a newer one replaces it."""

    def __init__(
        self, stream: TextIO, interval: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.stream, self.clock = stream, clock
        self.interval = interval if stream.isatty() else 0.0
        self._routine_at = float("-inf")
        self._held: str | None = None
        self._timer: asyncio.TimerHandle | None = None

    def write(self, line: str, routine: bool) -> None:
        """Show ``line`` now, or hold it when it is routine and the last came too recently."""
        if not routine:
            self.flush()  # what was held happened before this line
            self._show(line)
            return
        wait = self._routine_at + self.interval - self.clock()
        self._held = line
        if wait <= 0:
            self.flush()
        elif self._timer is None:
            self._timer = _call_later(wait, self._show_held)

    def flush(self) -> None:
        """Show the line held back, if any."""
        if self._timer is not None:
            self._timer.cancel()
        self._show_held()

    def _show_held(self) -> None:
        self._timer = None
        held, self._held = self._held, None
        if held is not None:
            self._show(held)
            self._routine_at = self.clock()

    def _show(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()


def _call_later(delay: float, callback: Callable[[], None]) -> asyncio.TimerHandle | None:
    """``callback`` after ``delay`` seconds on this thread's running loop; None without one
    (what is held then waits for the next line or ``flush``)."""
    try:
        return asyncio.get_running_loop().call_later(delay, callback)
    except RuntimeError:
        return None


class ProgressPrinter:
    """Turns runner events into short lines a person can follow."""

    def __init__(
        self,
        total_nodes: int,
        stream: TextIO = sys.stderr,
        finished: int = 0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total, self.finished = total_nodes, finished
        self.lines = PacedLines(stream, PROGRESS_INTERVAL, clock)
        self._started: dict[str, float] = {}

    def __call__(self, event: ExecutionEvent) -> None:
        line = self.describe(event)
        if line:
            self.lines.write(line, routine=event.type in _ROUTINE)

    def close(self) -> None:
        """Show what is still held back: the run has ended, or stopped."""
        self.lines.flush()

    def describe(self, event: ExecutionEvent) -> str | None:
        """The line for one event, or None for events not worth a line."""
        if event.type.startswith("execution."):
            return self._execution_line(event)
        symbol = _SYMBOLS.get(event.type)
        if symbol is None or event.node_id is None:
            return None
        detail = self._node_detail(event)
        if event.type in ("node.completed", "node.failed", "node.skipped", "node.cancelled"):
            self.finished += 1
        return f"[{self.finished}/{self.total}] {symbol} {event.node_id}  {detail}"

    def _node_detail(self, event: ExecutionEvent) -> str:
        payload, node_id = event.payload, event.node_id or ""
        if event.type == "node.started":
            self._started[node_id] = time.monotonic()
            attempt = payload.get("attempt", 1)
            return "started" + (f" (attempt {attempt})" if attempt > 1 else "")
        if event.type == "node.completed":
            return f"completed in {self._elapsed(node_id)}"
        if event.type == "node.retrying":
            error = payload.get("error", {})
            return (
                f"retrying in {duration_words(payload.get('delay', 0))} "
                f"(retry {payload.get('retryCount')} of {payload.get('maxRetries')}): "
                f"{error.get('type')}: {error.get('message')}"
            )
        if event.type == "node.failed":
            error = payload.get("error", {})
            if shown_status("failed", error) == UPSTREAM_FAILED:
                return f"{status_words(UPSTREAM_FAILED).lower()}: {error.get('message')}"
            return f"failed: {error.get('type')}: {error.get('message')}"
        if event.type == "node.waiting":
            return f"waiting for approval: {payload.get('title')}"
        if event.type == "node.resumed":
            return "decided; running it now"
        if event.type.startswith("compensation."):
            return _compensation_detail(event)
        if event.type == "node.interrupted":
            previous = payload.get("previousStatus")
            return f"was {previous} when the last runner stopped; running it again"
        return event.type.removeprefix("node.")

    def _execution_line(self, event: ExecutionEvent) -> str | None:
        kind = event.type.removeprefix("execution.")
        if kind in ("created",):
            return None
        if kind in ("started", "resumed"):
            return f"execution {event.execution_id} {kind}"
        error = event.payload.get("error")
        reason = f": {error.get('message')}" if isinstance(error, dict) else ""
        return f"execution {kind}{reason}"

    def _elapsed(self, node_id: str) -> str:
        started = self._started.pop(node_id, None)
        return duration_words(time.monotonic() - started) if started is not None else "?"


def _compensation_detail(event: ExecutionEvent) -> str:
    kind = event.type.removeprefix("compensation.")
    if kind == "started":
        return f"compensating with {event.payload.get('tool')}"
    if kind == "failed":
        error = event.payload.get("error", {})
        return f"compensation failed: {error.get('type')}: {error.get('message')}"
    return kind
