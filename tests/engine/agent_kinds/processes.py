"""Watching real processes from tests: are they gone (or only a zombie nobody reaped)?"""

import asyncio
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any


def is_gone(pid: int) -> bool:
    """True when the process no longer runs; an unreaped zombie counts as gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return True
    # The state follows the command name, which is in parentheses and may hold spaces.
    return stat.rsplit(")", 1)[1].split()[0] in {"Z", "X"}


def wait_until_gone(pid: int, timeout: float = 5.0) -> bool:
    """Whether the process is gone within ``timeout`` seconds (a kill takes a moment)."""
    deadline = time.monotonic() + timeout
    while not is_gone(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def read_pids(pid_file: Path) -> list[int]:
    """The whitespace-separated pids a test child wrote to a file."""
    return [int(word) for word in pid_file.read_text().split()]


async def cancel_once_started(work: Coroutine[Any, Any, Any], pid_file: Path) -> float:
    """Start ``work``, cancel it as soon as its child has written ``pid_file``.

    Returns how long the cancellation took; raises if the work ended by itself.
    """
    task = asyncio.ensure_future(work)
    deadline = time.monotonic() + 10
    while not (pid_file.exists() and pid_file.read_text().strip()):
        assert not task.done(), f"the work ended before its child started: {task!r}"
        assert time.monotonic() < deadline, "the child never wrote its pid"
        await asyncio.sleep(0.01)
    started = time.monotonic()
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        return time.monotonic() - started
    raise AssertionError("the work was not cancelled")
