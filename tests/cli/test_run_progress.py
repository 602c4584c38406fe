"""Progress of ``studio run`` on a terminal: a few lines a second, not one per event. A real
``studio run`` under a pseudo-terminal, and the printer fed events on a clock the test keeps."""

import io
import json
import os
import pty
import re
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from studio.cli.progress import PROGRESS_INTERVAL, ProgressPrinter
from studio.model.execution import ExecutionEvent
from tests.cli_runner import REPO_ROOT

COUNTED = re.compile(r"^\[(\d+)/(\d+)\] ", re.MULTILINE)


def chain_file(folder: Path, count: int) -> Path:
    nodes = [{"id": f"n{index}", "agentId": "demo-echo-agent"} for index in range(count)]
    edges = [{"source": f"n{index}", "target": f"n{index + 1}"} for index in range(count - 1)]
    path = folder / "chain.json"
    path.write_text(json.dumps({"name": "chain", "nodes": nodes, "edges": edges}))
    return path


def run_on_a_terminal(*args: str, data_dir: Path) -> tuple[int, str, float]:
    """``studio ARGS`` with stdin, stdout and stderr on a pseudo-terminal: its exit code,
    everything it wrote there, and how long it took."""
    leader, follower = pty.openpty()
    began = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "studio", *args],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        cwd=REPO_ROOT,
        env={**os.environ, "STUDIO_DATA_DIR": str(data_dir)},
    )
    os.close(follower)
    shown = bytearray()
    try:
        while chunk := _read(leader):
            shown += chunk
    finally:
        os.close(leader)
        code = process.wait(timeout=120)
    return code, shown.decode("utf-8").replace("\r\n", "\n"), time.monotonic() - began


def _read(leader: int) -> bytes:
    try:
        return os.read(leader, 65536)
    except OSError:  # EIO: the terminal's other side is closed, the command has ended
        return b""


def test_on_a_terminal_a_long_run_prints_a_few_progress_lines_a_second(tmp_path: Path) -> None:
    nodes = 400
    code, shown, took = run_on_a_terminal(
        "run", str(chain_file(tmp_path, nodes)), data_dir=tmp_path / "data"
    )
    assert code == 0, shown
    counted = [(int(done), int(total)) for done, total in COUNTED.findall(shown)]
    assert counted[-1] == (nodes, nodes)  # the last count is shown before the run ends
    assert len(counted) <= took / PROGRESS_INTERVAL + 3, shown
    assert "execution completed" in shown
    assert re.search(r"execution \S+: Completed", shown)  # the record follows the progress


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class Clock:
    """Monotonic seconds the test moves on."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def event(kind: str, node_id: str | None = None, **payload: object) -> ExecutionEvent:
    return ExecutionEvent("run-1", 1, kind, node_id, dict(payload), datetime.now(UTC))


def test_on_a_terminal_node_lines_wait_for_the_interval_and_failures_do_not() -> None:
    stream, clock = Terminal(), Clock()
    printer = ProgressPrinter(3, stream=stream, clock=clock)
    printer(event("execution.started"))
    printer(event("node.started", "a"))  # the first node line is shown at once
    clock.now += PROGRESS_INTERVAL / 4
    printer(event("node.completed", "a"))
    printer(event("node.started", "b"))  # both held; only the latest is worth showing
    clock.now += PROGRESS_INTERVAL / 4
    failure = {"type": "Boom", "message": "it broke"}
    printer(event("node.failed", "b", error=failure))  # shown at once, after the held line
    printer(event("node.skipped", "c"))
    printer.close()  # the held line is shown when the run ends
    assert stream.getvalue().splitlines() == [
        "execution run-1 started",
        "[0/3] ▶ a  started",
        "[1/3] ▶ b  started",
        "[2/3] ✗ b  failed: Boom: it broke",
        "[3/3] – c  skipped",
    ]


def test_on_a_terminal_a_node_line_is_shown_once_the_interval_is_up() -> None:
    stream, clock = Terminal(), Clock()
    printer = ProgressPrinter(2, stream=stream, clock=clock)
    printer(event("node.started", "a"))
    printer(event("node.completed", "a"))
    clock.now += PROGRESS_INTERVAL
    printer(event("node.started", "b"))
    assert stream.getvalue().splitlines() == ["[0/2] ▶ a  started", "[1/2] ▶ b  started"]


def test_into_a_pipe_or_a_file_every_transition_keeps_its_line() -> None:
    stream, clock = io.StringIO(), Clock()
    printer = ProgressPrinter(2, stream=stream, clock=clock)
    for node_id in ("a", "b"):
        printer(event("node.started", node_id))
        printer(event("node.completed", node_id))
    printer.close()
    lines = stream.getvalue().splitlines()
    assert [line.split("  ")[0] for line in lines] == [
        "[0/2] ▶ a",
        "[1/2] ✓ a",
        "[1/2] ▶ b",
        "[2/2] ✓ b",
    ]
