"""Live progress of a run in a terminal: one line per node transition, on stderr."""

import sys
import time
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


class ProgressPrinter:
    """Turns runner events into short lines a person can follow."""

    def __init__(self, total_nodes: int, stream: TextIO = sys.stderr, finished: int = 0) -> None:
        self.total, self.stream = total_nodes, stream
        self.finished = finished
        self._started: dict[str, float] = {}

    def __call__(self, event: ExecutionEvent) -> None:
        line = self.describe(event)
        if line:
            print(line, file=self.stream, flush=True)

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
        started = self._started.get(node_id)
        return duration_words(time.monotonic() - started) if started is not None else "?"


def _compensation_detail(event: ExecutionEvent) -> str:
    kind = event.type.removeprefix("compensation.")
    if kind == "started":
        return f"compensating with {event.payload.get('tool')}"
    if kind == "failed":
        error = event.payload.get("error", {})
        return f"compensation failed: {error.get('type')}: {error.get('message')}"
    return kind
